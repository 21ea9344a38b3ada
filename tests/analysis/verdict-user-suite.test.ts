/**
 * Item 10 of issue 29: the verdict on a user's own suite leads with its
 * failing tasks (named, with why), and the shipped defenses the suite never
 * targeted share one line instead of one finding each.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';
import { cli } from '../cli/cli-io.js';

const suite = `suite: mine
tasks:
  - id: reads-notes
    prompt: read the note
    files: { note.txt: "hello\\n" }
    script:
      - tool_use: [{ name: read, input: { file_path: note.txt } }]
      - text: it says hello
    expect: { answer: { contains: hello } }
  - id: writes-summary
    prompt: write a summary
    script:
      - tool_use: [{ name: write, input: { file_path: out.txt, content: "short\\n" } }]
      - text: done
    expect: { files: { out.txt: { contains: long } } }
  - id: answers
    prompt: answer
    script:
      - text: forty-two
    expect: { answer: { contains: "42" } }
`;

describe('the verdict on a user suite', () => {
  it('leads with the failing tasks and puts the untargeted shipped defenses in one line', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'suite.yaml'), suite);
    const trace = join(dir, 'run.jsonl');
    expect((await cli(['run', join(dir, 'suite.yaml'), '--out', trace], { env: { NO_COLOR: '1', TMPDIR: dir } })).code).toBe(1);
    const { stdout } = await cli(['report', trace, '--no-cache']);
    const lines = stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('Verdict'));
    const findings = lines.slice(at + 1, lines.findIndex((l, i) => i > at && l.startsWith('  sessions '))).join('\n').split(/\n(?= {2}[✗!] )/);
    expect(findings[0]).toMatch(/^ {2}✗ task answers failed: 0 of 1 passed — answer\.0: answer contains "42"; answer was: forty-two$/);
    expect(findings[1]?.replace(/\s+/g, ' ')).toMatch(/^ ✗ task writes-summary failed: 0 of 1 passed — files\.out\.txt: /);
    // No finding per shipped defense: those no task reached share one line (and those passed by without a judgement another).
    expect(findings.filter((f) => /^ {2}[✗!] defense /.test(f))).toEqual([]);
    const shipped = findings.filter((f) => f.includes('shipped defense')).map((f) => f.replace(/\s+/g, ' '));
    expect(shipped.length).toBeGreaterThanOrEqual(1);
    expect(shipped.length).toBeLessThanOrEqual(2);
    expect(shipped.find((f) => f.includes('never reached or triggered'))).toMatch(/injection_guard|spill_read_loop|denial_fuse/);
  }, 60_000);
});
