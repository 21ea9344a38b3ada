import { describe, expect, it } from 'vitest';
import { optionTable, parseArgs, resolveLong } from './option-parse.js';
import { FILE_TABLES } from './specs-files.js';
import type { ShellWord } from './shell-words.js';

const words = (...vs: string[]): ShellWord[] => vs.map((v) => ({ text: v, value: v, glob: false }));
const sort = FILE_TABLES.sort!;

describe('option tables', () => {
  it('resolves a unique prefix of a long option to that option, unsafe ones included', () => {
    expect(resolveLong(sort, 'outp')).toMatchObject({ name: '--output', effect: 'write' });
    expect(resolveLong(sort, 'output')).toMatchObject({ name: '--output' });
  });

  it('fails closed on an ambiguous prefix and on an unknown option', () => {
    expect(parseArgs('sort', sort, words('--r', 'a'))).toMatchObject({ ok: false, reason: expect.stringContaining('ambiguous') });
    expect(parseArgs('sort', sort, words('--bogus', 'a'))).toMatchObject({ ok: false, reason: expect.stringContaining('does not know') });
    expect(parseArgs('sort', sort, words('-Q', 'a'))).toMatchObject({ ok: false });
  });

  it('reads a glued short value as getopt does, so the next word stays an operand', () => {
    const r = parseArgs('grep', FILE_TABLES.grep!, words('-e.', '/outside/secret'));
    expect(r.ok && r.options.map((o) => [o.spec.name, o.value?.value])).toEqual([['-e', '.']]);
    expect(r.ok && r.operands.map((o) => o.value)).toEqual(['/outside/secret']);
  });

  it('takes the next word as the value of a required argument, and an optional one only glued', () => {
    const t = optionTable('a:b::c', 'long= opt? flag');
    const r = parseArgs('x', t, words('-a', 'v1', '-b', 'op', '-cb2', '--long', 'v3', '--opt', '--fl'));
    expect(r.ok && r.options.map((o) => [o.spec.name, o.value?.value ?? null])).toEqual([['-a', 'v1'], ['-b', null], ['-c', null], ['-b', '2'], ['--long', 'v3'], ['--opt', null], ['--flag', null]]);
    expect(r.ok && r.operands.map((o) => o.value)).toEqual(['op']);
  });

  it('permutes like GNU getopt unless the command stops at its first operand', () => {
    const permuted = parseArgs('sort', sort, words('a', '--output=x'));
    expect(permuted.ok && permuted.options.map((o) => o.spec.name)).toEqual(['--output']);
    const stops = parseArgs('env', optionTable('i', '', { stopAtOperand: true }), words('ls', '-i'));
    expect(stops.ok && stops.rest.map((w) => w.value)).toEqual(['-i']);
  });

  it('refuses a table that names an option it does not have', () => {
    expect(() => optionTable('a', 'b', { effects: { '--c': 'write' } })).toThrow(/unknown option --c/);
  });
});
