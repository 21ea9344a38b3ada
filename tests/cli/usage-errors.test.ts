/**
 * Exit codes are documented (README, "Commands"): 2 for bad usage. Every kind
 * of error commander itself raises must end there, with its one-line message
 * and no stack; help and version stay 0.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './cli-io.js';

describe('commander usage errors exit 2', () => {
  const cases: [string, string[], RegExp][] = [
    ['a missing argument', ['report'], /missing required argument 'paths'/],
    ['an unknown option', ['report', 'x.jsonl', '--bogus'], /unknown option '--bogus'/],
    ['a bad choice', ['run', 'suites/demo', '--wire', 'carrier-pigeon'], /argument 'carrier-pigeon' is invalid/],
    ['an unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
    ['too many arguments', ['diff', 'a', 'b', 'c'], /too many arguments/],
    ['an option missing its value', ['report', 'x.jsonl', '--html'], /option '--html <dir>' argument missing/],
    ['a missing mandatory option', ['compact', 'x.jsonl'], /required option '--to <file>' not specified/],
    ['a bare `faultline`', [], /Usage: faultline/],
  ];
  for (const [kind, argv, message] of cases) {
    it(`exits 2 on ${kind}, with commander's message and no stack`, async () => {
      const { code, stderr } = await cli(argv);
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(/internal error|\n\s+at /);
      expect(code).toBe(2);
    });
  }

  it('keeps --help, help <command> and --version at 0', async () => {
    for (const argv of [['--help'], ['help'], ['help', 'report'], ['report', '--help'], ['--version']]) {
      expect((await cli(argv)).code, argv.join(' ')).toBe(0);
    }
  });
});
