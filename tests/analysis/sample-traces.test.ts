/**
 * `faultline report traces/` on a fresh clone must report only what the user
 * ran: nothing committed lives in the default trace directory, and the
 * committed sample trace sits in examples/traces/, where the README points.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/cli-io.js';

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' });

describe('sample traces live outside the default trace directory', () => {
  it('commits nothing under traces/ and ignores whatever a run writes there, nested or compressed', () => {
    expect(git('ls-files', '--', 'traces')).toBe('');
    const ignored = git('check-ignore', '--no-index', 'traces/r1.jsonl', 'traces/shard-1.jsonl.gz', 'traces/sub/x.parquet', 'traces/r1.jsonl.requests.jsonl');
    expect(ignored.trim().split('\n')).toHaveLength(4);
  });

  it('keeps the sample in examples/traces/, named by the README, and it reports cleanly', async () => {
    expect(existsSync('examples/traces/synthetic-small.jsonl')).toBe(true);
    expect(readFileSync('README.md', 'utf8')).toContain('faultline report examples/traces/');
    const { code, stdout } = await cli(['report', 'examples/traces/', '--strict']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/synthetic-small\.jsonl(:| ·) 1524 lines(,| ·) run sample-run/);
  });
});
