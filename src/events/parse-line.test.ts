import { describe, expect, it } from 'vitest';
import { parseLine } from './parse-line.js';

const good = {
  v: 1,
  ts: 1,
  seq: 1,
  event: 'tool_failure',
  run_id: 'r',
  session_id: 's',
  task_id: 't',
  turn: 1,
  tool: 'read',
  tool_use_id: 'toolu_1',
  duration_ms: 0.5,
  failure_kind: 'exception',
  error_code: null,
};

describe('parseLine', () => {
  it('accepts a valid event', () => {
    expect(parseLine(JSON.stringify(good)).ok).toBe(true);
  });

  it('names malformed JSON', () => {
    const v = parseLine('{"v":1,');
    expect(v).toMatchObject({ ok: false, kind: 'not_json' });
  });

  it('calls an unterminated unparsable last line torn', () => {
    expect(parseLine('{"v":1,"ev', { unterminated: true })).toMatchObject({ ok: false, kind: 'torn' });
  });

  it('rejects a newer contract version before anything else', () => {
    expect(parseLine(JSON.stringify({ ...good, v: 2 }))).toMatchObject({ ok: false, kind: 'newer_version' });
  });

  it('rejects an unknown event name', () => {
    const v = parseLine(JSON.stringify({ ...good, event: 'tool_explosion' }));
    expect(v).toMatchObject({ ok: false, kind: 'unknown_event' });
  });

  it('names the field that violates the schema', () => {
    const v = parseLine(JSON.stringify({ ...good, failure_kind: 'flaky' }));
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toMatch(/^tool_failure: failure_kind: /);
  });

  it('rejects free text in a label field', () => {
    const v = parseLine(JSON.stringify({ ...good, tool: 'read /etc/passwd' }));
    expect(v).toMatchObject({ ok: false, kind: 'schema' });
  });

  it('rejects fields outside the contract', () => {
    const v = parseLine(JSON.stringify({ ...good, message: 'ENOENT: /home/me/secret' }));
    expect(v).toMatchObject({ ok: false, kind: 'schema' });
  });

  it('says when the event field is missing, and never looks an event name up on the prototype', () => {
    const { event: _gone, ...missing } = good;
    expect(parseLine(JSON.stringify(missing))).toEqual({ ok: false, kind: 'unknown_event', reason: 'no "event" field' });
    for (const name of ['constructor', 'toString', '__proto__']) {
      expect(parseLine(JSON.stringify({ ...good, event: name }))).toEqual({ ok: false, kind: 'unknown_event', reason: `unknown event "${name}"` });
    }
  });
});
