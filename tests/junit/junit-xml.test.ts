/**
 * `--junit <file>` on `run` and `verify-defense`: the XML validates against
 * the JUnit schema Jenkins reads (jenkins-junit-10.xsd beside this file), with
 * libxml2's own validator (xmllint-wasm, offline); one <testcase> per task and
 * repeat; a failed task's <failure> carries its failed expectation's detail.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { renderJunit } from '../../src/report/junit.js';
import { cli } from '../cli/cli-io.js';
import { tempDir } from '../helpers/temp-dirs.js';

const XSD = readFileSync(join(import.meta.dirname, 'jenkins-junit-10.xsd'), 'utf8');

async function schemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: XSD }] });
  return result.errors.map((e) => e.rawMessage);
}

const SUITE = `suite: junit-demo
tasks:
  - id: answers-hello
    prompt: Say hello.
    script:
      - text: Hello there.
    expect:
      answer: { contains: Hello }
  - id: answers-wrong
    prompt: Say goodbye.
    script:
      - text: Hello again.
    expect:
      answer: { contains: Goodbye }
`;

describe('--junit', () => {
  it('the validator can say no: a testcase without a name is rejected', async () => {
    expect(await schemaErrors('<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase classname="c"/></testsuite></testsuites>')).not.toEqual([]);
  });

  it('escapes what XML cannot carry raw, and stays valid', async () => {
    const hostile = 'a <b> & "c" ]]> \u0001 \u0000 end';
    const xml = renderJunit(hostile, [{ name: hostile, cases: [{ name: hostile, classname: hostile, timeSeconds: 0.0123, failure: { message: hostile, type: 'x', detail: `${hostile}\nline 2` } }] }]);
    expect(await schemaErrors(xml)).toEqual([]);
    expect(xml).not.toContain('<b>');
  });

  it('run: one testcase per task and repeat, the failure carrying the failed expectation, valid against the schema', async () => {
    const dir = tempDir('faultline-junit-');
    writeFileSync(join(dir, 'suite.yaml'), SUITE);
    const out = join(dir, 'report.xml');
    const { code, stderr } = await cli(['run', join(dir, 'suite.yaml'), '--repeat', '2', '--out', join(dir, 'trace.jsonl'), '--junit', out]);
    expect(code, stderr).toBe(1);
    const xml = readFileSync(out, 'utf8');
    expect(await schemaErrors(xml)).toEqual([]);
    const cases = [...xml.matchAll(/<testcase name="([^"]+)" classname="junit-demo"/g)].map((m) => m[1]);
    expect(cases.sort()).toEqual(['answers-hello [repeat 1/2]', 'answers-hello [repeat 2/2]', 'answers-wrong [repeat 1/2]', 'answers-wrong [repeat 2/2]']);
    expect(xml).toMatch(/<testsuite name="junit-demo" tests="4" failures="2" errors="0" skipped="0"/);
    const failures = [...xml.matchAll(/<failure message="([^"]*)" type="expectation">([^<]*)<\/failure>/g)];
    expect(failures).toHaveLength(2);
    for (const f of failures) {
      expect(f[1]).toContain('answer contains &quot;Goodbye&quot;');
      expect(f[2]).toContain('answer.0: answer contains "Goodbye"');
    }
  });

  it('run: a --junit path that cannot be written is refused before any task runs (exit 2)', async () => {
    const dir = tempDir('faultline-junit-');
    writeFileSync(join(dir, 'suite.yaml'), SUITE);
    writeFileSync(join(dir, 'file'), '');
    const { code, stderr, stdout } = await cli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'trace.jsonl'), '--junit', join(dir, 'file', 'report.xml')]);
    expect(code).toBe(2);
    expect(stderr).toContain('--junit');
    expect(stdout).toBe('');
  });

  it('verify-defense: a test case per scenario run, the failure naming what went wrong, valid against the schema', async () => {
    const dir = tempDir('faultline-junit-');
    const out = join(dir, 'verify.xml');
    const { code } = await cli(['verify-defense', 'identical_call_loop', '--suite', 'suites/faults/loop-identical-call-loop.yaml', '--junit', out]);
    expect(code).toBe(1); // no control in that file: a catalog gap
    const xml = readFileSync(out, 'utf8');
    expect(await schemaErrors(xml)).toEqual([]);
    expect(xml).toContain('<testcase name="loop-005-identical-call-loop (fault, defense on)" classname="verify-defense.identical_call_loop"');
    expect(xml).toContain('<testcase name="loop-005-identical-call-loop (fault, defense off)" classname="verify-defense.identical_call_loop"');
    expect(xml).toMatch(/<testcase name="catalog"[^>]*>\s*<failure message="no control names it/);
  }, 120_000);
});
