/**
 * A workspace the suite runner made and holds open (pinned) is its own real
 * path: no realpath at the first tool call, and so a swap of its name for a
 * link before that call (another task's process) is not taken for the root.
 */
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pinRoot, unpinRoot } from '../safe-fs/pinned-root.js';
import { sessionRealRoot } from './session-root.js';
import type { PipelineServices } from './services.js';

let base: string | null = null;
afterEach(() => {
  if (base) {
    unpinRoot(join(base, 'ws'));
    rmSync(base, { recursive: true, force: true });
  }
  base = null;
});

function swapped(pin: boolean): { ws: string; outside: string } {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'session-root-')));
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  if (pin) pinRoot(ws);
  renameSync(ws, join(base, 'moved'));
  symlinkSync(outside, ws);
  return { ws, outside };
}

describe('sessionRealRoot', () => {
  it('a pinned workspace is its own root, even once its name was swapped for a link', () => {
    const { ws } = swapped(true);
    expect(sessionRealRoot({} as PipelineServices, ws)).toBe(ws);
  });

  it('an unpinned one is resolved as before (the link followed, as realpath does)', () => {
    const { ws, outside } = swapped(false);
    expect(sessionRealRoot({} as PipelineServices, ws)).toBe(outside);
  });
});
