import { describe, expect, it } from 'vitest';
import type { Message } from '../../providers/types.js';
import { compactHistory, ELIDED_PREFIX } from './compact.js';
import { estimatePromptTokens } from './estimate.js';

/** A history of `turns` tool turns, each one call with a result of `size` bytes. */
function history(turns: number, size: number): Message[] {
  const out: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }];
  for (let t = 1; t <= turns; t++) {
    out.push({ role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'read', input: { file_path: `f${t}` } }] });
    out.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: 'x'.repeat(size), is_error: false }] });
  }
  return out;
}

/** Every tool_result answers a tool_use of the message just before it, and every tool_use is answered. */
function pairsValid(messages: readonly Message[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const asked = new Set(m.role === 'assistant' ? m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : []);
    const next = messages[i + 1];
    const answered = new Set(next?.role === 'user' ? next.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) : []);
    if ([...asked].some((id) => !answered.has(id))) return false;
    if (m.role === 'user' && i > 0) {
      const prev = messages[i - 1]!;
      const ids = new Set(prev.role === 'assistant' ? prev.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : []);
      if (m.content.some((b) => b.type === 'tool_result' && !ids.has(b.tool_use_id))) return false;
    }
  }
  return true;
}

describe('compactHistory', () => {
  it('elides old results oldest first, leaving the latest turns and every block in place', () => {
    const input = history(4, 1000);
    const out = compactHistory(input, { keepTurns: 2, saveBytes: 1500 });
    expect(out.elided).toBe(2);
    expect(out.droppedTurns).toBe(0);
    expect(out.messages).toHaveLength(input.length);
    const results = out.messages.flatMap((m) => m.content.filter((b) => b.type === 'tool_result'));
    expect(results.map((r) => (r.type === 'tool_result' && r.content.startsWith(ELIDED_PREFIX) ? 'elided' : 'kept'))).toEqual(['elided', 'elided', 'kept', 'kept']);
    expect(results[0]).toMatchObject({ content: expect.stringContaining('1000 bytes of read output') });
    expect(pairsValid(out.messages)).toBe(true);
    // The input is not changed.
    expect(input[2]!.content[0]).toMatchObject({ content: 'x'.repeat(1000) });
  });

  it('stops eliding once enough is saved', () => {
    expect(compactHistory(history(4, 1000), { keepTurns: 1, saveBytes: 100 }).elided).toBe(1);
  });

  it('drops whole turns when eliding is not enough, keeps pairs valid and says so in the first message', () => {
    for (let keep = 1; keep <= 3; keep++) {
      for (const save of [10, 5_000, 50_000]) {
        const out = compactHistory(history(5, 1000), { keepTurns: keep, saveBytes: save });
        expect(pairsValid(out.messages), `keep ${keep} save ${save}`).toBe(true);
        expect(out.messages.filter((m) => m.role === 'assistant').length).toBeGreaterThanOrEqual(keep);
        if (out.droppedTurns > 0) expect(JSON.stringify(out.messages[0])).toContain(`removed ${out.droppedTurns} earlier turn`);
      }
    }
  });

  it('with the splitPairs fault, leaves a tool_result whose tool_use is gone', () => {
    const out = compactHistory(history(3, 10), { keepTurns: 1, saveBytes: 60, splitPairs: true });
    expect(pairsValid(out.messages)).toBe(false);
  });

  it('counts earlier drops in the note', () => {
    const once = compactHistory(history(5, 10), { keepTurns: 3, saveBytes: 1 });
    const twice = compactHistory(once.messages, { keepTurns: 1, saveBytes: 1 });
    expect(JSON.stringify(twice.messages[0])).toContain(`removed ${once.droppedTurns + twice.droppedTurns} earlier turns`);
  });
});

describe('estimatePromptTokens', () => {
  it('is bytes / 4, or the provider ratio when it counted more', () => {
    expect(estimatePromptTokens(4001, null)).toBe(1001);
    expect(estimatePromptTokens(4000, { tokens: 2000, bytes: 4000 })).toBe(2000);
    expect(estimatePromptTokens(8000, { tokens: 2000, bytes: 4000 })).toBe(4000);
    expect(estimatePromptTokens(4000, { tokens: 100, bytes: 4000 })).toBe(1000);
  });
});
