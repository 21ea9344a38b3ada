import { describe, expect, it } from 'vitest';
import { DEFAULT_HARNESS_CONFIG, DEFAULT_RETRY_CONFIG } from '../harness/config.js';
import { DEFAULT_CONTEXT_CONFIG } from '../harness/context/context-manager.js';
import type { LoadedTask } from './load-suite.js';
import { harnessConfig } from './task-harness-config.js';

const task = (settings: Partial<LoadedTask> = {}): LoadedTask => ({ id: 't', prompt: 'p', expect: {}, suite: 's', file: 's.yaml', ...settings });

describe('harnessConfig', () => {
  it('a task without settings gets every default of DEFAULT_HARNESS_CONFIG, keys in its order first', () => {
    const config = harnessConfig(task());
    expect(Object.keys(config).slice(0, Object.keys(DEFAULT_HARNESS_CONFIG).length)).toEqual(Object.keys(DEFAULT_HARNESS_CONFIG));
    for (const [key, value] of Object.entries(DEFAULT_HARNESS_CONFIG)) expect(config[key as keyof typeof config], key).toEqual(value);
    expect(config.context).toEqual(DEFAULT_CONTEXT_CONFIG);
  });

  it("a task's settings win over the defaults; its retries are attempts after the first", () => {
    const config = harnessConfig(task({ max_turns: 3, token_budget: 900, max_tokens: 10, tool_timeout_ms: 5, max_retries: 0, context_manager: false, disabled_defenses: ['reminder_cap'] }));
    expect(config).toMatchObject({ maxTurns: 3, tokenBudget: 900, maxTokens: 10, toolTimeoutMs: 5, disabledDefenses: ['reminder_cap'], context: null });
    expect(config.retry).toEqual({ ...DEFAULT_RETRY_CONFIG, maxAttempts: 1 });
    // Each session gets its own retry settings, not the shared default object.
    expect(harnessConfig(task()).retry).not.toBe(DEFAULT_RETRY_CONFIG);
  });
});
