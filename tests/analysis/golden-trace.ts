/**
 * A small hand-written trace whose every report number is computed by hand in
 * golden.test.ts. Two ended sessions and one that never ended.
 */
import { ev, line } from './fixtures.js';

export function goldenLines(): string[] {
  const e = [
    ev.sessionStart('s1', ['identical_call_loop', 'denial_fuse', 'token_budget']),
    ev.modelRequest('s1'),
    ev.modelError('s1', 'rate_limited', true),
    ev.modelRequest('s1'),
    ev.modelResponse('s1', 'end_turn'),
    // read: two successes, a tool_error (executed) and a permission denial (pre-execution, 0 ms)
    ev.toolCall('s1', 'read', 't1'), ev.permission('s1', 'read', 't1', 'allow', 'allow_rule', false), ev.toolSuccess('s1', 'read', 't1', 10),
    ev.toolCall('s1', 'read', 't2'), ev.permission('s1', 'read', 't2', 'allow', 'read_only', false), ev.toolSuccess('s1', 'read', 't2', 20),
    ev.toolCall('s1', 'read', 't3'), ev.permission('s1', 'read', 't3', 'ask', 'user', true), ev.toolFailure('s1', 'read', 't3', 'tool_error', 30),
    ev.toolCall('s1', 'read', 't4'), ev.permission('s1', 'read', 't4', 'deny', 'deny_rule', false), ev.toolFailure('s1', 'read', 't4', 'permission_denied', 0),
    // bash: a success, an exception (our bug), and one call that vanished (lost)
    ev.toolCall('s1', 'bash', 'b1'), ev.permission('s1', 'bash', 'b1', 'ask', 'user', true), ev.toolSuccess('s1', 'bash', 'b1', 100),
    ev.toolCall('s1', 'bash', 'b2'), ev.toolFailure('s1', 'bash', 'b2', 'exception', 300),
    ev.toolCall('s1', 'bash', 'b3'),
    // a hallucinated tool name
    ev.toolCall('s1', '<unknown>', 'u1', { requested_tool: 'reed' }), ev.toolFailure('s1', '<unknown>', 'u1', 'not_found', 0),
    ev.defenseTrigger('s1', 'identical_call_loop'), ev.defenseTrigger('s1', 'identical_call_loop'),
    ev.defenseStats('s1', 'identical_call_loop', 10, 2), ev.defenseStats('s1', 'denial_fuse', 4, 0), ev.defenseStats('s1', 'token_budget', 0, 0),
    // expectations: s1 passes e1 and e2; s2 fails e3 and e1; s3 fails e2 and never ends
    ev.expectation('s1', 'e1', true, 'ok'),
    ev.expectation('s1', 'e2', true, 'ok'),
    ev.sessionEnd('s1', 'passed', { turns: 3, input_tokens: 100, cache_read_tokens: 300, cache_write_tokens: 100 }),

    ev.sessionStart('s2', ['identical_call_loop', 'low_yield_spin']),
    ev.modelRequest('s2'),
    ev.modelResponse('s2', 'null'),
    ev.toolCall('s2', 'read', 't5'), ev.toolSuccess('s2', 'read', 't5', 40),
    ev.toolCall('s2', 'bash', 'b4'), ev.toolFailure('s2', 'bash', 'b4', 'timeout', 500),
    ev.defenseStats('s2', 'identical_call_loop', 5, 0), ev.defenseStats('s2', 'low_yield_spin', 3, 0),
    ev.expectation('s2', 'e3', false, 'answer contains "42"'),
    ev.expectation('s2', 'e1', false, 'stop was max_turns'),
    ev.expectation('s2', 'e2', true, 'ok'),
    ev.sessionEnd('s2', 'failed', { stop: 'max_turns', turns: 1, input_tokens: 200 }),

    ev.sessionStart('s3', [], { defenses_available: ['cut_tool_call_guard'] }),
    ev.expectation('s3', 'e2', false, 'no answer <b>at all</b>'),
  ];
  return e.map(line);
}
