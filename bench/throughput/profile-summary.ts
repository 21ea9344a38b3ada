/**
 * Where a faultline run's time goes, from a `node --cpu-prof` profile: each
 * sample is charged to the first frame, walking up from the leaf, that
 * belongs to a known part (native and Node-internal frames pass it up to
 * their caller), so `rmdir` under workspace.js counts as workspace, undici
 * under the SDK as SDK + HTTP client. A frame of the bundled CLI
 * (dist/cli/bundle/, scripts/bundle-cli.mjs) is charged by the module it came
 * from, read from the bundle's source map.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
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
  ['suite loading (YAML, schema)', (u) => /\/(js-yaml|yaml)\/|suites\/(load-suite|fast-yaml|schema|validate-by-shape|suite-checks)\.js/.test(u)],
  ['workspace (create, remove)', (u) => /suites\/workspace\.js|node:internal\/fs\/rimraf/.test(u)],
  ['sink (JSONL trace)', (u) => /\/events\/(sink|emitter|redact)\.js/.test(u)],
  ['mock (engine; HTTP server or in-process fetch)', (u) => /\/dist\/mock\/|node:_http_server|node:_http_incoming|node:_http_outgoing|node:_http_common/.test(u)],
  ['SDK + HTTP client (official SDKs, fetch)', (u) => /@anthropic-ai\/sdk|\/openai\/|node:internal\/deps\/undici|\/dist\/providers\//.test(u)],
  ['harness (loop, pipeline, tools, permissions)', (u) => /\/dist\/harness\//.test(u)],
  ['suite runner (sessions, expectations)', (u) => /\/dist\/suites\//.test(u)],
  ['CLI and output', (u) => /\/dist\/cli\/|cli-table3|picocolors/.test(u)],
  ['zod (validation)', (u) => /\/zod\//.test(u)],
];

/** The URL of the module a frame's code came from: its own URL, or for a bundle with a source map, the original's. */
function sourceUrl(): (frame: ProfileNode['callFrame']) => string {
  const maps = new Map<string, SourceMap | null>();
  return (frame) => {
    if (!frame.url.includes('/dist/cli/bundle/')) return frame.url;
    // A chunk compiled by the bundle loader (src/cli/bundle-loader.ts) is named by its path, not a file URL.
    const url = frame.url.startsWith('file:') ? frame.url : pathToFileURL(frame.url).href;
    if (!maps.has(url)) {
      const file = `${fileURLToPath(url)}.map`;
      maps.set(url, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null);
    }
    const entry = maps.get(url)?.findEntry(frame.lineNumber, frame.columnNumber);
    return entry && 'originalSource' in entry ? new URL(entry.originalSource, url).href : url;
  };
}

export function profileSummary(file: string): { part: string; ms: number; share: number }[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const charged = new Map<string, number>();
  let total = 0;
  const partOf = new Map<number, string>();
  const urlOf = sourceUrl();
  const classify = (id: number): string => {
    const known = partOf.get(id);
    if (known) return known;
    const leaf = byId.get(id)!.callFrame.functionName;
    let part: string | null = null;
    if (leaf === '(garbage collector)') part = 'garbage collector';
    else if (leaf === '(idle)') part = 'idle (waiting on I/O and timers)';
    else if (leaf === '(program)') part = 'V8 and native (unattributed)';
    for (let cur: number | undefined = id; part === null && cur !== undefined; cur = parent.get(cur)) {
      const url = urlOf(byId.get(cur)!.callFrame);
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
