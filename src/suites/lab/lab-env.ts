/**
 * The environment a harness runs in under the lab: the caller's, without any
 * credential (a real key must never reach a harness that might call a real
 * provider), plus every base-URL variable the common SDKs read pointed at the
 * lab, dummy keys, and `FAULTLINE_LAB=1` with the task's prompt and workspace.
 * Placeholders `{prompt}`, `{workspace}`, `{task}` and `{cwd}` (where the lab
 * was started: the harness itself runs in the task's workspace) in the
 * command are filled in.
 */
import type { Wire } from '../../mock/wire-errors.js';

/** Names that hold credentials or point an SDK elsewhere (proxies included). */
const STRIPPED = /(_API_KEY|_AUTH_TOKEN|_ACCESS_KEY|_SECRET|_TOKEN|_PASSWORD|_CREDENTIALS?)$|^(ANTHROPIC|OPENAI|AZURE_OPENAI|AWS|GOOGLE|GEMINI|VERTEX|CLAUDE_CODE)_|^(HTTPS?_PROXY|ALL_PROXY|https?_proxy|all_proxy)$/;

export const DUMMY_KEY = 'faultline-lab-dummy-key';

export interface LabPlace {
  baseURLs: Record<Wire, string>;
  prompt: string;
  workspace: string;
  task: string;
  /** The directory the lab was started from. */
  cwd: string;
}

export function labEnv(parent: NodeJS.ProcessEnv, place: LabPlace): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) if (!STRIPPED.test(name) && value !== undefined) env[name] = value;
  return {
    ...env,
    ANTHROPIC_BASE_URL: place.baseURLs.anthropic,
    ANTHROPIC_API_KEY: DUMMY_KEY,
    OPENAI_BASE_URL: place.baseURLs.openai,
    // Older OpenAI clients and LangChain read OPENAI_API_BASE.
    OPENAI_API_BASE: place.baseURLs.openai,
    OPENAI_API_KEY: DUMMY_KEY,
    // Gemini: the genai SDK and Gemini CLI read GOOGLE_GEMINI_BASE_URL and GEMINI_API_KEY (not GOOGLE_API_KEY too: with both set the SDK warns on every client).
    GOOGLE_GEMINI_BASE_URL: place.baseURLs.gemini,
    GEMINI_API_KEY: DUMMY_KEY,
    // Gemini CLI: no usage statistics, no update check.
    GEMINI_TELEMETRY_ENABLED: 'false',
    // Keep harnesses from calling home (the OpenAI Agents SDK exports traces, Claude Code reports telemetry).
    OPENAI_AGENTS_DISABLE_TRACING: '1',
    CLAUDE_CODE_ENABLE_TELEMETRY: '0',
    DISABLE_TELEMETRY: '1',
    NO_PROXY: '127.0.0.1,localhost',
    // The harness runs in the workspace: a PWD left from the caller names another directory, and harnesses that
    // take their project root from it (opencode does) treat the workspace's files as outside the project.
    PWD: place.workspace,
    FAULTLINE_LAB: '1',
    FAULTLINE_LAB_PROMPT: place.prompt,
    FAULTLINE_LAB_WORKSPACE: place.workspace,
    FAULTLINE_LAB_TASK: place.task,
  };
}

export function fillCommand(command: readonly string[], place: LabPlace): string[] {
  return command.map((arg) => arg.replaceAll('{prompt}', place.prompt).replaceAll('{workspace}', place.workspace).replaceAll('{task}', place.task).replaceAll('{cwd}', place.cwd));
}
