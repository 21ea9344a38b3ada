import { describe, expect, it } from 'vitest';
import { estimateTokens, mediaPlaceholder } from './token-estimate.js';
import { TOKEN_NOTICE_BUDGET, tokenHeadTail } from './token-head-tail.js';

describe('head and tail by tokens', () => {
  it('leaves a text within the budget alone', () => {
    expect(tokenHeadTail('a'.repeat(1000), 25_000)).toBeNull();
  });

  it('keeps about 70% of the budget at the head and the rest at the tail, in tokens', () => {
    const text = '中'.repeat(40_000) + 'END';
    const cut = tokenHeadTail(text, 25_000)!;
    expect(cut.totalTokens).toBe(40_001);
    const kept = estimateTokens(cut.head) + estimateTokens(cut.tail);
    expect(kept).toBeLessThanOrEqual(25_000 - TOKEN_NOTICE_BUDGET);
    expect(estimateTokens(cut.head)).toBe(Math.floor((25_000 - TOKEN_NOTICE_BUDGET) * 0.7));
    expect(cut.tail.endsWith('END')).toBe(true);
    expect(cut.head.length + cut.omittedChars + cut.tail.length).toBe(text.length);
  });

  it('keeps ~4x more characters of English than of Chinese for the same budget', () => {
    const en = tokenHeadTail('word '.repeat(40_000), 10_000)!;
    const zh = tokenHeadTail('字'.repeat(200_000), 10_000)!;
    expect(en.head.length + en.tail.length).toBe(4 * (zh.head.length + zh.tail.length));
  });

  it('keeps or leaves out media lines whole and counts the ones left out', () => {
    const line = mediaPlaceholder('image', 'image/png', 100);
    const text = ['images:', ...Array.from({ length: 20 }, () => line)].join('\n');
    const cut = tokenHeadTail(text, 25_000)!;
    expect(cut).not.toBeNull();
    const keptLines = (cut.head + cut.tail).split('\n').filter((l) => l === line).length;
    expect(keptLines + cut.omittedMedia).toBe(20);
    expect(cut.omittedMedia).toBeGreaterThan(0);
    expect(keptLines * 1_600).toBeLessThanOrEqual(25_000);
    for (const part of [cut.head, cut.tail]) for (const l of part.split('\n')) if (l.startsWith('[image')) expect(l).toBe(line);
  });

  it('never splits a surrogate pair', () => {
    const cut = tokenHeadTail('😀'.repeat(30_000), 1_001)!;
    for (const part of [cut.head, cut.tail]) expect(part).toBe(Array.from(part).join(''));
    expect(cut.head.length % 2).toBe(0);
    expect(cut.tail.length % 2).toBe(0);
  });
});
