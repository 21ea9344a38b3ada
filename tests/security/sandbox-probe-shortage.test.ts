/**
 * A descriptor shortage never turns the sandbox off. `--sandbox auto` probes
 * bubblewrap once per process; a probe that could not even spawn it (EMFILE
 * at a high -j, EAGAIN, ENOMEM) used to be cached as "bubblewrap does not
 * work here", and every later session of the run ran its commands without a
 * sandbox. Measured in a real child process whose descriptors are all taken
 * when the probe runs, then freed.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { underDescriptorLimit } from '../helpers/descriptor-limit.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { bwrapOrFail } from './lab.js';

const sandboxModule = pathToFileURL(resolve(import.meta.dirname, '../../src/harness/sandbox/sandbox.ts')).href;

/** Takes every free descriptor, chooses the sandbox, frees them, chooses again; prints both choices. */
const CHILD = `
import { closeSync, openSync } from 'node:fs';
import { chooseSandbox } from ${JSON.stringify(sandboxModule)};
const workspace = process.argv[2];
const held = [];
try { for (;;) held.push(openSync('/dev/null', 'r')); } catch {}
const choose = () => { try { const c = chooseSandbox('auto', { workspace }); return { kind: c.sandbox.kind, note: c.note }; } catch (e) { return { kind: 'threw', note: String(e) }; } };
const during = choose();
for (const fd of held) closeSync(fd);
console.log(JSON.stringify({ held: held.length, during, after: choose() }));
`;

describe.runIf(bwrapOrFail())('the sandbox probe under a descriptor shortage', () => {
  it('keeps bubblewrap when the probe cannot spawn it for want of descriptors, and for the sessions after', () => {
    const dir = tempDir();
    const script = join(dir, 'child.mjs');
    writeFileSync(script, CHILD);
    const [file, argv] = underDescriptorLimit(64, [process.execPath, '--import', 'tsx', script, dir]);
    const ran = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
    expect(ran.status, ran.stderr).toBe(0);
    const result = JSON.parse(ran.stdout) as { held: number; during: { kind: string; note: string | null }; after: { kind: string; note: string | null } };
    // The shortage was real: the child held what was left of its 64 descriptors.
    expect(result.held).toBeGreaterThan(0);
    expect(result.during).toEqual({ kind: 'bubblewrap', note: null });
    expect(result.after).toEqual({ kind: 'bubblewrap', note: null });
  }, 90_000);
});
