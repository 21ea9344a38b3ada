/**
 * A token estimate for tool results that are limited in tokens, not
 * characters (MCP tools, docs/harness-rules.md#mcp-limits). Characters are a bad proxy: the
 * same 100,000 characters are ~25k tokens of English, far more of Chinese,
 * and an image referenced in a few characters costs a fixed ~1,600 tokens.
 *
 * The heuristic (rates are tokens per character, chosen to over- rather than
 * under-estimate, because the estimate guards a budget):
 *
 * | text                                                       | rate      | why |
 * |------------------------------------------------------------|-----------|-----|
 * | ASCII (English prose, code, JSON)                          | 1/4       | the usual ~4 characters per token of BPE vocabularies on English and code |
 * | base64: a run of 64+ `[A-Za-z0-9+/_-]` with no space (and `=` padding) | 1/2.5 | random letters and digits rarely form vocabulary words: ~2-3 characters per token |
 * | CJK: Han, kana, Hangul, CJK punctuation and full-width forms | 1       | common characters are one token, rarer ones two or three byte pieces; 1 per character is the safe side of both |
 * | any other non-ASCII (accents, Cyrillic, emoji), per UTF-16 unit | 1/2   | 2-byte UTF-8 letters merge into pieces of about two; an emoji (two units) is about one token |
 * | a media placeholder line (`mediaPlaceholder`)              | 1,600 each | a fixed per-image cost; the line's own characters are not counted again |
 *
 * No character counts more than one token, so text of at most `max` characters
 * (with no media placeholder) is within a `max`-token budget without being
 * scanned. The usual shortcut (pass anything up to half of `4 x max`
 * characters) assumes at most 0.5 tokens per character and would let 50,000
 * CJK characters through a 25,000-token budget; this one is exact for the
 * heuristic above.
 */

/** Tokens charged per image (or other media block) in a result (docs/harness-rules.md#mcp-limits). */
export const MEDIA_TOKENS = 1_600;

export const ASCII_TOKENS_PER_CHAR = 1 / 4;
export const BASE64_TOKENS_PER_CHAR = 1 / 2.5;
export const CJK_TOKENS_PER_CHAR = 1;
/** Per UTF-16 code unit, so an emoji (two units) counts one token. */
export const OTHER_TOKENS_PER_CHAR = 1 / 2;
/** The shortest space-free run of the base64 alphabet counted as base64 rather than as words. */
export const BASE64_MIN_RUN = 64;

/**
 * The one line that stands for an image or audio block in a text result
 * (results reach the model as text in this harness). The estimator charges
 * it MEDIA_TOKENS.
 */
export function mediaPlaceholder(kind: 'image' | 'audio', mimeType: string, base64Chars: number): string {
  const bytes = Math.floor((base64Chars * 3) / 4);
  const mime = mimeType.replace(/[^\w.+/-]/g, '').slice(0, 64) || 'unknown';
  return `[${kind} ${mime}, ${bytes} bytes: not shown, tool results reach the model as text here]`;
}

export const MEDIA_PLACEHOLDER = /^\[(?:image|audio) [\w.+/-]{1,64}, \d+ bytes: not shown, tool results reach the model as text here\]$/gm;

/** One stretch of text priced at one rate. */
export interface PricedRun {
  start: number;
  end: number;
  /** Tokens per character, or the fixed cost of the whole run when `fixed`. */
  rate: number;
  fixed: boolean;
}

const CJK = '\\u1100-\\u11ff\\u2e80-\\u9fff\\ua960-\\ua97f\\uac00-\\ud7ff\\uf900-\\ufaff\\ufe30-\\ufe4f\\uff00-\\uffef';
/** Every non-ASCII UTF-16 unit that is not CJK above (surrogates included, so an emoji is one run of two). */
const OTHER = '\\u0080-\\u10ff\\u1200-\\u2e7f\\ua000-\\ua95f\\ua980-\\uabff\\ud800-\\uf8ff\\ufb00-\\ufe2f\\ufe50-\\ufeff\\ufff0-\\uffff';

// Only the runs that are NOT priced as plain ASCII are matched; the gaps between
// them are ASCII (a 1 MB English log is a handful of matches, not one per word).
// A base64 run is tried only where a run of its alphabet starts (the
// lookbehind), so a word is scanned once, not once per character; the match is
// then the whole run. (Measured against a hand-written loop over char codes:
// as fast on English, several times faster on CJK and base64.)
const SPECIAL = new RegExp(
  [MEDIA_PLACEHOLDER.source, `(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{${BASE64_MIN_RUN},}={0,2}`, `[${CJK}]+`, `[${OTHER}]+`].map((s) => `(${s})`).join('|'),
  'gm',
);

/** The text split into priced runs, in order and covering it whole. */
export function pricedRuns(text: string): PricedRun[] {
  const runs: PricedRun[] = [];
  const ascii = (start: number, end: number) => {
    if (end > start) runs.push({ start, end, rate: ASCII_TOKENS_PER_CHAR, fixed: false });
  };
  let at = 0;
  SPECIAL.lastIndex = 0;
  for (let m = SPECIAL.exec(text); m !== null; m = SPECIAL.exec(text)) {
    ascii(at, m.index);
    const end = m.index + m[0].length;
    const fixed = m[1] !== undefined;
    const rate = fixed ? MEDIA_TOKENS : m[2] !== undefined ? BASE64_TOKENS_PER_CHAR : m[3] !== undefined ? CJK_TOKENS_PER_CHAR : OTHER_TOKENS_PER_CHAR;
    runs.push({ start: m.index, end, rate, fixed });
    at = end;
  }
  ascii(at, text.length);
  return runs;
}

export function runTokens(run: PricedRun): number {
  return run.fixed ? run.rate : (run.end - run.start) * run.rate;
}

/** Estimated tokens of a text result (see the table above). */
export function estimateTokens(text: string): number {
  let total = 0;
  for (const run of pricedRuns(text)) total += runTokens(run);
  return Math.ceil(total);
}

/** Cheap pre-check: true when `text` is certainly within `maxTokens` (no character counts more than one token). */
export function certainlyWithin(text: string, maxTokens: number): boolean {
  return text.length <= maxTokens && !text.includes(' bytes: not shown, tool results reach the model as text here]');
}
