/**
 * Where a faultline run's time goes, from a `node --cpu-prof` profile: each
 * sample is charged to the first frame, walking up from the leaf, that
 * belongs to a known part (native and Node-internal frames pass it up to
 * their caller), so `rmdir` under workspace.js counts as workspace, undici
 * under the SDK as SDK + HTTP client.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** First match wins, so specific parts come before the layers they sit in. */
const PARTS: [string, (url: string) => boolean][] = [
  ['start-up (module loading)', (u) => u.startsWith('node:internal/modules/')],
  ['suite loading (YAML, schema)', (u) => /\/(js-yaml|yaml)\/|suites\/(load-suite|schema)\.js/.test(u)],
  ['workspace (create, remove)', (u) => /suites\/workspace\.js|node:internal\/fs\/rimraf/.test(u)],
  ['sink (JSONL trace)', (u) => /\/events\/(sink|emitter|redact)\.js/.test(u)],
  ['mock (engine; HTTP server or in-process fetch)', (u) => /\/dist\/mock\/|node:_http_server|node:_http_incoming|node:_http_outgoing|node:_http_common/.test(u)],
  ['SDK + HTTP client (official SDKs, fetch)', (u) => /@anthropic-ai\/sdk|\/openai\/|node:internal\/deps\/undici|\/dist\/providers\//.test(u)],
  ['harness (loop, pipeline, tools, permissions)', (u) => /\/dist\/harness\//.test(u)],
  ['suite runner (sessions, expectations)', (u) => /\/dist\/suites\//.test(u)],
  ['CLI and output', (u) => /\/dist\/cli\/|cli-table3|picocolors/.test(u)],
  ['zod (validation)', (u) => /\/zod\//.test(u)],
];

export function profileSummary(file: string): { part: string; ms: number; share: number }[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const charged = new Map<string, number>();
  let total = 0;
  const partOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = partOf.get(id);
    if (known) return known;
    const leaf = byId.get(id)!.callFrame.functionName;
    let part: string | null = null;
    if (leaf === '(garbage collector)') part = 'garbage collector';
    else if (leaf === '(idle)') part = 'idle (waiting on I/O and timers)';
    else if (leaf === '(program)') part = 'V8 and native (unattributed)';
    for (let cur: number | undefined = id; part === null && cur !== undefined; cur = parent.get(cur)) {
      const url = byId.get(cur)!.callFrame.url;
      if (url === '') continue;
      part = PARTS.find(([, test]) => test(url))?.[0] ?? null;
    }
    part ??= 'other (Node internals, timers, streams)';
    partOf.set(id, part);
    return part;
  };
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const part = classify(id);
    charged.set(part, (charged.get(part) ?? 0) + dt);
  });
  return [...charged]
    .map(([part, us]) => ({ part, ms: us / 1000, share: total > 0 ? us / total : 0 }))
    .sort((a, b) => b.ms - a.ms);
}
