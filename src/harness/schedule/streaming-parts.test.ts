import { describe, expect, it } from 'vitest';
import { MemorySink } from '../../events/index.js';
import type { EventInput } from '../../events/schemas.js';
import type { ToolUseBlock } from '../../providers/types.js';
import { BlockFeed } from './block-feed.js';
import { HeldSink } from './held-sink.js';

const block = (id: string): ToolUseBlock => ({ type: 'tool_use', id, name: 'read', input: {} });
const event = (id: string) => ({ event: 'expectation', run_id: 'r', session_id: 's', task_id: 't', id, ok: true, detail: '' }) as unknown as EventInput;

describe('BlockFeed', () => {
  it('hands blocks pushed before and after the consumer waits, in order, and ends on end()', async () => {
    const feed = new BlockFeed();
    feed.push(block('a'));
    const seen: string[] = [];
    const consumer = (async () => {
      for await (const b of feed) seen.push(b.id);
    })();
    await Promise.resolve();
    feed.push(block('b'));
    feed.end();
    feed.push(block('late'));
    await consumer;
    expect(seen).toEqual(['a', 'b']);
  });
});

describe('HeldSink', () => {
  it('writes nothing until released, then the held events in order and later ones directly', () => {
    const target = new MemorySink();
    const held = new HeldSink(target);
    held.emit(event('1'));
    held.emit(event('2'));
    expect(target.events()).toHaveLength(0);
    held.release();
    held.emit(event('3'));
    expect(target.events().map((e) => (e as { id?: string }).id)).toEqual(['1', '2', '3']);
  });

  it('never writes the events of a dropped attempt, not even ones emitted after the drop', () => {
    const target = new MemorySink();
    const held = new HeldSink(target);
    held.emit(event('1'));
    held.drop();
    held.emit(event('2'));
    held.release();
    expect(target.events()).toHaveLength(0);
  });
});
