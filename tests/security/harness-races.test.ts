/**
 * Issue 23, class 5: check-then-use. A process the test starts (standing in
 * for a background process of the model) swaps a workspace directory for a
 * symlink to the outside directory and back, as fast as it can, while the
 * model calls read, write and edit on a file below it through the real
 * pipeline. A tool that checks the path and then opens it again by name
 * lands outside now and then; one that opens what it checked never does.
 * Judged by the outside canary (unchanged, its marker never in what the
 * model got), in every mode, sandbox on and off (the file tools run in the
 * harness, so the sandbox does not cover them: for bash the sandbox is the
 * answer, see README's security section).
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editTool } from '../../src/harness/tools/edit.js';
import { grepTool } from '../../src/harness/tools/grep.js';
import { lsTool } from '../../src/harness/tools/ls.js';
import { readTool } from '../../src/harness/tools/read.js';
import type { Tool } from '../../src/harness/tools/tool.js';
import { writeTool } from '../../src/harness/tools/write.js';
import { MODES } from './catalog.js';
import { outsideEffects, toolCalls, type SandboxSide, type ToolCall } from './harness-call.js';
import { bwrapOrFail, makeLab, removeLabs, type Lab } from './lab.js';
import { startSwapper, stopSwapper } from './swapper.js';

afterAll(removeLabs, 180_000);

const setup = (lab: Omit<Lab, 'before'>) => {
  writeFileSync(join(lab.out, 'dir', 'keep.txt'), `${lab.outsideMark}\n`);
  writeFileSync(join(lab.out, 'dir', `${lab.outsideMark}.name`), ''); // a name only a listing of outside shows
  mkdirSync(join(lab.ws, 'dreal'));
  writeFileSync(join(lab.ws, 'dreal', 'keep.txt'), 'INSIDE-SECRET\n');
  symlinkSync(join(lab.out, 'dir'), join(lab.ws, 'dlink'));
};

const TOOLS: readonly { tool: string; call: ToolCall }[] = [
  { tool: 'read', call: { name: 'read', input: { file_path: 'd/keep.txt' } } },
  { tool: 'write', call: { name: 'write', input: { file_path: 'd/keep.txt', content: 'pwned\n' } } },
  { tool: 'edit', call: { name: 'edit', input: { file_path: 'd/keep.txt', old_string: 'SECRET', new_string: 'pwned' } } },
];
const SIDES: readonly SandboxSide[] = bwrapOrFail() ? ['on', 'off'] : ['off'];
const CASES = TOOLS.flatMap((t) => MODES.flatMap((mode) => SIDES.map((side) => ({ ...t, mode, side }))));
const ATTEMPTS = 120;
const BUDGET_MS = 2_500;

describe('file tools open what they checked: a directory swapped for a link mid-call', () => {
  it.each(CASES)('$tool ($mode, sandbox $side): never reads or writes outside', async ({ call, mode, side }) => {
    const lab = makeLab(setup);
    const top = readdirSync(lab.root);
    const swapper = startSwapper(lab.ws);
    const outputs: string[] = [];
    try {
      const end = Date.now() + BUDGET_MS;
      for (let i = 0; i < ATTEMPTS && Date.now() < end; i++) {
        outputs.push(...(await toolCalls(lab, [call], mode, side)).outputs);
        if (outputs.at(-1)!.includes(lab.outsideMark) || readFileSync(join(lab.out, 'dir', 'keep.txt'), 'utf8') !== `${lab.outsideMark}\n`) break; // landed
      }
    } finally {
      await stopSwapper(swapper);
    }
    // Judged once the tree stands still: what landed outside stays there. The model never gets the outside
    // file through a file tool, in any mode (the tools are confined to the workspace).
    expect(outsideEffects(lab, outputs, top, 'acceptEdits', side)).toEqual([]);
  }, 60_000);
});

/**
 * The same race at the tools themselves, as fast as they run (no chain
 * before them): many more tries per second, so a tool that opens by name
 * again is caught within the budget.
 */
describe('file tools open what they checked: the tools alone, as fast as they run', () => {
  const direct: readonly { tool: Tool; input: Record<string, unknown> }[] = [
    { tool: readTool as Tool, input: TOOLS[0]!.call.input },
    { tool: writeTool as Tool, input: TOOLS[1]!.call.input },
    { tool: editTool as Tool, input: TOOLS[2]!.call.input },
    { tool: grepTool as Tool, input: { pattern: 'SECRET', path: 'd' } },
    { tool: lsTool as Tool, input: { path: 'd' } },
  ];
  it.each(direct)('$tool.name never reads or writes outside', async ({ tool, input }) => {
    const lab = makeLab(setup);
    const top = readdirSync(lab.root);
    const swapper = startSwapper(lab.ws);
    const outputs: string[] = [];
    try {
      const end = Date.now() + BUDGET_MS;
      while (Date.now() < end) {
        const out = await tool.execute(input, { workspace: lab.ws, signal: new AbortController().signal });
        outputs.push(typeof out.content === 'string' ? out.content : '');
        if (outputs.at(-1)!.includes(lab.outsideMark) || readFileSync(join(lab.out, 'dir', 'keep.txt'), 'utf8') !== `${lab.outsideMark}\n`) break; // landed
      }
    } finally {
      await stopSwapper(swapper);
    }
    expect(outsideEffects(lab, outputs, top, 'acceptEdits', 'off')).toEqual([]);
    expect(outputs.length).toBeGreaterThan(10); // the race was really run, not one lucky call
  }, 60_000);
});
