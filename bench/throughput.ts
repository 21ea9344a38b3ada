/**
 * Suite throughput, side by side with promptfoo, in one run (issue 14).
 *
 * faultline: N generated tasks (default 2,000), each a 3-turn tool loop
 * (read, then edit, then a final answer with expectations) through the real
 * Anthropic SDK and the loopback mock, trace written; `faultline run` as a
 * whole process (dist/, so `npm run build` first) at -j 1, 8, 32 and 1000.
 * promptfoo: N single-turn cases with a custom JS provider, `--no-write
 * -j 16`, run before and after the faultline runs (the machine is shared and
 * noisy; the ratio uses the mean of the two). Prints tasks/s, model calls/s,
 * tool calls/s, CPU, peak RSS, the ratio faultline / promptfoo wall time, the
 * load average, what the runs left in their own TMPDIR, and where
 * faultline's time goes (a `--cpu-prof` profile of one more -j 32 run).
 *
 * promptfoo is not a dependency of faultline: bench/throughput/package.json
 * pins it and this script runs `npm ci` there on first use (minutes; about
 * 1.5 GB). promptfoo 0.123.1's launcher refuses Node < 22.22 before loading
 * anything; its CLI itself runs on Node 20, so the bench starts
 * dist/src/main.js directly (offline: telemetry and update checks off).
 *
 *   npm run build && node --import tsx bench/throughput.ts [tasks] [--no-promptfoo]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { profileSummary } from './throughput/profile-summary.js';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 2000);
const withPromptfoo = !args.includes('--no-promptfoo');
const repo = resolve(import.meta.dirname, '..');
const benchDir = join(repo, 'bench', 'throughput');
const out = join(repo, 'bench', 'out', `throughput-${Date.now()}`);
const tmp = join(out, 'tmp'); // the faultline runs' own TMPDIR: counted at the end
mkdirSync(tmp, { recursive: true });
const probe = pathToFileURL(join(benchDir, 'probe.mjs')).href;
const cli = join(repo, 'dist', 'cli', 'bin.js');
if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` first');

function suiteYaml(n: number): string {
  let text = 'suite: throughput\ndefaults: { max_turns: 4, tools: [read, edit] }\ntasks:\n';
  for (let i = 0; i < n; i++) {
    text += `  - id: fix-typo-${String(i).padStart(5, '0')}
    prompt: Fix the typo in notes.txt.
    files: { notes.txt: "Helo from task ${i}\\n" }
    script:
      - tool_use: [{ name: read, input: { file_path: notes.txt } }]
      - tool_use: [{ name: edit, input: { file_path: notes.txt, old_string: Helo, new_string: Hello } }]
      - text: Fixed the typo in notes.txt.
    expect:
      answer: { contains: Fixed }
      files: { notes.txt: { equals: "Hello from task ${i}\\n" } }
      events: [count(tool_success) == 2]
`;
  }
  return text;
}

function promptfooFiles(n: number): string {
  const dir = join(out, 'promptfoo');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'provider.mjs'),
    `import { writeFileSync } from 'node:fs';
let calls = 0;
process.on('exit', () => writeFileSync(process.env.BENCH_CALLS_FILE, String(calls)));
export default class BenchProvider {
  constructor(options) { this.providerId = options?.id ?? 'bench'; }
  id() { return this.providerId; }
  async callApi(prompt) { calls++; return { output: 'Fixed: ' + prompt.slice(0, 40), tokenUsage: { total: 30, prompt: 20, completion: 10 } }; }
}
`,
  );
  let config = 'description: throughput bench\nprompts:\n  - "Fix the typo in case {{n}}."\nproviders:\n  - id: file://provider.mjs\ntests:\n';
  for (let i = 0; i < n; i++) config += `  - vars: { n: "${i}" }\n    assert:\n      - { type: contains, value: Fixed }\n`;
  writeFileSync(join(dir, 'promptfooconfig.yaml'), config);
  return dir;
}

interface Measured {
  label: string;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  code: number | null;
  stdout: string;
}

async function measure(label: string, cmd: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Measured> {
  const probeBase = join(out, 'probe', label.replace(/[^a-z0-9]+/gi, '-'));
  mkdirSync(join(out, 'probe'), { recursive: true });
  const started = performance.now();
  const child = spawn(cmd[0]!, cmd.slice(1), {
    cwd,
    env: { ...process.env, ...env, NODE_OPTIONS: `--import=${probe}`, FAULTLINE_BENCH_PROBE: probeBase, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  const code = await new Promise<number | null>((done) => child.once('close', done));
  const wallMs = performance.now() - started;
  const probes = readdirSync(join(out, 'probe'))
    .filter((f) => f.startsWith(`${probeBase.split('/').at(-1)}.`))
    .map((f) => JSON.parse(readFileSync(join(out, 'probe', f), 'utf8')) as { maxRssKb: number; userUs: number; systemUs: number });
  if (code !== 0 && !label.startsWith('faultline')) process.stderr.write(stderr.slice(-2000));
  return {
    label,
    wallMs,
    cpuMs: probes.reduce((s, p) => s + (p.userUs + p.systemUs) / 1000, 0),
    peakRssMb: Math.max(0, ...probes.map((p) => p.maxRssKb / 1024)),
    code,
    stdout,
  };
}

interface TraceFacts {
  sessions: number;
  passed: number;
  modelCalls: number;
  toolCalls: number;
  unsettled: number;
  modelErrors: number;
  seqGaps: number;
  /** Most sessions started and not yet ended at one point of the trace (how many really ran at once). */
  peakOpen: number;
}

function traceFacts(file: string): TraceFacts {
  const facts: TraceFacts = { sessions: 0, passed: 0, modelCalls: 0, toolCalls: 0, unsettled: 0, modelErrors: 0, seqGaps: 0, peakOpen: 0 };
  let expectSeq = 1;
  let open = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    const e = JSON.parse(line) as { event: string; seq: number; outcome?: string };
    if (e.seq !== expectSeq) facts.seqGaps++;
    expectSeq = e.seq + 1;
    if (e.event === 'session_start') facts.peakOpen = Math.max(facts.peakOpen, ++open);
    else if (e.event === 'session_end') {
      open--;
      facts.sessions++;
      if (e.outcome === 'passed') facts.passed++;
    } else if (e.event === 'model_request') facts.modelCalls++;
    else if (e.event === 'tool_call') {
      facts.toolCalls++;
      facts.unsettled++;
    } else if (e.event === 'tool_success' || e.event === 'tool_failure') facts.unsettled--;
    else if (e.event === 'model_error') facts.modelErrors++;
  }
  return facts;
}

function ensurePromptfoo(): string {
  const main = join(benchDir, 'node_modules', 'promptfoo', 'dist', 'src', 'main.js');
  if (!existsSync(main)) {
    console.log('installing promptfoo for the bench (npm ci in bench/throughput; minutes, once)...');
    const r = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: benchDir, stdio: 'inherit' });
    if (r.status !== 0 || !existsSync(main)) throw new Error('could not install promptfoo in bench/throughput');
  }
  return main;
}

const fmt = (x: number, d = 0) => x.toFixed(d);
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

const suite = join(out, 'suite.yaml');
writeFileSync(suite, suiteYaml(N));
const pfMain = withPromptfoo ? ensurePromptfoo() : null;
const pfDir = withPromptfoo ? promptfooFiles(N) : null;
const loadBefore = load();
console.log(`throughput bench: ${N} faultline tasks (3 turns: read, edit, answer) vs ${N} promptfoo cases (1 turn); load average before: ${loadBefore}`);

const promptfoo = async (round: number) => {
  const calls = join(out, `promptfoo-calls-${round}`);
  const env = { PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1', PROMPTFOO_CONFIG_DIR: join(out, 'promptfoo-home'), BENCH_CALLS_FILE: calls };
  const m = await measure(`promptfoo-${round}`, [process.execPath, pfMain!, 'eval', '-c', 'promptfooconfig.yaml', '--no-write', '-j', '16', '--no-cache', '--no-table', '--no-progress-bar'], pfDir!, env);
  const n = existsSync(calls) ? Number(readFileSync(calls, 'utf8')) : 0;
  if (n !== N) throw new Error(`promptfoo made ${n} provider calls, expected ${N} (exit ${m.code})`);
  return m;
};
const faultline = async (j: number, extra: string[] = [], label = `faultline -j ${j}`) => {
  const trace = join(out, `trace-j${j}${extra.length ? '-prof' : ''}.jsonl`);
  const m = await measure(label, [process.execPath, ...extra, cli, 'run', suite, '-j', String(j), '--out', trace], repo, { TMPDIR: tmp });
  return { m, facts: traceFacts(trace) };
};

const pf: Measured[] = [];
if (withPromptfoo) pf.push(await promptfoo(1));
const runs = [];
for (const j of [1, 8, 32, 1000]) runs.push({ j, ...(await faultline(j)) });
if (withPromptfoo) pf.push(await promptfoo(2));
const profDir = join(out, 'prof');
const profiled = await faultline(32, ['--cpu-prof', `--cpu-prof-dir=${profDir}`], 'faultline -j 32 (profiled)');
const loadAfter = load();

console.log('\n| run | wall s | tasks/s | model calls/s | tool calls/s | CPU s | peak RSS MB | passed | sessions at once (peak) | lost events (seq gaps) | unsettled calls | model errors |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of runs) {
  const s = r.m.wallMs / 1000;
  console.log(`| faultline -j ${r.j} | ${fmt(s, 2)} | ${fmt(r.facts.sessions / s)} | ${fmt(r.facts.modelCalls / s)} | ${fmt(r.facts.toolCalls / s)} | ${fmt(r.m.cpuMs / 1000, 2)} | ${fmt(r.m.peakRssMb)} | ${r.facts.passed}/${N} | ${r.facts.peakOpen} | ${r.facts.seqGaps} | ${r.facts.unsettled} | ${r.facts.modelErrors} |`);
}
for (const p of pf) {
  const s = p.wallMs / 1000;
  console.log(`| ${p.label} -j 16 | ${fmt(s, 2)} | ${fmt(N / s)} | ${fmt(N / s)} | 0 | ${fmt(p.cpuMs / 1000, 2)} | ${fmt(p.peakRssMb)} | exit ${p.code} | | | | |`);
}
const leftovers = readdirSync(tmp);
const sessionsRun = runs.reduce((n, r) => n + r.facts.sessions, 0) + profiled.facts.sessions;
console.log(`\nload average: before ${loadBefore}, after ${loadAfter} (2 cores, shared)`);
console.log(`temp dir after ${sessionsRun} faultline sessions: ${leftovers.length} entries left`);
if (pf.length > 0) {
  const pfWall = pf.reduce((s, p) => s + p.wallMs, 0) / pf.length;
  const best = runs.filter((r) => r.j !== 1000).reduce((a, b) => (b.m.wallMs < a.m.wallMs ? b : a));
  const ratio = best.m.wallMs / pfWall;
  const cpuRatio = best.m.cpuMs / (pf.reduce((s, p) => s + p.cpuMs, 0) / pf.length);
  console.log(`ratio faultline (-j ${best.j}, ${N} x 3 turns) / promptfoo (mean of ${pf.length}, ${N} x 1 turn): wall ${ratio.toFixed(3)}, CPU ${cpuRatio.toFixed(3)}; target wall <= 0.2: ${ratio <= 0.2 ? 'met' : 'NOT met'}`);
}
const profile = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
if (profile) {
  console.log(`\nwhere faultline -j 32 spends its time (${fmt(profiled.m.wallMs / 1000, 2)} s wall under the profiler; main thread samples):`);
  for (const row of profileSummary(join(profDir, profile))) console.log(`  ${fmt(row.ms).padStart(7)} ms ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.part}`);
}
if (!args.includes('--keep')) rmSync(out, { recursive: true, force: true });
else console.log(`\nkept: ${out}`);
