import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, type ImportGraph } from './import-graph.js';

describe('import cycles', () => {
  it('no file of src/ reaches itself through its imports (type-only imports included)', () => {
    // Each circle printed as its files, so the failure says where to cut.
    expect(importCycles(importGraph()).map((c) => c.join(' <-> '))).toEqual([]);
  });

  it('the detector finds a circle when there is one', () => {
    const graph: ImportGraph = new Map([
      ['src/a.ts', new Set(['src/b.ts'])],
      ['src/b.ts', new Set(['src/c.ts'])],
      ['src/c.ts', new Set(['src/a.ts'])],
      ['src/d.ts', new Set(['src/a.ts'])],
    ]);
    expect(importCycles(graph)).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts']]);
  });
});
