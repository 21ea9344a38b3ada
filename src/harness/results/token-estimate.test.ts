import { describe, expect, it } from 'vitest';
import { certainlyWithin, estimateTokens, MEDIA_TOKENS, mediaPlaceholder, pricedRuns } from './token-estimate.js';

const english = (n: number) => 'The build finished with two warnings and no errors. '.repeat(Math.ceil(n / 52)).slice(0, n);
const cjk = (n: number) => '工具结果必须按令牌计算'.repeat(Math.ceil(n / 10)).slice(0, n);
const base64 = (n: number) => 'iVBORw0KGgoAAAANSUhEUgAAABQAAAAUCAYAAACNiR0N'.repeat(Math.ceil(n / 44)).slice(0, n);

describe('token estimate', () => {
  it('prices the same number of characters very differently for English, CJK and base64', () => {
    expect(estimateTokens(english(100_000))).toBe(25_000);
    expect(estimateTokens(cjk(100_000))).toBe(100_000);
    expect(estimateTokens(base64(100_000))).toBe(40_000);
  });

  it('finds a base64 blob inside a line of English, and leaves short words and numbers at the English rate', () => {
    const blob = base64(400);
    expect(estimateTokens(`data: ${blob} end`)).toBe(Math.ceil(10 / 4 + 400 / 2.5));
    expect(estimateTokens('a_short_identifier 1234567890 x')).toBe(Math.ceil(31 / 4));
  });

  it('charges each media placeholder line a fixed cost, whatever its length', () => {
    const line = mediaPlaceholder('image', 'image/png', 4_000_000);
    expect(estimateTokens(`two images:\n${line}\n${line}`)).toBe(Math.ceil(12 / 4 + 1 / 4 + 2 * MEDIA_TOKENS));
    // The same text not on a line of its own is ordinary text.
    expect(estimateTokens(`see ${line}`)).toBeLessThan(MEDIA_TOKENS);
  });

  it('counts other non-ASCII per UTF-16 unit at half a token, so an emoji is one', () => {
    expect(estimateTokens('😀😀')).toBe(2);
    expect(estimateTokens('Привет')).toBe(3);
  });

  it('covers the whole text with runs in order, so nothing escapes the count', () => {
    const text = `hello ${cjk(5)} ${base64(70)}\n${mediaPlaceholder('audio', 'audio/wav', 8)}\ncafé = ok`;
    const runs = pricedRuns(text);
    expect(runs[0]!.start).toBe(0);
    expect(runs.at(-1)!.end).toBe(text.length);
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.start).toBe(runs[i - 1]!.end);
  });

  it('passes short text without scanning only when no character could push it over', () => {
    expect(certainlyWithin(cjk(25_000), 25_000)).toBe(true);
    expect(certainlyWithin(english(25_001), 25_000)).toBe(false);
    expect(certainlyWithin(mediaPlaceholder('image', 'image/png', 10), 25_000)).toBe(false);
  });
});
