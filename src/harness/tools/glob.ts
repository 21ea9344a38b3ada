/**
 * glob: file paths matching a pattern, found with tinyglobby inside the
 * workspace, sorted, capped with a note. Paths are relative to the workspace
 * root so they can be passed straight to read.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { glob as tinyglob } from 'tinyglobby';
import { z } from 'zod';
import { byCodeUnit } from './compare.js';
import { abortedOutput, fsErrorFor, fsErrorOutput, isAbortError } from './fs-errors.js';
import type { Tool, ToolOutput } from './tool.js';
import { refusal, resolveWorkspacePath } from './workspace-path.js';

export const GLOB_MAX_RESULTS = 200;

const schema = z.strictObject({
  pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/**/index.{js,ts}".'),
  path: z
    .string()
    .optional()
    .describe('Directory to search in, relative to the workspace root. Omit to search the whole workspace.'),
});
export type GlobInput = z.infer<typeof schema>;

export const globTool: Tool<GlobInput> = {
  name: 'glob',
  description: 'Find files in the workspace whose paths match a glob pattern. Returns matching file paths, sorted.',
  usage: [
    '- Patterns are matched relative to path (default: the workspace root); "**" matches any depth, "{a,b}" alternatives.',
    '- Only files are returned, as paths relative to the workspace root.',
    '- .git and .faultline are never searched; node_modules only when the pattern names it.',
    `- At most ${GLOB_MAX_RESULTS} paths are shown; a note says when more matched. Narrow the pattern or path then.`,
    '- Use glob instead of find through bash; use grep to search file contents.',
  ].join('\n'),
  inputSchema: schema,
  readOnly: true,
  // A directory walk holds one descriptor per level it is in.
  descriptors: 8,
  isConcurrencySafe: () => true,
  emptyText: '(no files matched)',
  async execute(input, { workspace, signal }): Promise<ToolOutput> {
    if (signal.aborted) return abortedOutput();
    const escape = escapingPattern(input.pattern);
    if (escape) return escape;
    const base = await resolveWorkspacePath(workspace, input.path ?? '.');
    if (!base.ok) return refusal(base);
    try {
      // tinyglobby reports a missing or non-directory cwd as "no matches", which would mislead the model.
      if (!(await stat(base.path)).isDirectory()) return fsErrorFor('ENOTDIR', base.relative, 'list');
      const found = await tinyglob(input.pattern, {
        cwd: base.path,
        dot: true,
        onlyFiles: true,
        expandDirectories: false,
        // Not following links keeps the walk inside the workspace and out of link cycles.
        followSymbolicLinks: false,
        ignore: defaultIgnores(input.pattern),
        signal,
      });
      const paths = found.map((p) => join(base.relative, p)).sort(byCodeUnit);
      return { content: formatPaths(paths), empty: paths.length === 0 };
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return abortedOutput();
      return fsErrorOutput(error, base.relative, 'search');
    }
  },
};

/**
 * .git and the harness's own .faultline (spills, snapshots) are noise; node_modules
 * too, unless the model explicitly asked for it.
 */
export function defaultIgnores(pattern: string): string[] {
  const always = ['**/.git/**', '**/.faultline/**'];
  return pattern.includes('node_modules') ? always : [...always, '**/node_modules/**'];
}

/** Absolute patterns and `..` segments would walk outside the search root; refuse them up front. */
export function escapingPattern(pattern: string): ToolOutput | null {
  const segments = pattern.split(/[\\/]/);
  if (!pattern.startsWith('/') && !segments.includes('..')) return null;
  return {
    content:
      `The pattern "${pattern}" points outside the search directory. ` +
      'Use a pattern relative to the workspace (no leading "/" and no ".." segments), and set path to choose a subdirectory.',
    isError: true,
    errorCode: 'outside_workspace',
  };
}

function formatPaths(paths: string[]): string {
  if (paths.length === 0) return '(no files matched)';
  const kept = paths.slice(0, GLOB_MAX_RESULTS);
  if (kept.length === paths.length) return kept.join('\n');
  return `${kept.join('\n')}\n\n(showing the first ${kept.length} of ${paths.length} matching files; narrow the pattern or path to see the rest)`;
}
