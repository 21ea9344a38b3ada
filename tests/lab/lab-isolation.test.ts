/**
 * What the lab promises about the machine it runs on: it listens on 127.0.0.1
 * only, answers every request itself (nothing is forwarded, no real key
 * reaches the harness), and leaves no process of the harness behind, however
 * the harness ends.
 */
import { getEventListeners } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelScript } from '../../src/mock/script.js';
import type { LoadedTask } from '../../src/suites/load-suite.js';
import { DUMMY_KEY } from '../../src/suites/lab/lab-env.js';
import { lab } from './lab-run.js';

const dir = mkdtempSync(join(tmpdir(), 'faultline-lab-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const task = (id: string): LoadedTask =>
  ({ id, suite: 'lab-test', file: join(dir, 'x.yaml'), prompt: 'Say hi.', script: ModelScript.parse([{ text: 'hi' }]), expect: {} }) as unknown as LoadedTask;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) if (!alive(pid)) return true;
  return !alive(pid);
}

/**
 * The local addresses of every listening TCP socket on `port`, read from the
 * kernel's socket tables (Linux /proc/net/tcp and tcp6). Reading them sends
 * no packet: probing the machine's other addresses with connects would send
 * traffic to private-range addresses, which this workplace forbids.
 */
function listeningAddresses(port: number): string[] {
  const out: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const row of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , state] = row.trim().split(/\s+/);
      const [hex, portHex] = (local ?? '').split(':');
      if (state !== '0A' || Number.parseInt(portHex ?? '', 16) !== port || !hex) continue; // 0A = LISTEN
      if (hex.length === 8) out.push(Buffer.from(hex, 'hex').reverse().join('.'));
      else out.push(hex === '0'.repeat(32) ? '::' : hex === '00000000000000000000000001000000' ? '::1' : `tcp6:${hex}`);
    }
  }
  return out;
}

describe('the lab', () => {
  it('stops a harness that hangs at the timeout, with the children it started in the background', async () => {
    const pidfile = join(dir, 'hang.pid');
    const run = await lab(['sh', '-c', 'sleep 300 & echo $! > "$PIDFILE"; sleep 300'], [task('hangs')], { env: { PATH: process.env['PATH'] ?? '', PIDFILE: pidfile }, timeoutMs: 1500 });
    expect(run.summary.sessions[0]).toMatchObject({ outcome: 'aborted', stop: 'aborted', timedOut: true });
    expect(await goneWithin(Number(readFileSync(pidfile, 'utf8')), 3000)).toBe(true);
  });

  it('stops what a harness left running when it exited on its own', async () => {
    const pidfile = join(dir, 'left.pid');
    const run = await lab(['sh', '-c', 'sleep 300 & echo $! > "$PIDFILE"; exit 0'], [task('leaves-a-child')], { env: { PATH: process.env['PATH'] ?? '', PIDFILE: pidfile } });
    expect(run.summary.sessions[0]?.exit.code).toBe(0);
    expect(await goneWithin(Number(readFileSync(pidfile, 'utf8')), 3000)).toBe(true);
  });

  it('listens on 127.0.0.1 only, answers the harness itself, and gives it dummy keys and no proxy', async () => {
    const out = join(dir, 'seen.json');
    let origin = '';
    let listening: string[] = [];
    const harness = [
      'node',
      '-e',
      `const r = await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { method: 'POST', headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY }, body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'Say hi.' }] }) });
       (await import('node:fs')).writeFileSync(process.env.OUT, JSON.stringify({ env: process.env, status: r.status, reply: await r.json() }));`,
    ];
    const parent = { PATH: process.env['PATH'] ?? '', OUT: out, ANTHROPIC_API_KEY: 'sk-ant-real-key', OPENAI_API_KEY: 'sk-real-key', GITHUB_TOKEN: 'ghp_x', HTTPS_PROXY: 'http://10.9.9.9:3128', AWS_SECRET_ACCESS_KEY: 'aws' };
    const run = await lab(['node', '--input-type=module', ...harness.slice(1)], [task('calls')], {
      env: parent,
      onListening: (at) => {
        origin = at;
        listening = listeningAddresses(Number(new URL(at).port));
      },
    });
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // One listening socket on that port, bound to 127.0.0.1 (not 0.0.0.0, not ::).
    expect(listening).toEqual(['127.0.0.1']);
    const seen = JSON.parse(readFileSync(out, 'utf8')) as { env: Record<string, string>; status: number; reply: { id: string; content: unknown } };
    expect(seen.status).toBe(200);
    expect(seen.reply.id).toMatch(/^msg_mock_/);
    expect(seen.reply.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(seen.env).toMatchObject({ ANTHROPIC_API_KEY: DUMMY_KEY, OPENAI_API_KEY: DUMMY_KEY, FAULTLINE_LAB: '1', FAULTLINE_LAB_PROMPT: 'Say hi.' });
    expect(seen.env['ANTHROPIC_BASE_URL']?.startsWith(`${origin}/s/`)).toBe(true);
    expect(seen.env['OPENAI_BASE_URL']).toBe(`${seen.env['ANTHROPIC_BASE_URL']}/v1`);
    for (const gone of ['GITHUB_TOKEN', 'HTTPS_PROXY', 'AWS_SECRET_ACCESS_KEY']) expect(seen.env[gone]).toBeUndefined();
    expect(JSON.stringify(seen.env)).not.toContain('real-key');
    expect(run.summary.sessions[0]).toMatchObject({ outcome: 'passed', scriptCompleted: true });
    // The recorded request keeps its headers, with the key taken out.
    expect(JSON.stringify(run.events)).not.toContain(DUMMY_KEY);
  });

  it('stops the running harness and its children on an abort (Ctrl-C), and starts no further session', async () => {
    const pidfile = join(dir, 'abort.pid');
    const abort = new AbortController();
    // Abort once the harness has started its child (as a user pressing Ctrl-C mid-session would).
    const poll = setInterval(() => existsSync(pidfile) && (clearInterval(poll), abort.abort('sigint')), 50);
    const run = await lab(['sh', '-c', 'sleep 300 & echo $! > "$PIDFILE"; sleep 300'], [task('first'), task('second')], { env: { PATH: process.env['PATH'] ?? '', PIDFILE: pidfile }, signal: abort.signal });
    expect(run.summary.sessions.map((s) => [s.task.id, s.outcome])).toEqual([['first', 'aborted']]);
    expect(await goneWithin(Number(readFileSync(pidfile, 'utf8')), 3000)).toBe(true);
  });

  it('leaves no listener on the caller\'s abort signal, however many sessions ran (no MaxListenersExceededWarning past 10)', async () => {
    const abort = new AbortController();
    const tasks = Array.from({ length: 12 }, (_, i) => task(`quick-${i}`));
    const run = await lab(['sh', '-c', 'exit 0'], tasks, { signal: abort.signal, graceMs: 10 });
    expect(run.summary.sessions).toHaveLength(12);
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
  });

  it('says so when the harness command cannot be started', async () => {
    const run = await lab(['./no-such-harness-binary'], [task('missing')]);
    expect(run.summary.sessions[0]?.outcome).toBe('error');
    expect(run.summary.sessions[0]?.exit.spawnError).toMatch(/ENOENT/);
  });
});
