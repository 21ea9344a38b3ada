import { describe, expect, it } from 'vitest';
import { importGraph, layerOf } from './import-graph.js';

/**
 * What each top-level folder of src/ may import (besides itself). This is the
 * table docs/architecture.md#what-may-import-what explains; a new upward edge
 * (say, harness importing suites) fails here before it tangles the layers.
 */
export const MAY_IMPORT: Record<string, readonly string[]> = {
  events: [],
  version: [],
  providers: ['events'],
  harness: ['providers', 'events', 'version'],
  mock: ['providers', 'events'],
  analysis: ['events', 'version'],
  report: ['analysis', 'events', 'version'],
  importers: ['analysis', 'providers', 'events', 'version'],
  suites: ['harness', 'mock', 'providers', 'analysis', 'report', 'events', 'version'],
  api: ['suites', 'harness', 'analysis', 'report', 'events', 'version'],
  cli: ['api', 'suites', 'importers', 'analysis', 'report', 'harness', 'mock', 'providers', 'events', 'version'],
  testing: ['suites', 'harness', 'mock', 'events'],
  index: ['api', 'suites', 'harness', 'providers', 'report', 'events', 'version'],
  // The entries of the optional peers: vitest's checks for vitest as the other peers are checked (providers/optional-peer.ts).
  vitest: ['testing', 'providers'],
  msw: ['mock'],
};

describe('layers', () => {
  const graph = importGraph();

  it('every import stays inside the table of allowed layer edges', () => {
    const violations: string[] = [];
    for (const [file, deps] of graph) {
      const from = layerOf(file);
      const allowed = MAY_IMPORT[from];
      if (!allowed) {
        violations.push(`${file}: top-level folder '${from}' is not in MAY_IMPORT (add it, and to docs/architecture.md)`);
        continue;
      }
      for (const dep of deps) {
        const to = layerOf(dep);
        if (to !== from && !allowed.includes(to)) violations.push(`${file} imports ${dep} (${from} -> ${to})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('nothing imports cli, and events imports nothing of the project', () => {
    for (const [file, deps] of graph) {
      for (const dep of deps) {
        if (layerOf(file) !== 'cli') expect(`${file} -> ${layerOf(dep)}`).not.toMatch(/-> cli$/);
        if (layerOf(file) === 'events') expect(layerOf(dep)).toBe('events');
      }
    }
  });

  it('sees the edges the compiler sees (a broken scanner would pass the rules above vacuously)', () => {
    expect(graph.get('src/index.ts')?.size).toBeGreaterThan(5);
    expect(graph.get('src/harness/loop/agent-turn.ts')).toContain('src/harness/loop/turn-decision.ts');
    expect(graph.get('src/harness/loop/agent-loop.ts')).toContain('src/harness/loop/agent-turn.ts');
    expect([...graph.values()].reduce((n, deps) => n + deps.size, 0)).toBeGreaterThan(1000);
  });
});
