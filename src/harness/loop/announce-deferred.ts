import type { SessionEmitter } from '../../events/emitter.js';
import type { Message } from '../../providers/types.js';
import type { DeferredAnnouncer } from '../context/deferred-announcer.js';

/** Deferred tools that appeared since the last request go at the end of the message about to be sent. */
/** Adds the announcement of newly loaded deferred tools to the last user message; true when it added one. */
export function announceDeferred(announcer: DeferredAnnouncer, messages: Message[], turn: number, emitter: SessionEmitter, full: boolean): boolean {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return false;
  const news = announcer.take(full);
  if (news === null) return false;
  last.content = [...last.content, news.block];
  emitter.emit('tools_announced', { turn, reason: full ? 'after_compaction' : 'new_deferred', tools_count: news.count });
  return true;
}
