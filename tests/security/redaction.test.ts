/**
 * Issue 23, class 8: "secrets redacted" holds for every artefact faultline
 * writes, checked with a corpus of secret shapes after gitleaks' default
 * rules (secret-corpus.ts): the redactor itself, a recording's JSON (secret
 * fields by name, not only by shape), and a real run — a failed `answer`
 * expectation and tool output carrying secrets — whose trace and HTML
 * report are then searched for every secret.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redact, redactAndCap } from '../../src/events/redact.js';
import { scrub } from '../../src/suites/exchange.js';
import { cli } from '../cli/cli-io.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { NOT_SECRETS, SECRET_SHAPES } from './secret-corpus.js';

describe('the redactor, on the corpus', () => {
  it.each(SECRET_SHAPES)('$rule: the secret does not survive', ({ line, secret }) => {
    const out = redact(`before ${line} after`);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
    // Cut anywhere, redacted first: no part of it long enough to matter survives (a cut key is still a key).
    const capped = redactAndCap(`${'x'.repeat(40)} ${line}`, 40 + Math.floor(line.length / 2));
    expect(capped).not.toContain(secret.slice(0, Math.max(12, Math.floor(secret.length / 2))));
  });

  it.each(NOT_SECRETS)('leaves ordinary text alone: %s', (text) => {
    expect(redact(text)).toBe(text);
  });
});

describe('a recording', () => {
  it('redacts JSON fields whose names say they are secrets, and every secret shape in strings', () => {
    const request = {
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'mcp__db__connect', input: { api_key: 'plainvalue-no-shape-1', password: 'hunter2', dbPassword: 'short9', region: 'eu' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: SECRET_SHAPES.map((s) => s.line).join('\n') }] },
      ],
    };
    const text = JSON.stringify(scrub(request, '/nowhere'));
    for (const s of ['plainvalue-no-shape-1', 'hunter2', 'short9', ...SECRET_SHAPES.map((x) => x.secret)]) expect(text).not.toContain(s);
    expect(text).toContain('"region":"eu"');
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('a run: trace and HTML report', () => {
  it('a failed answer expectation and tool output with secrets leave no secret in any file written', async () => {
    const dir = tempDir('faultline-redaction-');
    const secretsFile = join(dir, 'secrets.txt');
    writeFileSync(secretsFile, SECRET_SHAPES.map((s) => s.line).join('\n') + '\n');
    const answer = SECRET_SHAPES.map((s) => s.line).join(' ; ');
    const suite = join(dir, 'leaky.yaml');
    writeFileSync(
      suite,
      [
        'tasks:',
        '  - id: leaky',
        '    prompt: print the secrets',
        '    files:',
        `      secrets.txt: ${JSON.stringify(readFileSync(secretsFile, 'utf8'))}`,
        '    script:',
        '      - tool_use:',
        '          - { name: bash, input: { command: "cat secrets.txt; cat secrets.txt >&2; exit 3" } }',
        `      - text: ${JSON.stringify(answer)}`,
        '    expect:',
        '      answer: { contains: "this is not in the answer" }',
        '      files:',
        '        secrets.txt: { contains: "this is not in the file either" }',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'run', 'trace.jsonl');
    const { code, stdout } = await cli(['run', suite, '--out', out]);
    expect(code).toBe(1);
    const report = await cli(['report', out, '--html', join(dir, 'run', 'html'), '--no-cache']);
    expect(report.code).toBe(0);
    const written = filesUnder(join(dir, 'run')).map((f) => readFileSync(f, 'utf8'));
    expect(written.join('').length).toBeGreaterThan(0);
    expect(stdout).toMatch(/answer was:/);
    for (const { rule, secret } of SECRET_SHAPES) {
      for (const text of [stdout, report.stdout, ...written]) expect(text.includes(secret), `${rule} in an artefact`).toBe(false);
    }
  }, 120_000);
});
