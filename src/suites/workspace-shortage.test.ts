/**
 * A workspace removal that meets a full descriptor table (a holder outside
 * the budget, another process) still removes the directory once descriptors
 * are given back, instead of leaving it behind. Run in a child with a low
 * limit, whose table the script itself fills.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/helpers/temp-dirs.js';

describe('LazyWorkspace.remove out of descriptors', () => {
  it('waits for descriptors and removes the directory (it was left behind)', () => {
    const parent = tempDir();
    const mod = pathToFileURL(join(import.meta.dirname, 'workspace.ts')).href;
    const script = `
      import { closeSync, existsSync, openSync } from 'node:fs';
      const { LazyWorkspace } = await import(${JSON.stringify(mod)});
      const ws = new LazyWorkspace({ 'notes.txt': 'x' }, ${JSON.stringify(parent)});
      await ws.ensure();
      ws.unpin(); // the removal opens the root by name, as past the cap of held roots
      const fillers = [];
      try { for (;;) fillers.push(openSync('/dev/null', 'r')); } catch (e) { if (e.code !== 'EMFILE') throw e; }
      const removal = ws.remove();
      setTimeout(() => { for (const fd of fillers) closeSync(fd); }, 100);
      await removal;
      console.log(fillers.length > 0, existsSync(ws.root));`;
    const child = spawnSync('bash', ['-c', 'ulimit -n 64 && exec "$0" --import tsx --input-type=module -e "$1"', process.execPath, script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('true false');
  });
});
