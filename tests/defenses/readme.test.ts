/** The README's defense table lists every shipped defense with its action and default (the README stays true). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHIPPED_DEFENSES } from '../../src/harness/defenses/registry.js';

describe('README: Defenses', () => {
  it('has one table row per shipped defense, with its action and default', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `([a-z_]+)` \| (\w+) \| (on|off) \|/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(rows).toEqual(SHIPPED_DEFENSES.map((d) => [d.name, d.action, d.defaultOn ? 'on' : 'off']));
  });
});
