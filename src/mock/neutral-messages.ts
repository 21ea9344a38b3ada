/** Builds neutral messages in order, appending to the last message when it has the same role (how the decoders fold wire messages into turns). */
import type { AssistantBlock, Message, UserBlock } from '../providers/types.js';

export class NeutralMessages {
  readonly messages: Message[] = [];

  user(): UserBlock[] {
    const last = this.messages[this.messages.length - 1];
    if (last?.role === 'user') return last.content;
    const created: Message = { role: 'user', content: [] };
    this.messages.push(created);
    return created.content;
  }

  assistant(): AssistantBlock[] {
    const last = this.messages[this.messages.length - 1];
    if (last?.role === 'assistant') return last.content;
    const created: Message = { role: 'assistant', content: [] };
    this.messages.push(created);
    return created.content;
  }
}
