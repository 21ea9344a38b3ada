/**
 * The session's system prompt on the wire (docs/harness-rules.md#rules-up-front, docs/harness-rules.md#stable-prefix, docs/harness-rules.md#fact-source-conflict): the
 * configured deny rules and disabled tools reach the model before its first
 * call, and the text is the same bytes on every turn.
 */
import { describe, expect, it } from 'vitest';
import { MemorySink, RunEmitter } from '../../src/events/index.js';
import { DEFAULT_HARNESS_CONFIG } from '../../src/harness/config.js';
import { runAgent } from '../../src/harness/loop/agent-loop.js';
import { createSessionServices } from '../../src/harness/pipeline/session-services.js';
import { createRegistry } from '../../src/harness/tools/builtin.js';
import { mockModel } from '../../src/mock/msw-hub.js';
import { createWorkspace, removeWorkspace } from '../../src/suites/workspace.js';
import { WIRES } from './agent-run.js';

describe.each(WIRES)('the system prompt on the %s wire', (wire) => {
  it('carries the configured permission constraints from the first request on, unchanged every turn', async () => {
    const { model, session } = mockModel([{ tool_use: [{ name: 'ls', input: {} }] }, { text: 'done' }], { wire });
    const workspace = createWorkspace({});
    try {
      const pipeline = createSessionServices({
        workspace,
        mode: 'acceptEdits',
        headless: true,
        rules: [{ id: 'no-push', effect: 'deny', tool: 'bash', pattern: 'git push*' }],
        disabledTools: ['write'],
      });
      const emitter = new RunEmitter(new MemorySink(), 'run').session('s', 't');
      await runAgent({ model, registry: createRegistry(), emitter, prompt: 'List.', workspace, config: { ...DEFAULT_HARNESS_CONFIG, system: 'You are a careful agent.' }, pipeline });
      const systems = session.requests.map((r) => r.request?.system);
      expect(systems).toHaveLength(2);
      expect(systems[0]).toMatch(/^You are a careful agent\.\n\nPermission constraints for this session:/);
      expect(systems[0]).toContain('bash calls matching `git push*`');
      expect(systems[0]).toContain('These tools are disabled: write.');
      expect(systems[1]).toBe(systems[0]);
    } finally {
      session.close();
      removeWorkspace(workspace);
    }
  });
});
