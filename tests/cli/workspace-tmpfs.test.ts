/**
 * `faultline run` with no --workspace-dir and no TMPDIR/TMP/TEMP puts a
 * read/edit suite's workspaces on /dev/shm where that qualifies
 * (src/suites/workspace-tmpfs.ts), on the main thread and in worker threads,
 * and a suite with bash in the system temp directory. The tasks sleep (the
 * `sleep` tool) so each workspace lives long enough to be found; a workspace
 * is known as this test's by the token in its fixture (other runs share
 * /dev/shm and /tmp).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIN_FREE_BYTES, mountAt, readShmFacts, SHM_DIR, TMPFS_MAGIC } from '../../src/suites/workspace-tmpfs.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { cli } from './cli-io.js';

const TEMP_VARS = ['TMPDIR', 'TMP', 'TEMP'] as const;

/** Why this machine's /dev/shm does not qualify (read here, not from the rule under test), or null when it does. */
function notQualified(): string | null {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  const facts = readShmFacts();
  const mount = facts.mountinfo === null ? null : mountAt(facts.mountinfo, SHM_DIR);
  if (mount?.fstype !== 'tmpfs' || facts.statfs?.type !== TMPFS_MAGIC) return `${SHM_DIR} is not a tmpfs mount`;
  if (mount.options.includes('noexec')) return `${SHM_DIR} is noexec`;
  if (!facts.writable) return `${SHM_DIR} is not writable`;
  if (facts.statfs.bavail * facts.statfs.bsize < MIN_FREE_BYTES) return `${SHM_DIR} has less than 1 GiB free`;
  return null;
}
const skipWhy = notQualified();

function suite(dir: string, token: string, tools: string[]): string {
  let text = `suite: tmpfs\ndefaults: { max_turns: 4, tools: [${tools.join(', ')}] }\ntasks:\n`;
  for (let i = 0; i < 2; i++) {
    text += `  - id: t${i}
    prompt: Fix notes.txt.
    files: { notes.txt: "Helo ${token}\\n" }
    script:
      - tool_use: [{ name: read, input: { file_path: notes.txt } }]
      - tool_use: [{ name: sleep, input: { ms: 400 } }]
      - text: Done.
    expect:
      files: { notes.txt: { contains: "${token}" } }
`;
  }
  const file = join(dir, `suite-${tools.length}.yaml`);
  writeFileSync(file, text);
  return file;
}

/** `dir` (a workspace, or a worker's parent of workspaces) holds a notes.txt with `token`. */
function holds(dir: string, token: string): boolean {
  try {
    if (readFileSync(join(dir, 'notes.txt'), 'utf8').includes(token)) return true;
  } catch {
    // not a workspace of this test, or gone
  }
  try {
    return readdirSync(dir).some((name) => name.startsWith('faultline-ws-') && holds(join(dir, name), token));
  } catch {
    return false;
  }
}

/** Where workspaces holding `token` were seen while `run` ran: directly in `dirs`, or one level down (a worker's parent). */
async function whereSeen(dirs: string[], token: string, run: () => Promise<{ code: number; stdout: string; stderr: string }>) {
  const seen = new Set<string>();
  const look = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('faultline-worker-') && depth === 0) look(join(dir, name), 1);
      if (name.startsWith('faultline-ws-') && holds(join(dir, name), token)) seen.add(depth === 0 ? dir : `${dir}/..`);
    }
  };
  const timer = setInterval(() => dirs.forEach((d) => look(d, 0)), 25);
  try {
    const ran = await run();
    expect(ran.code, ran.stderr).toBe(0);
    // The run says where its workspaces went only when faultline chose the place itself.
    const said = /^workspaces on \/dev\/shm: a tmpfs with \d+ MiB free, and every task writes only through the file tools \(--workspace-dir or TMPDIR chooses another place\)$/m.test(ran.stdout);
    expect(said, ran.stdout).toBe(seen.has(SHM_DIR) || [...seen].some((where) => where.startsWith(`${SHM_DIR}/`)));
  } finally {
    clearInterval(timer);
  }
  return [...seen].map((where) => where.replace(/\/faultline-worker-[^/]+\/\.\.$/, ' (worker)'));
}

describe('the default workspace place', () => {
  const saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    for (const name of TEMP_VARS) {
      saved[name] = process.env[name];
      delete process.env[name];
    }
  });
  afterEach(() => {
    for (const name of TEMP_VARS) if (saved[name] !== undefined) process.env[name] = saved[name];
  });

  it.skipIf(skipWhy !== null)(`puts a read/edit suite's workspaces on /dev/shm, on the main thread and in workers (${skipWhy === null ? 'this machine qualifies' : `skipped: ${skipWhy}`})`, async () => {
    const dir = tempDir();
    const token = randomUUID();
    const file = suite(dir, token, ['read', 'edit', 'sleep']);
    const disk = tmpdir();
    expect(await whereSeen([SHM_DIR, disk], token, () => cli(['run', file, '--workers', '1', '--out', join(dir, 'a.jsonl')]))).toEqual([SHM_DIR]);
    expect(await whereSeen([SHM_DIR, disk], token, () => cli(['run', file, '--workers', '2', '-j', '2', '--out', join(dir, 'b.jsonl')]))).toEqual([`${SHM_DIR} (worker)`]);
    // Nothing of this run is left there (other runs' entries may be).
    expect(readdirSync(SHM_DIR).filter((name) => name.startsWith('faultline-') && holds(join(SHM_DIR, name), token))).toEqual([]);
  });

  it('puts a suite with bash in the system temp directory', async () => {
    const dir = tempDir();
    const token = randomUUID();
    const file = suite(dir, token, ['read', 'bash', 'sleep']);
    expect(await whereSeen([SHM_DIR, tmpdir()], token, () => cli(['run', file, '--workers', '1', '--out', join(dir, 'c.jsonl')]))).toEqual([tmpdir()]);
  });
});
