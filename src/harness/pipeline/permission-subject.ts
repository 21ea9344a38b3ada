/**
 * Describes a parsed call to the permission chain: which files it reads or
 * writes and, for bash, the command line the chain parses. A tool that takes
 * paths reports them itself (`Tool.accessedPaths`); the built-ins written
 * before that hook existed are described here by name. A path-taking tool
 * that is in neither place is judged with no paths, i.e. by its readOnly flag
 * alone — `permission-subject.test.ts` checks every built-in is covered.
 */
import type { PathAccess, PermissionSubject } from '../permissions/types.js';
import type { Tool } from '../tools/tool.js';

type Described = Pick<PermissionSubject, 'paths' | 'command'>;

const field = (input: unknown, key: string): string | undefined => {
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
};
const one = (path: string | undefined, access: 'read' | 'write'): PathAccess[] => (path === undefined ? [] : [{ path, access }]);

/** Built-ins that predate `Tool.accessedPaths`. A missing optional directory means the workspace root. */
export const BUILTIN_SUBJECTS: Readonly<Record<string, (input: unknown) => Described>> = {
  read: (i) => ({ paths: one(field(i, 'file_path'), 'read') }),
  write: (i) => ({ paths: one(field(i, 'file_path'), 'write') }),
  edit: (i) => ({ paths: one(field(i, 'file_path'), 'write') }),
  ls: (i) => ({ paths: one(field(i, 'path') ?? '.', 'read') }),
  glob: (i) => ({ paths: one(field(i, 'path') ?? '.', 'read') }),
  grep: (i) => ({ paths: one(field(i, 'path') ?? '.', 'read') }),
  bash: (i) => ({ paths: [], command: field(i, 'command') ?? '' }),
};

export function permissionSubject(tool: Tool, input: unknown): PermissionSubject {
  const own = tool.accessedPaths?.(input);
  const described: Described = own ? { paths: own } : (BUILTIN_SUBJECTS[tool.name]?.(input) ?? { paths: [] });
  return { tool: tool.name, input, readOnly: tool.readOnly, ...described };
}
