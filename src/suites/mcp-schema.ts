/**
 * `mcp_servers:` in a suite (in `defaults:` or per task): MCP servers whose
 * tools the task gets (src/harness/mcp/README.md). Keys are server names.
 *
 * ```yaml
 * mcp_servers:
 *   everything:                                   # tools become mcp__everything__<tool>
 *     package: "@modelcontextprotocol/server-everything"   # an installed package's bin, run with this Node; never downloaded
 *     args: [stdio]
 *     trust: trusted                              # trusted | ask (default) | deny
 *   files:
 *     command: node                               # `node` is this Node; anything else is looked up on PATH
 *     args: ["${suite_dir}/servers/files.mjs", "--root", "${workspace}"]
 *     env: { API_TOKEN: "${env:FILES_TOKEN}" }    # only what is named here (plus HOME, PATH, ...) reaches the server
 *   remote:
 *     url: http://127.0.0.1:8931/mcp              # Streamable HTTP
 *     headers: { Authorization: "Bearer ${env:REMOTE_TOKEN}" }
 * ```
 */
import { z } from 'zod';
import { serverNameProblem } from '../harness/mcp/names.js';

/** `${workspace}`, `${suite_dir}`, `${env:NAME}`: nothing else may appear inside `${...}`. */
export const PLACEHOLDER = /\$\{([^}]*)\}/g;
const KNOWN_PLACEHOLDER = /^(workspace|suite_dir|env:[A-Za-z_][A-Za-z0-9_]*)$/;

const withPlaceholders = z.string().superRefine((value, ctx) => {
  for (const m of value.matchAll(PLACEHOLDER)) {
    if (!KNOWN_PLACEHOLDER.test(m[1]!)) ctx.addIssue({ code: 'custom', message: `unknown placeholder "\${${m[1]}}" (use \${workspace}, \${suite_dir} or \${env:NAME})` });
  }
});

// Timers past ~24.8 days fire at once in Node; a third of that leaves room for the SDK's own, longer timer.
const millis = () => z.number().int().positive().max(700_000_000);

export const McpServerSettings = z
  .strictObject({
    /** An executable to spawn (stdio), without a shell. */
    command: withPlaceholders.min(1).optional(),
    /** An npm package installed for the suite (found in node_modules from the suite's directory up), whose bin runs with this Node. */
    package: z.string().min(1).optional(),
    args: z.array(withPlaceholders).optional(),
    env: z.record(z.string(), withPlaceholders).optional(),
    /** Working directory of a stdio server (default: the task's workspace). */
    cwd: withPlaceholders.optional(),
    /** A Streamable HTTP endpoint. */
    url: withPlaceholders.optional(),
    headers: z.record(z.string(), withPlaceholders).optional(),
    trust: z.enum(['trusted', 'ask', 'deny']).optional(),
    /** Tools left out of the request until tool_search loads them (default true). */
    deferred: z.boolean().optional(),
    /** blocking (default): the first model request waits for the first connect; background: it does not. */
    startup: z.enum(['blocking', 'background']).optional(),
    /** Per-call timeout (default 120000); progress notifications start it again. */
    timeout_ms: millis().optional(),
    /** One connect attempt (default 30000). */
    connect_timeout_ms: millis().optional(),
    /** Result limit in estimated tokens (default 25000). */
    max_output_tokens: z.number().int().positive().optional(),
    /** After a disconnect (default 5 attempts, first after 1000 ms, doubling). */
    reconnect: z.strictObject({ attempts: z.number().int().nonnegative().max(20).optional(), base_delay_ms: z.number().int().nonnegative().max(600_000).optional() }).optional(),
  })
  .superRefine((s, ctx) => {
    const kinds = [s.command, s.package, s.url].filter((v) => v !== undefined).length;
    if (kinds !== 1) ctx.addIssue({ code: 'custom', message: 'give exactly one of command, package (stdio) or url (Streamable HTTP)' });
    if (s.url !== undefined && (s.args || s.env || s.cwd)) ctx.addIssue({ code: 'custom', message: 'args, env and cwd are for stdio servers (command or package), not url' });
    if (s.url === undefined && s.headers) ctx.addIssue({ code: 'custom', message: 'headers are for url servers' });
  });
export type McpServerSettings = z.infer<typeof McpServerSettings>;

export const McpServersSettings = z.record(z.string(), McpServerSettings).superRefine((servers, ctx) => {
  for (const name of Object.keys(servers)) {
    const problem = serverNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', path: [name], message: `"${name}": ${problem}` });
  }
});
