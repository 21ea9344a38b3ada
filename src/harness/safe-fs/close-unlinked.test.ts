/**
 * A descriptor whose name is gone is closed on the thread pool: counted in the
 * descriptor budget until it is closed, then given back; closed at once when
 * the budget is spent.
 */
import { mkdtempSync, openSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeUnlinked } from './close-unlinked.js';
import { descriptorCapacity, descriptorsHeld, tryAcquireDescriptors } from './fd-budget.js';
import { isOpen } from './test-fd.js';

let base: string | null = null;
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
  base = null;
});

/** A descriptor of a file whose only name was unlinked. */
function unlinkedFd(): number {
  base = mkdtempSync(join(tmpdir(), 'close-unlinked-'));
  const file = join(base, 'f.txt');
  writeFileSync(file, 'x');
  const fd = openSync(file, 'r');
  unlinkSync(file);
  return fd;
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 2));
}

describe('closeUnlinked', () => {
  it('closes on the thread pool, the descriptor counted in the budget until it is closed', async () => {
    const fd = unlinkedFd();
    const before = descriptorsHeld();
    closeUnlinked(fd);
    expect(descriptorsHeld()).toBe(before + 1);
    await until(() => descriptorsHeld() === before);
    expect(descriptorsHeld()).toBe(before);
    expect(isOpen(fd)).toBe(false);
  });

  it('gives back the share that already counted it once closed', async () => {
    const fd = unlinkedFd();
    const before = descriptorsHeld();
    const lease = tryAcquireDescriptors(1);
    expect(lease).not.toBeNull();
    closeUnlinked(fd, lease!);
    expect(descriptorsHeld()).toBe(before + 1);
    await until(() => descriptorsHeld() === before);
    expect(descriptorsHeld()).toBe(before);
  });

  it('closes at once when the budget is spent', () => {
    const fd = unlinkedFd();
    const all = tryAcquireDescriptors(descriptorCapacity() - descriptorsHeld());
    try {
      closeUnlinked(fd);
      expect(isOpen(fd)).toBe(false);
    } finally {
      all?.release();
    }
  });
});
