/**
 * The tool registry: the only path from tools to the definitions sent to the
 * model (docs/harness-rules.md#descriptions: a second hand-written path once dropped 86% of the
 * description text silently), in a stable order (docs/harness-rules.md#stable-prefix: built-ins as
 * declared, MCP tools sorted by name after them, so async connection order
 * cannot bust the prompt cache), with one cached JSON Schema per tool.
 */
import type { JsonSchema, ToolDefinition } from '../../providers/types.js';
import { byCodeUnit } from './compare.js';
import type { Unavailable } from '../pipeline/lookup.js';
import type { ToolRegistryLike } from './registry-like.js';
import type { Tool } from './tool.js';
import { toolDefinition } from './tool-definition.js';
import { toolJsonSchema } from './tool-schema.js';
import { describeIssues, type ValidationFailure } from './validation-message.js';

export const MCP_PREFIX = 'mcp__';

/** Answers for names whose source is not ready (e.g. an MCP server still connecting); null = no objection. */
export type AvailabilityCheck = (name: string) => Unavailable | null;

export type ValidationResult = { ok: true; value: unknown } | ValidationFailure;

export interface RegistryOptions {
  /** Names of deferred tools: registered (get/has/validate work) but left out of definitions() (docs/harness-rules.md#deferred-tools). */
  deferred?: Iterable<string>;
}

/** A registry misuse: a bug in the caller, never a model mistake. */
export class ToolRegistryError extends Error {
  constructor(
    readonly code: 'DUPLICATE_TOOL' | 'UNKNOWN_TOOL',
    message: string,
  ) {
    super(message);
    this.name = 'ToolRegistryError';
  }
}

export class ToolRegistry implements ToolRegistryLike {
  private readonly tools = new Map<string, Tool>();
  private readonly deferred: Set<string>;
  /** Deferred tools activated by tool_search, in activation order. */
  private readonly activated: string[] = [];
  private cachedDefinitions: ToolDefinition[] | null = null;
  private availability: AvailabilityCheck | null = null;

  constructor(tools: Iterable<Tool> = [], options: RegistryOptions = {}) {
    this.deferred = new Set(options.deferred ?? []);
    for (const tool of tools) this.register(tool);
  }

  /**
   * Adds a tool. Built-ins keep registration order; `mcp__` tools are placed
   * by name whenever they arrive. `deferred`: left out of definitions() until
   * tool_search activates it (MCP tools arriving after construction).
   */
  register(tool: Tool, options: { deferred?: boolean } = {}): void {
    if (this.tools.has(tool.name)) {
      throw new ToolRegistryError('DUPLICATE_TOOL', `A tool named "${tool.name}" is already registered.`);
    }
    this.tools.set(tool.name, tool);
    if (options.deferred) this.deferred.add(tool.name);
    this.cachedDefinitions = null;
  }

  /**
   * Injects the check that tells "not ready yet" from "does not exist"
   * (docs/harness-rules.md#mcp-pending): an MCP manager answers for the names of servers still connecting.
   * The registry knows nothing about MCP; it only asks.
   */
  setAvailability(check: AvailabilityCheck | null): void {
    this.availability = check;
  }

  /** Why a tool (registered or not) cannot be called right now, or null. */
  unavailable(name: string): Unavailable | null {
    return this.availability?.(name) ?? null;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  isDeferred(name: string): boolean {
    return this.deferred.has(name) && this.tools.has(name);
  }

  /** Deferred and not yet activated: the model has never been sent its schema. */
  isUnloaded(name: string): boolean {
    return this.isDeferred(name) && !this.activated.includes(name);
  }

  /** Deferred tools not activated yet, in the stable order (what tool_search searches). */
  unloadedNames(): string[] {
    return this.names().filter((name) => this.isUnloaded(name));
  }

  /**
   * Makes deferred tools part of the definitions from the next request on
   * (tool_search). Activated tools are APPENDED in activation order after the
   * resident ones, so the prefix the provider caches stays byte-identical and
   * only the tail changes (docs/harness-rules.md#stable-prefix, docs/harness-rules.md#prefix-collapse). Returns the names newly activated.
   */
  activate(names: Iterable<string>): string[] {
    const added: string[] = [];
    for (const name of names) {
      if (!this.isUnloaded(name)) continue;
      this.activated.push(name);
      added.push(name);
    }
    if (added.length > 0) this.cachedDefinitions = null;
    return added;
  }

  /** Every registered name (deferred ones included) in the stable order. */
  names(): string[] {
    const builtin: string[] = [];
    const mcp: string[] = [];
    for (const name of this.tools.keys()) (name.startsWith(MCP_PREFIX) ? mcp : builtin).push(name);
    return [...builtin, ...mcp.sort(byCodeUnit)];
  }

  /** The definitions sent to the model: stable order, deferred tools excluded, usage appended to the description. */
  definitions(): ToolDefinition[] {
    // One array per tool set: the loop can tell "tools changed" by identity.
    if (this.cachedDefinitions === null) {
      // Built by push, not .map: V8's optimized .map makes holey arrays, the interpreter packed ones, and the
      // agent turn reading both kinds is deoptimized and compiled again.
      const out: ToolDefinition[] = [];
      for (const name of this.names()) if (!this.deferred.has(name)) out.push(this.definitionOf(this.mustGet(name)));
      for (const name of this.activated) out.push(this.definitionOf(this.mustGet(name)));
      this.cachedDefinitions = out;
    }
    return this.cachedDefinitions;
  }

  /** The definitions deferring keeps out of the request now: the deferred tools not activated yet (what loading them would add). */
  unloadedDefinitions(): ToolDefinition[] {
    const out: ToolDefinition[] = []; // by push, as in definitions()
    for (const name of this.unloadedNames()) out.push(this.definitionOf(this.mustGet(name)));
    return out;
  }

  /** The JSON Schema the model sees for one tool (cached, frozen, without `$schema`). */
  jsonSchema(name: string): JsonSchema {
    return this.schemaOf(this.mustGet(name));
  }

  /**
   * Validates input against the tool's zod schema. On failure the message
   * names each wrong field and what to send. An unknown name throws: lookup
   * must have answered the model before validation is reached.
   */
  validate(name: string, input: unknown): ValidationResult {
    const tool = this.mustGet(name);
    const parsed = tool.inputSchema.safeParse(input, { reportInput: true });
    if (parsed.success) return { ok: true, value: parsed.data };
    return describeIssues(parsed.error.issues, this.schemaOf(tool));
  }

  private definitionOf(tool: Tool): ToolDefinition {
    return toolDefinition(tool);
  }

  private schemaOf(tool: Tool): JsonSchema {
    return toolJsonSchema(tool);
  }

  private mustGet(name: string): Tool {
    const tool = this.tools.get(name);
    if (!tool) throw new ToolRegistryError('UNKNOWN_TOOL', `No tool named "${name.slice(0, 64)}" is registered.`);
    return tool;
  }
}

