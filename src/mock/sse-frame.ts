/** SSE framing shared by both streaming encoders: one string per event, so mounts can pace or cut by event. */

/** Anthropic frames carry an `event:` line (docs/architecture.md#dependency-notes); OpenAI frames are bare `data:` lines. */
export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event !== undefined ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}

/** Split text into pieces of at most `size` characters (at least one piece, possibly empty). */
export function pieces(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Pieces of a JSON arguments text as the APIs stream them: small, cutting through keys and strings. */
export const ARGUMENT_PIECE = 12;
export const TEXT_PIECE = 24;
