/**
 * Widths are terminal columns: a CJK line wraps at half the characters of an
 * ASCII one, and a table of CJK text stays inside the terminal.
 */
import { describe, expect, it } from 'vitest';
import { fitTable } from './fit-table.js';
import { tableView, wrapText } from './format.js';
import { headToWidth, padEndWidth, textWidth } from './text-width.js';

const CJK = '工具结果必须按令牌计算而不是按字符计算因为中文的每个字符都接近一个令牌，检查失败的原因写在这里，然后再试一次。';

describe('terminal widths', () => {
  it('measures columns, not UTF-16 units', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('工具')).toBe(4);
    expect(textWidth('e\u0301')).toBe(1);
    expect(padEndWidth('工具', 6)).toBe('工具  ');
    expect(headToWidth('工具结果', 5)).toBe('工具');
  });

  it('wraps CJK text to the width in columns', () => {
    const lines = wrapText(`${CJK} ${CJK}`, 40, ' ');
    for (const l of lines) expect(textWidth(l), l).toBeLessThanOrEqual(40);
    expect(lines.join('')).toBe(`${CJK}${CJK}`);
  });

  it('keeps a table of CJK text inside the terminal width', () => {
    const rows = [{ tool: 'read', detail: CJK, calls: 3 }, { tool: 'shell', detail: `${CJK} ${CJK}`, calls: 1 }];
    const fitted = fitTable(tableView({ columns: ['tool', 'detail', 'calls'], rows }), { width: 60, color: false });
    for (const l of fitted.text.split('\n')) expect(textWidth(l), l).toBeLessThanOrEqual(60);
  });
});
