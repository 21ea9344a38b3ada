/**
 * One guard per extension point (docs/extending.md): each registry is the one
 * list, and every other place that names its entries — the README's tables,
 * per-name tables in the code — is checked against it, so a new entry is
 * either picked up from the registry or named here as a place to update.
 * (Defenses: tests/defenses/readme.test.ts and verify-defense tests.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORTS } from '../../src/analysis/reports.js';
import { ConformanceCheck } from '../../src/events/labels.js';
import { BUILTIN_SUBJECTS } from '../../src/harness/pipeline/permission-subject.js';
import { TOOL_RESULT_LIMITS } from '../../src/harness/results/limits.js';
import { builtinTools, knownToolNames } from '../../src/harness/tools/builtin.js';
import { IMPORTERS } from '../../src/importers/registry.js';
import { FORMAT_NAMES } from '../../src/importers/types.js';
import { CHECK_IDS } from '../../src/mock/lab/catalog.js';
import { REPO_ROOT } from './import-graph.js';

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

/** The first-column ids of the README table whose header row starts with `| <first> |`. */
function tableIds(first: string): string[] {
  const start = readme.indexOf(`\n| ${first} |`);
  expect(start, `README has a table headed "| ${first} |"`).toBeGreaterThan(0);
  const rows: string[] = [];
  for (const line of readme.slice(start + 1).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    rows.push(...[...line.split('|')[1]!.matchAll(/`([a-z0-9_-]+)`/g)].map((m) => m[1]!));
  }
  return rows;
}

describe('tools: builtinTools() in src/harness/tools/builtin.ts is the one list', () => {
  const names = builtinTools().map((t) => t.name);

  it("the README's default tools are the registry's, in its order", () => {
    const defaults = [...readme.matchAll(/tools[^\n]*default: ((?:[a-z_]+ )+[a-z_]+)/g)].map((m) => m[1]);
    expect(defaults.length).toBeGreaterThanOrEqual(2); // the task example and the task-field table
    for (const listed of defaults) expect(listed).toBe(names.join(' '));
  });

  it('per-tool tables name only registered tools (a renamed tool leaves no stale entry)', () => {
    const known = new Set(knownToolNames());
    expect(Object.keys(TOOL_RESULT_LIMITS).filter((n) => !known.has(n))).toEqual([]);
    expect(Object.keys(BUILTIN_SUBJECTS).filter((n) => !known.has(n))).toEqual([]);
  });

  it('every built-in tool has a usage guide and an explicit empty-result text', () => {
    for (const tool of builtinTools()) {
      expect(tool.usage, tool.name).toBeTruthy();
      expect(tool.emptyText, tool.name).toBeTruthy();
    }
  });
});

describe('importers: IMPORTERS in src/importers/registry.ts (keyed by FORMAT_NAMES, so the compiler asks for each)', () => {
  it('the README table of formats lists every importer and nothing else', () => {
    expect([...tableIds('format')].sort()).toEqual([...FORMAT_NAMES].sort());
    expect(Object.keys(IMPORTERS).sort()).toEqual([...FORMAT_NAMES].sort());
  });
});

describe('lab checks: CHECKS in src/mock/lab/catalog.ts (keyed by the ConformanceCheck label)', () => {
  it('the catalog and the contract label name the same checks, and the README table lists each', () => {
    expect([...CHECK_IDS].sort()).toEqual([...ConformanceCheck.options].sort());
    expect([...tableIds('check')].sort()).toEqual([...CHECK_IDS].sort());
  });
});

describe('report sections: REPORTS in src/analysis/reports.ts', () => {
  it('every registered report has its SQL file', () => {
    for (const r of REPORTS) expect(existsSync(join(REPO_ROOT, 'src/analysis/sql', `${r.id}.sql`)), r.id).toBe(true);
  });
});
