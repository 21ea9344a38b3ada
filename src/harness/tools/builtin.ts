/**
 * The built-in tools in their fixed, hand-ordered sequence. The order is part
 * of the prompt-cache prefix (docs/harness-rules.md#stable-prefix): append new tools, never reorder.
 */
import { bashTool } from './bash.js';
import { editTool } from './edit.js';
import { FAULT_TOOLS } from './fault-tools.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { lsTool } from './ls.js';
import { readTool } from './read.js';
import { ToolRegistry, ToolRegistryError, type RegistryOptions } from './registry.js';
import type { Tool } from './tool.js';
import { writeTool } from './write.js';

export function builtinTools(): Tool[] {
  return [readTool, writeTool, editTool, lsTool, globTool, grepTool, bashTool];
}

/** Every name a task may list in `tools`: the built-ins in their order, then the fault tools. */
export function knownToolNames(): string[] {
  return [...builtinTools(), ...FAULT_TOOLS].map((tool) => tool.name);
}

/**
 * A registry with the built-ins, or only the named ones (still in the declared
 * order, whatever order the names come in). Fault-scenario tools (`explode`,
 * `sleep`) are available only by name. An unknown name throws: it is a
 * configuration error, reported before any model call.
 */
export function createRegistry(names?: readonly string[], options: RegistryOptions = {}): ToolRegistry {
  if (names === undefined) return new ToolRegistry(builtinTools(), options);
  const all = [...builtinTools(), ...FAULT_TOOLS];
  const known = new Set(knownToolNames());
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new ToolRegistryError(
      'UNKNOWN_TOOL',
      `Unknown tool${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}. Known tools: ${[...known].join(', ')}.`,
    );
  }
  const wanted = new Set(names);
  return new ToolRegistry(
    all.filter((tool) => wanted.has(tool.name)),
    options,
  );
}
