/**
 * Suite throughput, side by side with promptfoo, in one run (issues 14, 26).
 *
 * faultline: N generated tasks (default 2,000), each a 3-turn tool loop
 * (read, then edit, then a final answer with expectations) through the real
 * Anthropic SDK and the mock, trace written; `faultline run` as a whole
 * process (dist/, so `npm run build` first), at -j J (default 32) on the
 * in-process transport (the default) and on the loopback HTTP transport, and
 * at -j 1000 (in-process) to show nothing is lost when everything runs at once,
 * each on W worker threads (`--workers`, default what `faultline run` uses for
 * a run this big: one per two cores, at most 8), plus the in-process run on the
 * other choice of threads (`--workers 1`, or 2 where the default is 1) to show
 * what the default buys, and the in-process run with its workspaces on the
 * disk (`--workspace-dir` a directory beside the bench's output): the default
 * puts them on /dev/shm where that is safe (src/suites/workspace-tmpfs.ts), and
 * each row's label says where they went.
 * promptfoo: N single-turn cases with a custom JS provider, `--no-write`, the
 * same -j J. The machine is shared and noisy, so the headline pair is measured
 * R times (`--rounds`, default 3), promptfoo and faultline's default run
 * alternated, and the ratio is of the two medians (each round's own ratio is
 * printed too); the other rows run once. Prints tasks/s, model calls/s,
 * tool calls/s, CPU, CPU ms per model call, peak RSS, the ratio faultline /
 * promptfoo wall time (target <= 0.5), each transport's own CPU per model call
 * (SDK + mock, no harness, the run's own connection pool for http:
 * bench/throughput/transport-cost.mjs, R times alternated, the median; target
 * for http <= 1.0 ms), the load average, what the runs left behind (workspaces,
 * worker and sandbox-probe directories that appeared in the temp directory or
 * /dev/shm while they ran:
 * the runs get the bench's own environment, since a TMPDIR set for them would
 * turn the tmpfs default off),
 * and where faultline's time goes (a `--cpu-prof` profile of one more run:
 * the main thread, and the worker threads summed).
 *
 * promptfoo is not a dependency of faultline: bench/throughput/package.json
 * pins it and this script runs `npm ci` there on first use (minutes; about
 * 1.5 GB). promptfoo 0.123.1's launcher refuses Node < 22.22 before loading
 * anything; its CLI itself runs on Node 20, so the bench starts
 * dist/src/main.js directly (offline: telemetry and update checks off).
 *
 *   npm run build && node --import tsx bench/throughput.ts [tasks] [-j J] [--workers W] [--rounds R] [--no-promptfoo] [--keep]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultWorkers } from '../src/cli/run-workers.js';
import { chooseWorkspaceTmpfs, readShmFacts } from '../src/suites/workspace-tmpfs.js';
import { profileSummary } from './throughput/profile-summary.js';

const args = process.argv.slice(2);
const N = Number(args.find((a, i) => /^\d+$/.test(a) && !['-j', '--workers', '--rounds'].includes(args[i - 1] ?? '')) ?? 2000);
const withPromptfoo = !args.includes('--no-promptfoo');
const jAt = args.findIndex((a) => a === '-j');
const J = jAt >= 0 ? Number(args[jAt + 1]) : 32;
// The worker threads `faultline run` uses by default for a run this big; --workers W sets it.
const wAt = args.findIndex((a) => a === '--workers');
const W = wAt >= 0 ? Number(args[wAt + 1]) : defaultWorkers();
const rAt = args.findIndex((a) => a === '--rounds');
const R = rAt >= 0 ? Number(args[rAt + 1]) : 3;
if (!Number.isInteger(R) || R < 1) throw new Error(`--rounds must be a positive integer, got ${args[rAt + 1]}`);
const repo = resolve(import.meta.dirname, '..');
const benchDir = join(repo, 'bench', 'throughput');
const out = join(repo, 'bench', 'out', `throughput-${Date.now()}`);
mkdirSync(out, { recursive: true });
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

/** Where a default run's workspaces go (the CLI's own rule; the bench's tasks only read and edit, a few hundred bytes each). */
function defaultPlace(j: number): string {
  const taskBytes = Buffer.byteLength(suiteYaml(1));
  const choice = chooseWorkspaceTmpfs({
    env: process.env,
    platform: process.platform,
    workspaceDirGiven: false,
    keepWorkspaces: false,
    writes: () => ({ unbounded: null, largestTaskBytes: taskBytes }),
    concurrency: j,
    shm: readShmFacts,
  });
  return choice.dir ?? `temp dir ${tmpdir()}`;
}

/** The entries a `faultline run` makes, by name, in the places it makes them (the temp directory, /dev/shm). */
const LEFTOVER_DIRS = [tmpdir(), '/dev/shm'];
const RUN_PREFIXES = ['faultline-ws-', 'faultline-worker-', 'faultline-sandbox-probe-'];
function faultlineEntries(): Set<string> {
  const found = new Set<string>();
  for (const dir of LEFTOVER_DIRS) {
    try {
      for (const name of readdirSync(dir)) if (RUN_PREFIXES.some((p) => name.startsWith(p))) found.add(join(dir, name));
    } catch {
      // no such place here
    }
  }
  return found;
}

const fmt = (x: number, d = 0) => x.toFixed(d);
/** The middle value (the lower of the two middle ones for an even count: a measured run, not an average of two). */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
/** The item whose `by` is the median. */
function medianBy<T>(items: T[], by: (item: T) => number): T {
  const m = median(items.map(by));
  return items.find((item) => by(item) === m)!;
}
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

const suite = join(out, 'suite.yaml');
writeFileSync(suite, suiteYaml(N));
const pfMain = withPromptfoo ? ensurePromptfoo() : null;
const pfDir = withPromptfoo ? promptfooFiles(N) : null;
const loadBefore = load();
console.log(`throughput bench: ${N} faultline tasks (3 turns: read, edit, answer) on ${W} worker thread${W === 1 ? '' : 's'} (${availableParallelism()} cores) vs ${N} promptfoo cases (1 turn); load average before: ${loadBefore}`);

const promptfoo = async (round: number) => {
  const calls = join(out, `promptfoo-calls-${round}`);
  const env = { PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1', PROMPTFOO_CONFIG_DIR: join(out, 'promptfoo-home'), BENCH_CALLS_FILE: calls };
  const m = await measure(`promptfoo-${round}`, [process.execPath, pfMain!, 'eval', '-c', 'promptfooconfig.yaml', '--no-write', '-j', String(J), '--no-cache', '--no-table', '--no-progress-bar'], pfDir!, env);
  const n = existsSync(calls) ? Number(readFileSync(calls, 'utf8')) : 0;
  if (n !== N) throw new Error(`promptfoo made ${n} provider calls, expected ${N} (exit ${m.code})`);
  return m;
};
type Transport = 'memory' | 'http';
const faultline = async (j: number, transport: Transport, workers = W, extra: string[] = [], label = `faultline ${transport} -j ${j} --workers ${workers} (workspaces: ${defaultPlace(j)})`, runArgs: string[] = []) => {
  const trace = join(out, `trace-${transport}-j${j}-w${workers}${extra.length ? '-prof' : ''}${runArgs.length ? '-ws' : ''}.jsonl`);
  const m = await measure(label, [process.execPath, ...extra, cli, 'run', suite, '-j', String(j), '--transport', transport, '--workers', String(workers), '--out', trace, ...runArgs], repo);
  return { j, transport, workers, m, facts: traceFacts(trace) };
};
/** One transport alone: the SDK and the mock in one process, CPU per model call. */
const TRANSPORT_CALLS = 4000;
const transportCost = (transport: Transport): { cpuMsPerCall: number; calls: number } => {
  const r = spawnSync(process.execPath, [join(benchDir, 'transport-cost.mjs'), transport, String(TRANSPORT_CALLS), String(J)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`transport-cost ${transport} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { cpuMsPerCall: number; calls: number };
};

const entriesBefore = faultlineEntries();
const pf: Measured[] = [];
// The headline pair, alternated R times: promptfoo, then faultline's default run (a noisy minute hits both).
const memoryRounds: Awaited<ReturnType<typeof faultline>>[] = [];
for (let round = 1; round <= R; round++) {
  if (withPromptfoo) pf.push(await promptfoo(round));
  memoryRounds.push(await faultline(J, 'memory', W, [], `faultline memory -j ${J} --workers ${W} (workspaces: ${defaultPlace(J)}; round ${round} of ${R})`));
}
const memoryRun = medianBy(memoryRounds, (r) => r.m.wallMs);
const httpRun = await faultline(J, 'http');
// The same run on the other choice of threads (the main thread alone, or two workers when the default is one), to show what the default buys.
const otherThreadsRun = await faultline(J, 'memory', W > 1 ? 1 : 2);
const wideRun = await faultline(1000, 'memory');
// Shown beside the default: the same run with its workspaces on the disk (--workspace-dir a directory in the bench's
// output, on the repository's file system), where making and removing 2,000 workspaces is journal and block work.
const diskDir = join(out, 'workspaces');
mkdirSync(diskDir);
const diskRun = await faultline(J, 'memory', W, [], `faultline memory -j ${J} --workers ${W} (workspaces: disk, --workspace-dir ${diskDir})`, ['--workspace-dir', diskDir]);
const runs = [...memoryRounds, otherThreadsRun, httpRun, wideRun, diskRun];
const costRounds = { memory: [] as number[], http: [] as number[] };
for (let round = 0; round < R; round++) for (const t of ['memory', 'http'] as const) costRounds[t].push(transportCost(t).cpuMsPerCall);
const costs = { memory: median(costRounds.memory), http: median(costRounds.http) };
const profDir = join(out, 'prof');
const profiled = await faultline(J, 'memory', W, ['--cpu-prof', `--cpu-prof-dir=${profDir}`], `faultline memory -j ${J} --workers ${W} (profiled; workspaces: ${defaultPlace(J)})`);
const loadAfter = load();

console.log('\n| run | wall s | tasks/s | model calls/s | tool calls/s | CPU s | CPU ms / model call | peak RSS MB | passed | sessions at once (peak) | lost events (seq gaps) | unsettled calls | model errors |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of runs) {
  const s = r.m.wallMs / 1000;
  console.log(`| ${r.m.label} | ${fmt(s, 2)} | ${fmt(r.facts.sessions / s)} | ${fmt(r.facts.modelCalls / s)} | ${fmt(r.facts.toolCalls / s)} | ${fmt(r.m.cpuMs / 1000, 2)} | ${fmt(r.m.cpuMs / Math.max(1, r.facts.modelCalls), 3)} | ${fmt(r.m.peakRssMb)} | ${r.facts.passed}/${N} | ${r.facts.peakOpen} | ${r.facts.seqGaps} | ${r.facts.unsettled} | ${r.facts.modelErrors} |`);
}
for (const p of pf) {
  const s = p.wallMs / 1000;
  console.log(`| ${p.label} -j ${J} | ${fmt(s, 2)} | ${fmt(N / s)} | ${fmt(N / s)} | 0 | ${fmt(p.cpuMs / 1000, 2)} | ${fmt(p.cpuMs / N, 3)} | ${fmt(p.peakRssMb)} | exit ${p.code} | | | | |`);
}
const leftovers = [...faultlineEntries()].filter((path) => !entriesBefore.has(path));
leftovers.push(...readdirSync(diskDir));
const sessionsRun = runs.reduce((n, r) => n + r.facts.sessions, 0) + profiled.facts.sessions;
console.log(`\nload average: before ${loadBefore}, after ${loadAfter} (2 cores, shared)`);
console.log(
  `left after ${sessionsRun} faultline sessions: ${leftovers.length} entries (${RUN_PREFIXES.map((p) => `${p}*`).join(', ')} new in ${LEFTOVER_DIRS.join(' and ')}, and anything in ${diskDir}; ` +
    `another faultline run on this machine at the same time would count too)${leftovers.length > 0 ? `: ${leftovers.slice(0, 5).join(', ')}` : ''}`,
);
const spread = (xs: number[]) => (xs.length > 1 ? `, ${R} runs alternated: ${xs.map((x) => fmt(x, 3)).join(', ')}` : '');
console.log(
  `transport alone (official Anthropic SDK + the mock in one process, ${TRANSPORT_CALLS} calls at ${J} at once, median): ` +
    `memory ${fmt(costs.memory, 3)} ms CPU per model call, http ${fmt(costs.http, 3)} ms (incl. the mock server; target <= 1.0: ${costs.http <= 1.0 ? 'met' : 'NOT met'}${spread(costRounds.http)})`,
);
if (pf.length > 0) {
  const pfWall = median(pf.map((p) => p.wallMs));
  const pfCpu = median(pf.map((p) => p.cpuMs));
  for (const r of [memoryRun, httpRun, diskRun]) {
    const headline = r === memoryRun;
    const ratio = r.m.wallMs / pfWall;
    const target = headline ? ` target wall <= 0.5: ${ratio <= 0.5 ? 'met' : 'NOT met'}` : '';
    const where = r === diskRun ? ` (workspaces: disk, --workspace-dir)` : ` (workspaces: ${defaultPlace(J)})`;
    const of = headline && R > 1 ? `median of ${R}` : 'one run';
    console.log(`ratio faultline ${r.transport}${where} (-j ${J}, ${N} x 3 turns, ${of}) / promptfoo (-j ${J}, median of ${pf.length}, ${N} x 1 turn): wall ${ratio.toFixed(3)}, CPU ${(r.m.cpuMs / pfCpu).toFixed(3)};${target}`);
  }
  if (R > 1) console.log(`each round's own ratio (promptfoo, then faultline): wall ${memoryRounds.map((r, i) => (r.m.wallMs / pf[i]!.wallMs).toFixed(3)).join(', ')}`);
}
// Node writes one profile per thread, the main thread's first (its thread id is 0 in the name).
const profiles = readdirSync(profDir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort((a, b) => threadOf(a) - threadOf(b));
function threadOf(file: string): number {
  return Number(/\.\d+\.(\d+)\.\d+\.cpuprofile$/.exec(file)?.[1] ?? 0);
}
if (profiles.length > 0) {
  const show = (title: string, files: string[]) => {
    const parts = new Map<string, number>();
    for (const f of files) for (const row of profileSummary(join(profDir, f))) parts.set(row.part, (parts.get(row.part) ?? 0) + row.ms);
    const total = [...parts.values()].reduce((a, b) => a + b, 0);
    console.log(title);
    for (const [part, ms] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`  ${fmt(ms).padStart(7)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${part}`);
  };
  console.log(`\nwhere faultline memory -j ${J} --workers ${W} spends its time (${fmt(profiled.m.wallMs / 1000, 2)} s wall under the profiler):`);
  show('main thread (suite loading, dispatch, the trace file):', profiles.slice(0, 1));
  if (profiles.length > 1) show(`worker threads (${profiles.length - 1}, summed: the sessions):`, profiles.slice(1));
}
if (!args.includes('--keep')) rmSync(out, { recursive: true, force: true });
else console.log(`\nkept: ${out}`);
