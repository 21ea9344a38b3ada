/**
 * What a Gemini request's URL says (the body does not): the model, and
 * whether and how to stream. `POST /v1beta/models/{model}:generateContent`
 * answers one JSON object; `:streamGenerateContent?alt=sse` answers SSE
 * (`data: {...}` per chunk, what the genai SDK asks for), and
 * `:streamGenerateContent` without `alt=sse` a JSON array written element by
 * element (the REST default). `v1` and `v1alpha` paths are served the same.
 */
export type GeminiStreamFormat = 'sse' | 'json_array';

export interface GeminiCall {
  model: string;
  /** null: generateContent (one JSON object). */
  stream: GeminiStreamFormat | null;
}

const METHOD = /^\/(v1beta|v1|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

/** The conversation method and model of a path (without the session prefix), or null when it is not one. */
export function geminiMethodOf(path: string): { model: string; method: 'generateContent' | 'streamGenerateContent' | 'countTokens' } | null {
  const m = METHOD.exec(path);
  if (!m) return null;
  return { model: decodeURIComponent(m[2] as string), method: m[3] as 'generateContent' | 'streamGenerateContent' | 'countTokens' };
}

/** The call a full request path (session prefix and query included) makes; a path that names none answers as generateContent. */
export function geminiCallOf(url: string | undefined): GeminiCall {
  const [path = '', query = ''] = (url ?? '').split('?');
  const rest = path.replace(/^\/s\/[A-Za-z0-9_-]+/, '').replace(/\/+$/, '');
  const found = geminiMethodOf(rest);
  if (!found || found.method !== 'streamGenerateContent') return { model: found?.model ?? 'gemini-mock', stream: null };
  const alt = new URLSearchParams(query).get('alt');
  return { model: found.model, stream: alt === 'sse' ? 'sse' : 'json_array' };
}
