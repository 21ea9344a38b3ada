import { describe, expect, it } from 'vitest';
import { attributeStop } from './stop-attribution.js';
import { decideTurn } from './turn-decision.js';

const on = { fallthrough: true, cutGuard: true, failClosed: true };

describe('decideTurn', () => {
  it('executes tool calls on tool_use and ends on end_turn without pending calls', () => {
    expect(decideTurn('tool_use', 2, on)).toEqual({ kind: 'execute', fallthrough: false });
    expect(decideTurn('end_turn', 0, on)).toEqual({ kind: 'stop', stop: 'end_turn', failClosed: false });
  });

  it('falls through to execution on end_turn with a pending tool_use, and stops when the defense is off', () => {
    expect(decideTurn('end_turn', 1, on)).toEqual({ kind: 'execute', fallthrough: true });
    expect(decideTurn('end_turn', 1, { ...on, fallthrough: false })).toMatchObject({ kind: 'stop', stop: 'end_turn' });
  });

  it('never executes a tool call cut by max_tokens or the context window', () => {
    expect(decideTurn('max_tokens', 1, on)).toEqual({ kind: 'reject_cut_calls' });
    expect(decideTurn('context_window_exceeded', 1, on)).toEqual({ kind: 'reject_cut_calls' });
    expect(decideTurn('max_tokens', 0, on)).toMatchObject({ kind: 'stop', stop: 'max_tokens' });
    // With the guard off the cut call would run: the fail-open behaviour the guard exists for.
    expect(decideTurn('max_tokens', 1, { ...on, cutGuard: false })).toMatchObject({ kind: 'execute' });
  });

  it('fails closed on null and unknown stop reasons, and fails open without the defense', () => {
    for (const cls of ['null', 'unknown'] as const) {
      expect(decideTurn(cls, 1, on)).toEqual({ kind: 'stop', stop: 'stop_reason_unhandled', failClosed: true });
      expect(decideTurn(cls, 1, { ...on, failClosed: false })).toMatchObject({ kind: 'execute' });
    }
  });

  it('ends on refusal and content_filter and continues a paused turn', () => {
    expect(decideTurn('refusal', 1, on)).toMatchObject({ kind: 'stop', stop: 'refusal' });
    expect(decideTurn('content_filter', 0, on)).toMatchObject({ kind: 'stop', stop: 'content_filter' });
    expect(decideTurn('pause_turn', 0, on)).toEqual({ kind: 'continue' });
  });
});

describe('attributeStop', () => {
  const none = { explicit: null, aborted: false, maxTurns: false, tokenBudget: false, error: null };
  it('ranks explicit reason > abort > max turns > error', () => {
    expect(attributeStop({ ...none, explicit: 'end_turn', aborted: true, maxTurns: true, error: 'model_error' })).toBe('end_turn');
    expect(attributeStop({ ...none, aborted: true, maxTurns: true, error: 'model_error' })).toBe('aborted');
    expect(attributeStop({ ...none, maxTurns: true, error: 'model_error' })).toBe('max_turns');
    expect(attributeStop({ ...none, error: 'model_error' })).toBe('model_error');
  });
});
