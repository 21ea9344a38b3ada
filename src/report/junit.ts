/**
 * JUnit XML, the test report every CI system renders (Jenkins, GitLab, GitHub
 * Actions reporters, Azure, CircleCI, Buildkite). Written to the layout the
 * Jenkins/Ant schema describes: <testsuites> of <testsuite> of <testcase>, a
 * <failure> when a check failed, an <error> when the case could not run, a
 * <skipped> when it was left out, each with a message and the full detail.
 */

export interface JunitProblem {
  /** One line: what a CI summary shows. */
  message: string;
  type: string;
  /** The full detail (every failed check, one per line). */
  detail: string;
}

export interface JunitCase {
  name: string;
  classname: string;
  timeSeconds: number;
  failure?: JunitProblem;
  error?: JunitProblem;
  skipped?: string;
}

export interface JunitSuite {
  name: string;
  cases: JunitCase[];
  /** ISO 8601 start time, when known. */
  timestamp?: string;
}

/** Characters XML 1.0 cannot carry at all (control characters other than tab, LF, CR; lone surrogates). */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function clean(text: string): string {
  return text.replace(NOT_XML, '\uFFFD');
}

export function xmlText(text: string): string {
  return clean(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

const seconds = (s: number) => (Math.max(0, s)).toFixed(3);

function problem(tag: 'failure' | 'error', p: JunitProblem): string {
  return `      <${tag} message="${xmlAttr(p.message)}" type="${xmlAttr(p.type)}">${xmlText(p.detail)}</${tag}>\n`;
}

function testcase(c: JunitCase): string {
  const head = `    <testcase name="${xmlAttr(c.name)}" classname="${xmlAttr(c.classname)}" time="${seconds(c.timeSeconds)}"`;
  const body = (c.failure ? problem('failure', c.failure) : '') + (c.error ? problem('error', c.error) : '') + (c.skipped !== undefined ? `      <skipped message="${xmlAttr(c.skipped)}"/>\n` : '');
  return body === '' ? `${head}/>\n` : `${head}>\n${body}    </testcase>\n`;
}

const count = (cases: readonly JunitCase[]) => ({
  tests: cases.length,
  failures: cases.filter((c) => c.failure).length,
  errors: cases.filter((c) => c.error).length,
  skipped: cases.filter((c) => c.skipped !== undefined).length,
  time: cases.reduce((sum, c) => sum + c.timeSeconds, 0),
});

export function renderJunit(name: string, suites: readonly JunitSuite[]): string {
  const all = count(suites.flatMap((s) => s.cases));
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n', `<testsuites name="${xmlAttr(name)}" tests="${all.tests}" failures="${all.failures}" errors="${all.errors}" time="${seconds(all.time)}">\n`];
  for (const s of suites) {
    const n = count(s.cases);
    const stamp = s.timestamp ? ` timestamp="${xmlAttr(s.timestamp)}"` : '';
    out.push(`  <testsuite name="${xmlAttr(s.name)}" tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}" time="${seconds(n.time)}"${stamp}>\n`);
    for (const c of s.cases) out.push(testcase(c));
    out.push('  </testsuite>\n');
  }
  out.push('</testsuites>\n');
  return out.join('');
}
