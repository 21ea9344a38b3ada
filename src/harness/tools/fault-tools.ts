/**
 * Tools that exist to reproduce failure modes in suites (never in the default
 * set; a task names them in `tools`). `explode` throws like a buggy tool
 * (-> `exception`); `sleep` waits and honours its signal (timeouts, aborts);
 * `read_many` reads several files — as a deferred tool its name shares the
 * prefix of the resident `read` (the prefix collapse of docs/harness-rules.md#prefix-collapse).
 */
import { z } from 'zod';
import { readTool } from './read.js';
import type { Tool } from './tool.js';

const explodeSchema = z.strictObject({
  reason: z.string().optional().describe('Free text, ignored; the tool always fails.'),
});

export const explodeTool: Tool<z.infer<typeof explodeSchema>> = {
  name: 'explode',
  description: 'A deliberately broken tool: it always throws an internal error. Used by fault scenarios.',
  inputSchema: explodeSchema,
  readOnly: true,
  isConcurrencySafe: () => true,
  async execute() {
    // A real bug shape: reading a property of undefined.
    const config: { limits?: { max: number } } = {};
    return { content: String(config.limits!.max) };
  },
};

const sleepSchema = z.strictObject({
  ms: z.number().int().nonnegative().max(600_000).describe('How long to wait, in milliseconds.'),
});

export const sleepTool: Tool<z.infer<typeof sleepSchema>> = {
  name: 'sleep',
  description: 'Waits for the given number of milliseconds, then reports how long it waited.',
  inputSchema: sleepSchema,
  readOnly: true,
  isConcurrencySafe: () => true,
  execute(input, { signal }) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ content: `slept ${input.ms} ms` }), input.ms);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(new Error('sleep aborted'));
        },
        { once: true },
      );
    });
  },
};

const readManySchema = z.strictObject({
  paths: z.array(z.string()).min(1).max(20).describe('Files to read, relative to the workspace root.'),
});

export const readManyTool: Tool<z.infer<typeof readManySchema>> = {
  name: 'read_many',
  description: 'Reads several text files at once and returns each under a `==> path <==` header.',
  inputSchema: readManySchema,
  readOnly: true,
  isConcurrencySafe: () => true,
  accessedPaths: (input) => input.paths.map((path) => ({ path, access: 'read' as const })),
  async execute(input, context) {
    const parts: string[] = [];
    for (const file_path of input.paths) parts.push(`==> ${file_path} <==\n${(await readTool.execute({ file_path }, context)).content}`);
    return { content: parts.join('\n') };
  },
};

export const FAULT_TOOLS: readonly Tool[] = [explodeTool, sleepTool, readManyTool];
