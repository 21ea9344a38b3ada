/**
 * tool_search (docs/harness-rules.md#tool-search): finds deferred tools by keyword and loads them —
 * their definitions are sent from the next request on. Two modes:
 *   "select:a,b"   load exactly these tools;
 *   "cron create"  keyword search, best matches loaded.
 * Scoring (a client-side search is the only search here, so it must be
 * good, docs/harness-rules.md#tool-search): names are split into words (`mcp__server__tool`,
 * snake_case, camelCase); a word-boundary match in the name outweighs one in
 * the description; matching uses word boundaries, so "read" does not hit
 * "already" or "thread"; "+term" makes a term required. A tool's searchHint
 * (a curated capability phrase) counts above its description, and parameter
 * names and descriptions count too: this client-side search is the only
 * search (no server-side tool search expands schemas behind it), so a
 * capability named only in a parameter must still be found.
 */
import { z } from 'zod';
import type { ToolRegistry } from './registry.js';
import type { Tool } from './tool.js';
import { toolJsonSchema } from './tool-schema.js';

/** The tool a task gets when some of its tools are deferred. */
export const TOOL_SEARCH_NAME = 'tool_search';

const schema = z.strictObject({
  query: z.string().min(1).describe('Keywords describing the capability you need, or "select:name1,name2" to load tools by exact name.'),
  max_results: z.number().int().min(1).max(20).optional().describe('How many matching tools to load, default 5.'),
});
export type ToolSearchInput = z.infer<typeof schema>;

export interface ScoredTool {
  name: string;
  score: number;
}

export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Scores every candidate; tools missing a required (+) term or matching nothing are left out. */
export function scoreTools(query: string, candidates: readonly Tool[]): ScoredTool[] {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  const required = terms.filter((t) => t.startsWith('+') && t.length > 1).map((t) => t.slice(1));
  const all = [...new Set(terms.map((t) => t.replace(/^\+/, '')).filter(Boolean))];
  const scored: ScoredTool[] = [];
  for (const tool of candidates) {
    const words = nameWords(tool.name);
    const text = `${tool.description} ${tool.usage ?? ''}`;
    const params = parameterText(tool);
    const hit = (term: string): number => {
      const re = new RegExp(`\\b${escape(term)}\\b`, 'i');
      let s = 0;
      if (tool.name.toLowerCase() === term) s += 20;
      if (words.includes(term)) s += tool.name.startsWith('mcp__') && words[1] === term ? 12 : 10;
      if (tool.searchHint !== undefined && re.test(tool.searchHint)) s += 5;
      if (re.test(text)) s += 2;
      else if (params.names.includes(term) || re.test(params.text)) s += 1;
      return s;
    };
    if (required.some((t) => hit(t) === 0)) continue;
    const score = all.reduce((sum, t) => sum + hit(t), 0);
    if (score > 0) scored.push({ name: tool.name, score });
  }
  return scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A tool's parameter names (split into words like tool names) and their descriptions, from the schema the model would get. */
function parameterText(tool: Tool): { names: string[]; text: string } {
  let properties: Record<string, unknown> = {};
  try {
    const schema = toolJsonSchema(tool) as { properties?: Record<string, unknown> };
    properties = schema.properties ?? {};
  } catch {
    return { names: [], text: '' };
  }
  const names = Object.keys(properties).flatMap((n) => [n.toLowerCase(), ...nameWords(n)]);
  const text = Object.values(properties)
    .map((p) => (typeof p === 'object' && p !== null && typeof (p as { description?: unknown }).description === 'string' ? (p as { description: string }).description : ''))
    .join(' ');
  return { names, text };
}

export interface ToolSearchOptions {
  /**
   * MCP servers configured for the session (static, so it may be in the
   * cached description): their tools are deferred and found by searching.
   */
  mcpServers?: readonly string[];
  /** MCP servers still connecting right now (docs/harness-rules.md#mcp-pending: injected, so this tool knows nothing of MCP). */
  pendingServers?: () => readonly string[];
}

export function createToolSearchTool(registry: ToolRegistry, options: ToolSearchOptions = {}): Tool<ToolSearchInput> {
  // Fixed for the session (computed once, never re-rendered on activation): the names are part of
  // the cached prefix, marked as deferred so the model knows to load them first (docs/harness-rules.md#prefix-collapse).
  // MCP tools are left out: which of them are registered yet depends on connection timing, and the
  // prefix must not (docs/harness-rules.md#stable-prefix); the configured server names stand for them.
  const deferred = registry.unloadedNames().filter((name) => !name.startsWith('mcp__'));
  const servers = options.mcpServers ?? [];
  const usage = [
    ...(deferred.length > 0 ? [`- Deferred tools in this session (not callable until loaded): ${deferred.join(', ')}.`] : []),
    ...(servers.length > 0 ? [`- MCP servers in this session: ${servers.join(', ')}. Their tools are named mcp__<server>__<tool> and are deferred: search for them (e.g. "${servers[0]}") or load them with "select:name".`] : []),
    ...(deferred.length + servers.length > 0 ? ['- Load one with "select:name" before calling it: a call of a tool that is not loaded does not run, it is answered with an error telling you to load it here first.'] : []),
  ];
  return {
    name: TOOL_SEARCH_NAME,
    description:
      'Load deferred tools: tools that exist but whose definitions are not sent until needed. ' +
      'Search by keywords, or load by exact name with "select:name"; loaded tools can be called from your next step on.',
    usage: usage.length > 0 ? usage.join('\n') : undefined,
    inputSchema: schema,
    readOnly: true,
    // It changes which tools the next request carries; serial keeps activation order deterministic.
    isConcurrencySafe: () => false,
    // The real action is the call that follows; this card tells the user nothing (docs/harness-rules.md#model-and-display-sides ②b).
    resultDisplayMode: 'hidden',
    emptyText: '(no deferred tools)',
    async execute(input) {
      const pending = registry.unloadedNames();
      const tools = (names: readonly string[]) => names.map((n) => registry.get(n)).filter((t): t is Tool => t !== undefined);
      let chosen: string[];
      const notes: string[] = [];
      if (input.query.startsWith('select:')) {
        chosen = [];
        for (const name of input.query.slice(7).split(',').map((n) => n.trim()).filter(Boolean)) {
          const unavailable = registry.unavailable(name);
          if (unavailable) notes.push(unavailable.message);
          else if (pending.includes(name)) chosen.push(name);
          else if (registry.has(name)) notes.push(`${name} is already loaded; call it directly.`);
          else notes.push(`There is no tool named "${name.slice(0, 64)}".`);
        }
      } else {
        chosen = scoreTools(input.query, tools(pending)).slice(0, input.max_results ?? 5).map((s) => s.name);
      }
      // "Not found" has two meanings (docs/harness-rules.md#mcp-pending): say which servers have not listed their tools yet.
      const connecting = input.query.startsWith('select:') ? [] : (options.pendingServers?.() ?? []);
      const stillConnecting =
        connecting.length === 0
          ? ''
          : `MCP server${connecting.length === 1 ? '' : 's'} ${connecting.join(', ')} ${connecting.length === 1 ? 'is' : 'are'} still connecting — ${connecting.length === 1 ? 'its' : 'their'} tools cannot be found yet; retry shortly.`;
      registry.activate(chosen);
      const lines = tools(chosen).map((t) => `- ${t.name}: ${t.description}`);
      const head = lines.length > 0 ? `Loaded ${lines.length} tool${lines.length === 1 ? '' : 's'}; call ${lines.length === 1 ? 'it' : 'them'} directly from now on:\n${lines.join('\n')}` : '';
      const none =
        lines.length === 0 && notes.length === 0
          ? `No deferred tool matches "${input.query.slice(0, 100)}". Not yet loaded: ${pending.join(', ') || '(none)'}. Try other keywords or select:name.`
          : '';
      return { content: [head, ...notes, none, stillConnecting].filter(Boolean).join('\n') };
    },
  };
}
