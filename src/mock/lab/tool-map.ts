/**
 * Lab scripts name tools generically (`read`, `bash`, ...); every harness has
 * its own names (`Read`, `read_file`, `view`; `Bash`, `run_command`). The
 * mapper picks, per request, the harness tool that a generic name stands for
 * (an explicit `--map read=view` first, then the alias table) and renames the
 * input keys the same way (`path` -> `file_path`) by the tool's own schema.
 * Names outside the table are never mapped: a script's hallucinated tool stays
 * hallucinated.
 */
import { isAbsolute, join } from 'node:path';
import type { ToolDefinition } from '../../providers/types.js';
import { isObject } from '../json-shape.js';
import { shellForm } from './shell-forms.js';

export const TOOL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  read: ['read', 'Read', 'read_file', 'readFile', 'ReadFile', 'view', 'file_read', 'open_file', 'cat'],
  write: ['write', 'Write', 'write_file', 'writeFile', 'WriteFile', 'create_file', 'file_write'],
  edit: ['edit', 'Edit', 'edit_file', 'editFile', 'str_replace', 'str_replace_editor', 'replace', 'apply_patch'],
  ls: ['ls', 'LS', 'list', 'list_dir', 'list_directory', 'list_files', 'listFiles', 'ListDirectory'],
  glob: ['glob', 'Glob', 'find_files', 'file_search', 'FindFiles'],
  grep: ['grep', 'Grep', 'search', 'search_files', 'search_file_content', 'grep_search', 'ripgrep', 'rg'],
  bash: ['bash', 'Bash', 'shell', 'run_command', 'run_shell_command', 'execute_command', 'exec', 'terminal', 'local_shell'],
  sleep: ['sleep', 'Sleep', 'wait'],
};

/** Input keys that mean the same thing across harnesses; the first one the target schema has wins. */
const KEY_ALIASES: ReadonlyArray<readonly string[]> = [
  ['path', 'file_path', 'filePath', 'filename', 'file', 'absolute_path', 'target_file', 'dir_path', 'directory'],
  ['command', 'cmd', 'script'],
  ['pattern', 'query', 'glob', 'regex'],
  ['content', 'contents', 'text', 'file_text'],
  ['ms', 'milliseconds', 'duration_ms', 'seconds'],
];

export const isGenericTool = (name: string): boolean => Object.hasOwn(TOOL_ALIASES, name);

export interface MappedCall {
  name: string;
  input: Record<string, unknown>;
}

export type ToolMapper = (name: string, input: Record<string, unknown>) => MappedCall;

function resolveName(generic: string, names: readonly string[], explicit: Readonly<Record<string, string>>): string {
  if (explicit[generic] !== undefined) return explicit[generic] as string;
  if (!isGenericTool(generic) || names.includes(generic)) return generic;
  const aliases = TOOL_ALIASES[generic] as readonly string[];
  return aliases.find((a) => names.includes(a)) ?? names.find((n) => aliases.some((a) => a.toLowerCase() === n.toLowerCase())) ?? generic;
}

const PATH_GROUP = KEY_ALIASES[0] as readonly string[];

/**
 * The schema asks for an absolute path: the key says so, or its description does without also taking a
 * relative one ("The absolute path to the file" asks; "relative to the workspace root (or absolute inside it)"
 * does not: the script's relative path is what such a harness expects, whatever the workspace's path is).
 */
function wantsAbsolute(key: string, property: unknown): boolean {
  const description = isObject(property) && typeof property['description'] === 'string' ? property['description'] : '';
  const takesRelative = /\brelative to\b|\bor absolute\b/i.test(description);
  return key === 'absolute_path' || (/\babsolute\b/i.test(description) && !takesRelative);
}

function renameKeys(input: Record<string, unknown>, schema: unknown, workspace: string | null): Record<string, unknown> {
  const props = isObject(schema) && isObject(schema['properties']) ? schema['properties'] : {};
  const properties = Object.keys(props);
  if (properties.length === 0) return input;
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => {
      const group = KEY_ALIASES.find((g) => g.includes(key));
      const target = properties.includes(key) ? key : (group?.find((k) => properties.includes(k)) ?? key);
      // A script path is relative to the workspace; an agent whose schema asks for absolute paths gets it joined.
      const absolute = workspace !== null && group === PATH_GROUP && typeof value === 'string' && !isAbsolute(value) && wantsAbsolute(target, props[target]);
      return [target, absolute ? join(workspace, value) : value];
    }),
  );
}

/** The mapper for one request's tools. */
export function toolMapper(tools: readonly ToolDefinition[], explicit: Readonly<Record<string, string>> = {}, workspace: string | null = null): ToolMapper {
  const names = tools.map((t) => t.name);
  return (name, input) => {
    const target = resolveName(name, names, explicit);
    if (target === name && !names.includes(name)) return onShell(name, input, names, explicit, tools, workspace) ?? { name, input };
    return { name: target, input: renameKeys(input, tools.find((t) => t.name === target)?.input_schema, workspace) };
  };
}

/**
 * A generic name with no harness tool, run through the harness's shell tool
 * when it has one (`ls` -> `ls -la -- '<path>'`; see shell-forms.ts), or null.
 */
function onShell(name: string, input: Record<string, unknown>, names: readonly string[], explicit: Readonly<Record<string, string>>, tools: readonly ToolDefinition[], workspace: string | null): MappedCall | null {
  if (name === 'bash' || !isGenericTool(name)) return null;
  const shell = resolveName('bash', names, explicit);
  const command = names.includes(shell) ? shellForm(name, input) : null;
  if (command === null) return null;
  return { name: shell, input: renameKeys({ command }, tools.find((t) => t.name === shell)?.input_schema, workspace) };
}

/** The generic names a request's tools have no tool for, but whose calls go to its shell tool. */
export function shellMapped(names: readonly string[], generic: readonly string[], explicit: Readonly<Record<string, string>> = {}): string[] {
  return generic.filter((g) => g !== 'bash' && isGenericTool(g) && shellForm(g, g === 'sleep' ? { ms: 0 } : { pattern: 'x' }) !== null && !names.includes(resolveName(g, names, explicit)) && names.includes(resolveName('bash', names, explicit)));
}
