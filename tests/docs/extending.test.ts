/**
 * docs/extending.md stays true: every file it names exists (or, marked
 * "(new)", has a folder to go in), every export it names is exported there,
 * and the code it shows is real — the TypeScript compiles in place against the
 * repository (with the registry edit the page describes), the SQL section
 * parses and runs on a sample trace, the fault scenario loads as a suite.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { openReportRows } from '../../src/analysis/analyze.js';
import { parseSections } from '../../src/analysis/reports.js';
import { loadSuites } from '../../src/suites/load-suite.js';
import { REPO_ROOT } from '../architecture/import-graph.js';
import { tempDir } from '../helpers/temp-dirs.js';

const page = readFileSync(join(REPO_ROOT, 'docs/extending.md'), 'utf8');

/** The walkthroughs: `## Add a ...` up to the next `## `. */
const walkthroughs = page.split(/^## /m).slice(1).map((part) => ({ title: part.slice(0, part.indexOf('\n')), text: part }));

function codeBlocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp('^( *)```' + lang + '\\n([\\s\\S]*?)^\\1```', 'gm'))].map((m) => m[2]!.replace(new RegExp(`^${m[1]}`, 'gm'), ''));
}

/** `- \`path\` — \`Export\`` lines of a "Files you touch" list. */
function touched(text: string): { path: string; isNew: boolean; exports: string[] }[] {
  const list = text.slice(text.indexOf('Files you touch:'));
  return list
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .flatMap((line) => {
      const [files = '', names = ''] = line.split(' — ');
      const isNew = /\(new\)/.test(line);
      const exports = [...names.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1]!);
      return [...files.matchAll(/`([^`]+)`/g)].map((m) => ({ path: m[1]!, isNew, exports }));
    });
}

function exportsName(source: string, name: string): boolean {
  return new RegExp(`export\\s+(?:declare\\s+)?(?:async\\s+)?(?:function|const|let|class|interface|type|enum)\\s+${name}\\b`).test(source) || new RegExp(`export\\s*(?:type\\s*)?\\{[^}]*\\b${name}\\b[^}]*\\}`).test(source);
}

describe('docs/extending.md', () => {
  it('has the six walkthroughs, each with its list of files', () => {
    expect(walkthroughs.map((w) => w.title)).toEqual(['Add a tool', 'Add a report section', 'Add a lab check', 'Add a defense', 'Add a fault scenario', 'Add an importer']);
    for (const w of walkthroughs) expect(touched(w.text).length, w.title).toBeGreaterThan(0);
  });

  it('names only files that exist (a new one: in a folder that exists) and exports they have', () => {
    const wrong: string[] = [];
    for (const w of walkthroughs) {
      for (const { path, isNew, exports } of touched(w.text)) {
        const template = path.includes('<');
        const where = join(REPO_ROOT, template ? path.slice(0, path.indexOf('<')) : path);
        if (isNew || template) {
          if (!existsSync(template ? where : dirname(where))) wrong.push(`${w.title}: no folder for ${path}`);
          continue;
        }
        if (!existsSync(where)) {
          wrong.push(`${w.title}: ${path} does not exist`);
          continue;
        }
        if (exports.length === 0) continue;
        const source = readFileSync(where, 'utf8');
        for (const name of exports) if (!exportsName(source, name)) wrong.push(`${w.title}: ${path} does not export ${name}`);
      }
    }
    // every other repository path the page mentions exists too
    for (const m of page.matchAll(/`((?:src|tests|suites|examples|schema|docs)\/[^`<>*\s]+)`/g)) {
      const path = m[1]!.replace(/\/$/, '');
      if (!existsSync(join(REPO_ROOT, path)) && !page.includes(`\`${m[1]}\` (new)`)) wrong.push(`${path} does not exist`);
    }
    expect(wrong).toEqual([]);
  });

  it('shows TypeScript that compiles where the page puts it, with the registry edit it describes', () => {
    const [tool] = codeBlocks(walkthroughs[0]!.text, 'ts');
    const [defense] = codeBlocks(walkthroughs[3]!.text, 'ts');
    expect(tool).toContain('export const lineCountTool');
    const builtinPath = join(REPO_ROOT, 'src/harness/tools/builtin.ts');
    const builtin = readFileSync(builtinPath, 'utf8');
    // step 2: import the tool and append it to the array builtinTools() returns
    const edited = `import { lineCountTool } from './line-count.js';\n${builtin.replace(/(export function builtinTools\(\): Tool\[\] \{\n\s*return \[[^\]]*)\]/, '$1, lineCountTool]')}`;
    expect(edited).toContain('bashTool, lineCountTool]');
    const virtual = new Map([
      [join(REPO_ROOT, 'src/harness/tools/line-count.ts'), tool!],
      [join(REPO_ROOT, 'src/harness/defenses/no-test-skip.ts'), defense!],
      [builtinPath, edited],
    ]);
    const config = ts.getParsedCommandLineOfConfigFile(join(REPO_ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    const host = ts.createCompilerHost({ ...config.options, noEmit: true });
    const readFile = host.readFile.bind(host);
    host.readFile = (file) => virtual.get(file) ?? readFile(file);
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (file) => virtual.has(file) || fileExists(file);
    const program = ts.createProgram([...virtual.keys()], { ...config.options, noEmit: true }, host);
    const problems = [...virtual.keys()].flatMap((file) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it('shows a report section that parses, with its flags and budget, and runs on a trace', async () => {
    const [sql] = codeBlocks(walkthroughs[1]!.text, 'sql');
    const [section] = parseSections(sql!);
    expect(section).toMatchObject({ id: 'slow_tools', budget: 12 });
    expect(section!.flags.map((f) => ('level' in f ? f.level : f.rule))).toEqual(['bad', 'warn']);
    const rows = await openReportRows([join(REPO_ROOT, 'examples/traces/synthetic-small.jsonl')], { cache: { enabled: false } });
    try {
      const result = await rows.duck.query(section!.sql);
      expect(result.columns).toEqual(['tool', 'calls', 'p95_ms']);
    } finally {
      rows.close();
    }
  });

  it('shows a fault scenario that loads as a suite', () => {
    const [yaml] = codeBlocks(walkthroughs[4]!.text, 'yaml');
    const file = join(tempDir(), 'loop-example.yaml');
    writeFileSync(file, yaml!);
    const [task] = loadSuites([file]);
    expect(task).toMatchObject({ id: 'loop-099-example', defense: 'low_yield_spin', scenario: 'loop.example' });
  });
});
