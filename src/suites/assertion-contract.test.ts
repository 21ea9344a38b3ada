import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ShippedDefense } from '../events/labels.js';
import { EVENT_SCHEMAS } from '../events/schemas.js';
import { checkAssertionContract, type Contract } from './assertion-contract.js';
import { parseEventAssertion } from './event-assertion.js';

const check = (source: string, contract?: Contract) => checkAssertionContract(parseEventAssertion(source), contract);
const messages = (source: string, contract?: Contract) => check(source, contract).map((p) => p.message);

describe('event assertions against the event contract', () => {
  it('rejects an unknown event, a field the event lacks and a value outside a closed label set, with a did-you-mean', () => {
    expect(check('count(tool_cal) == 0')).toEqual([{ message: expect.stringMatching(/^unknown event "tool_cal" \(did you mean tool_call\?\); events: run_start, /), offset: 6 }]);
    expect(check('count(tool_call where tol = read) == 0')).toEqual([{ message: expect.stringMatching(/^tool_call has no field "tol" \(did you mean tool\?\); its fields: v, ts, /), offset: 22 }]);
    expect(check('count(tool_failure where failure_kind = not_fund) == 1')).toEqual([
      { message: expect.stringMatching(/^tool_failure\.failure_kind cannot be "not_fund" \(did you mean not_found\?\); one of: not_found, hook_blocked, /), offset: 40 },
    ]);
    expect(messages('distinct(model_request.prefix_hsh) == 1')[0]).toMatch(/^model_request has no field "prefix_hsh" \(did you mean prefix_hash\?\)/);
  });

  it('checks a value by parsing it with its field\'s schema, whatever kind of schema that is', () => {
    expect(messages('count(tool_call where turn = x) == 0')).toEqual(['tool_call.turn cannot be "x" (Invalid input: expected number, received string)']);
    expect(messages('count(mcp_server where server = "a b") == 0')[0]).toMatch(/^mcp_server\.server cannot be "a b" \(/);
    expect(messages('count(tool_call where tool = find_file) == 0')).toEqual([]);
    expect(messages('count(session_end where outcome = null) == 0')).toEqual([]);
    // optional but not nullable: an absent field is never null, so `= null` would never match
    expect(messages('count(run_start where logical_run_id = null) == 0')[0]).toMatch(/^run_start\.logical_run_id cannot be null/);
  });

  it('accepts every event and every field of the contract: nothing is listed twice', () => {
    for (const [event, schema] of Object.entries(EVENT_SCHEMAS)) {
      for (const field of Object.keys(schema.shape)) expect(messages(`distinct(${event}.${field}) >= 0`)).toEqual([]);
    }
  });

  it('accepts every shipped defense name, a user-defined one, and refuses what the name pattern does not allow', () => {
    for (const value of ShippedDefense.options) expect(messages(`count(defense_trigger where defense = ${value}) >= 0`)).toEqual([]);
    expect(messages('count(defense_trigger where defense = my_own_guard) >= 0')).toEqual([]);
    expect(messages('count(defense_trigger where defense = "Not-A-Name") == 0')[0]).toMatch(/^defense_trigger\.defense cannot be "Not-A-Name" \(a defense name is lower-case/);
  });

  it('keeps working when a closed set opens to shipped names plus a user pattern', () => {
    const defense = z.union([z.enum(['denial_fuse', 'token_budget']), z.string().regex(/^user\.[a-z_]{1,32}$/)]);
    const contract: Contract = { defense_trigger: { shape: { defense } } };
    expect(messages('count(defense_trigger where defense = denial_fuse) == 0', contract)).toEqual([]);
    expect(messages('count(defense_trigger where defense = user.my_check) == 0', contract)).toEqual([]);
    expect(messages('count(defense_trigger where defense = denial_fuze) == 0', contract)).toEqual([
      'defense_trigger.defense cannot be "denial_fuze" (Invalid string: must match pattern /^user\\.[a-z_]{1,32}$/) (did you mean denial_fuse?)',
    ]);
  });

  it('has nothing to check in lost', () => {
    expect(messages('lost == 0')).toEqual([]);
  });
});
