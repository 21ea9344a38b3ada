import { describe, expect, it } from 'vitest';
import { DenialTracker } from './denial-tracker.js';
import { checkPermission } from './chain.js';
import type { PermissionConfig, PermissionSubject } from './types.js';

describe('denial tracker', () => {
  it('trips exactly once, on the Nth denial of the same tool, not on every later check', () => {
    const t = new DenialTracker({ threshold: 3 });
    const tripped = Array.from({ length: 7 }, () => t.record('bash', 'deny').tripped);
    expect(tripped).toEqual([false, false, true, false, false, false, false]);
    expect(t.isTripped('bash')).toBe(true);
    expect(t.stats()).toEqual({ evaluated: 7, triggered: 1 });
  });

  it('counts each tool separately', () => {
    const t = new DenialTracker({ threshold: 2 });
    t.record('bash', 'deny');
    expect(t.record('write', 'deny').tripped).toBe(false);
    expect(t.record('bash', 'deny').tripped).toBe(true);
    expect(t.isTripped('write')).toBe(false);
  });

  it('keeps counting across allowed calls in between (a model alternating ls with the refused call still loops)', () => {
    const t = new DenialTracker({ threshold: 3 });
    t.record('bash', 'deny');
    t.record('bash', 'allow');
    t.record('bash', 'deny');
    t.record('bash', 'allow');
    expect(t.record('bash', 'deny').tripped).toBe(true);
  });

  it('resets a fused tool when a call of it is allowed (a human approved), and can trip again: once per trip', () => {
    const t = new DenialTracker({ threshold: 2 });
    const trips: boolean[] = [];
    for (const d of ['deny', 'deny', 'deny', 'allow', 'deny', 'deny', 'deny'] as const) trips.push(t.record('bash', d).tripped);
    expect(trips).toEqual([false, true, false, false, false, true, false]);
    expect(t.stats().triggered).toBe(2);
  });

  it('clears on reset()', () => {
    const t = new DenialTracker({ threshold: 1 });
    t.record('bash', 'deny');
    t.reset();
    expect(t.isTripped('bash')).toBe(false);
    expect(t.count('bash')).toBe(0);
  });
});

describe('denial fuse in the chain', () => {
  const cfg = (denials: DenialTracker, headless = true): PermissionConfig => ({ mode: 'default', headless, workspaceRoot: '/tmp/ws-fuse', homeDir: '/tmp/home-fuse', denials });
  const bash = (command: string): PermissionSubject => ({ tool: 'bash', input: { command }, readOnly: false, paths: [], command });

  it('refuses further calls of a fused tool with source denial_fuse and tells the model to stop retrying', () => {
    const denials = new DenialTracker({ threshold: 3 });
    const trips: boolean[] = [];
    const sources: string[] = [];
    // What the pipeline does at its single exit: check, then record the final decision.
    for (const c of ['npm publish', 'npm publish', 'npm publish', 'ls', 'npm publish']) {
      const r = checkPermission(bash(c), cfg(denials));
      sources.push(`${r.decision}:${r.source}`);
      trips.push(denials.record('bash', r.decision === 'allow' ? 'allow' : 'deny').tripped);
    }
    expect(trips).toEqual([false, false, true, false, false]);
    expect(sources).toEqual(['deny:default', 'deny:default', 'deny:default', 'deny:denial_fuse', 'deny:denial_fuse']);
    const last = checkPermission(bash('ls'), cfg(denials));
    expect(last.reason).toMatch(/Stop retrying bash/);
    expect(checkPermission(bash('ls'), { ...cfg(denials), skipSteps: new Set(['denial_fuse']) }).decision).toBe('allow');
  });

  it('asks rather than denies when a human is there, keeping the human able to override (docs/harness-rules.md#denial-fuse)', () => {
    const denials = new DenialTracker({ threshold: 1 });
    denials.record('bash', 'deny');
    const r = checkPermission(bash('ls'), cfg(denials, false));
    expect([r.decision, r.source, r.neededPrompt]).toEqual(['ask', 'denial_fuse', true]);
  });
});
