/**
 * Issue 23, class 7: the environment a command sees is an allow list, with
 * bubblewrap and without it. Credentials in the harness's environment
 * (the provider key, a database password, cloud keys, tokens under any
 * name) never reach what the model gets back, however the command asks
 * for them (`env`, `printenv`, /proc/self/environ, a child process).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PASS_ENV_VARIABLE } from '../../src/harness/sandbox/command-env.js';
import { bubblewrap, noSandbox, type CommandSandbox } from '../../src/harness/sandbox/sandbox.js';
import { bashTool } from '../../src/harness/tools/bash.js';
import { bwrapOrFail, makeLab, removeLabs } from './lab.js';

afterAll(removeLabs, 180_000);

const SECRETS: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-envtest-provider-key',
  OPENAI_API_KEY: 'sk-envtest-openai',
  PGPASSWORD: 'envtest-pg-password',
  DATABASE_URL: 'postgres://app:envtest-db-password@db/app',
  STRIPE_WEBHOOK_KEY: 'envtest-webhook-key',
  AZURE_DEVOPS_PAT: 'envtest-devops-pat',
  SSH_PRIVATE_KEY: 'envtest-ssh-private-key',
  SSH_AUTH_SOCK: '/tmp/envtest-agent.sock',
  NPM_CONFIG__AUTH: 'envtest-npm-auth',
  GIT_ASKPASS: '/tmp/envtest-askpass',
  NODE_OPTIONS: '--require=/tmp/envtest-preload.js',
  SOME_INNOCENT_LOOKING: 'envtest-unlisted-value',
};

const saved = new Map<string, string | undefined>();
beforeEach(() => {
  for (const [k, v] of Object.entries({ ...SECRETS, FAULTLINE_ENVTEST_PASSED: 'envtest-passed-on-purpose' })) {
    saved.set(k, process.env[k]);
    process.env[k] = v;
  }
});
afterEach(() => {
  for (const [k, v] of saved) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  delete process.env[PASS_ENV_VARIABLE];
});

const VARIANTS: { name: string; make: (ws: string, home: string) => CommandSandbox; run: boolean }[] = [
  { name: 'bubblewrap', make: (ws, home) => bubblewrap({ workspace: ws, homeDir: home }), run: bwrapOrFail() },
  { name: 'no sandbox', make: () => noSandbox(), run: true },
  { name: 'no sandbox, no PID namespace', make: () => noSandbox(undefined, { pidNamespace: false }), run: true },
];

describe.each(VARIANTS.filter((v) => v.run))('$name', (variant) => {
  it('no credential of the harness environment reaches the command, by any way of asking', async () => {
    const lab = makeLab();
    const command = 'env; printenv; cat /proc/self/environ | tr "\\0" "\\n"; bash -c env; echo "pg=$PGPASSWORD db=$DATABASE_URL"';
    const out = await bashTool.execute({ command }, { workspace: lab.ws, signal: new AbortController().signal, sandbox: variant.make(lab.ws, lab.home) });
    for (const [name, value] of Object.entries(SECRETS)) expect(out.content, name).not.toContain(value);
    // What programs need is still there.
    expect(out.content).toMatch(/^PATH=/m);
    expect(out.content).toMatch(/^HOME=/m);
  }, 30_000);

  it(`passes a variable named in ${PASS_ENV_VARIABLE}, and only that one`, async () => {
    const lab = makeLab();
    process.env[PASS_ENV_VARIABLE] = 'FAULTLINE_ENVTEST_PASSED';
    const out = await bashTool.execute({ command: 'env' }, { workspace: lab.ws, signal: new AbortController().signal, sandbox: variant.make(lab.ws, lab.home) });
    expect(out.content).toContain('FAULTLINE_ENVTEST_PASSED=envtest-passed-on-purpose');
    expect(out.content).not.toContain('envtest-pg-password');
  }, 30_000);
});

describe('the default (no sandbox given at all)', () => {
  it('filters the environment too', async () => {
    const lab = makeLab();
    const out = await bashTool.execute({ command: 'env' }, { workspace: lab.ws, signal: new AbortController().signal });
    for (const [name, value] of Object.entries(SECRETS)) expect(out.content, name).not.toContain(value);
  }, 30_000);
});
