/** Turns read against what the mock issued: a harness's own assistant turn or a broken attempt does not move the script. */
import { describe, expect, it } from 'vitest';
import type { Message } from '../providers/types.js';
import type { MockReply } from './engine.js';
import { IssuedLedger } from './issued-ledger.js';

const usage = { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0 };
const reply = (turn: number, ids: string[]): MockReply => ({
  turn,
  content: ids.map((id) => ({ type: 'tool_use' as const, id, name: 'read', input: {} })),
  stopReason: 'tool_use',
  usage,
  cutToolInput: false,
  fault: null,
});
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const asks = (...ids: string[]): Message => ({ role: 'assistant', content: ids.map((id) => ({ type: 'tool_use' as const, id, name: 'read', input: {} })) });
const answers = (...ids: string[]): Message => ({ role: 'user', content: ids.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'x', is_error: false })) });

describe('the issued ledger', () => {
  it("does not count a harness's own leading assistant turn", () => {
    const ledger = new IssuedLedger();
    const canned: Message = { role: 'assistant', content: [{ type: 'text', text: 'Got it. Thanks for the context!' }] };
    expect(ledger.turnsTaken([user('setup'), canned, user('Read a.txt')])).toBe(0);
    ledger.issue(reply(1, ['t1']));
    expect(ledger.turnsTaken([user('setup'), canned, user('Read a.txt'), asks('t1'), answers('t1')])).toBe(1);
  });

  it('does not count a broken attempt kept in the history', () => {
    const ledger = new IssuedLedger();
    ledger.breakOff(reply(1, ['t1_cut1']));
    expect(ledger.turnsTaken([user('go'), asks('t1_cut1'), answers('t1_cut1'), user('go on')])).toBe(0);
    ledger.issue(reply(1, ['t1']));
    expect(ledger.turnsTaken([user('go'), asks('t1_cut1'), answers('t1_cut1'), asks('t1'), answers('t1')])).toBe(1);
  });

  it('falls back to counting when the harness rewrote the ids', () => {
    const ledger = new IssuedLedger();
    ledger.issue(reply(1, ['t1']));
    expect(ledger.turnsTaken([user('go'), asks('renamed'), answers('renamed')])).toBe(1);
  });
});
