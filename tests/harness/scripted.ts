/** Test helper: one agent run against the scripted mock, through the real SDK client and msw. */
import type { z } from 'zod';
import { mockModel, type MockSessionHandle } from '../../src/mock/msw-hub.js';
import type { ModelScript } from '../../src/mock/script.js';
import { runWithModel, type AgentRun, type AgentRunOptions, type Wire } from './agent-run.js';

export { lost, WIRES, type Wire } from './agent-run.js';

export interface ScriptedRun extends AgentRun {
  session: MockSessionHandle;
}

export async function runScripted(script: z.input<typeof ModelScript>, options: AgentRunOptions & { wire: Wire }): Promise<ScriptedRun> {
  const { model, session } = mockModel(script, { wire: options.wire });
  try {
    return { ...(await runWithModel(model, options)), session };
  } finally {
    session.close();
  }
}

/** Every tool_use in every assistant message is answered by exactly one tool_result in the next message. */
export function everyToolUseAnswered(run: ScriptedRun): boolean {
  const { messages } = run.result;
  return messages.every((message, i) => {
    if (message.role !== 'assistant') return true;
    const ids = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    if (ids.length === 0) return true;
    const next = messages[i + 1];
    if (!next) return true; // the loop ended on this turn: nothing more is sent
    const answered = next.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []));
    return answered.length === ids.length && ids.every((id) => answered.filter((a) => a === id).length === 1);
  });
}
