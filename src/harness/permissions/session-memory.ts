/**
 * Session permission memory (docs/harness-rules.md#fewer-prompts): once a human approves a call,
 * the same tool with the same input is not asked again in this session. The
 * key is tool + a stable hash of the input — approving `rm /tmp/a` is not
 * approving every `rm`.
 */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal inputs hash equally whatever their key order. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stableStringify(v))).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(obj[k])}`).join(',')}}`;
}

export function memoryKey(tool: string, input: unknown): string {
  return `${tool}:${createHash('sha256').update(stableStringify(input)).digest('hex').slice(0, 32)}`;
}

export class SessionMemory {
  readonly #allowed = new Set<string>();

  /** Record a human approval of exactly this call. */
  remember(tool: string, input: unknown): void {
    this.#allowed.add(memoryKey(tool, input));
  }

  has(tool: string, input: unknown): boolean {
    return this.#allowed.has(memoryKey(tool, input));
  }

  clear(): void {
    this.#allowed.clear();
  }
}
