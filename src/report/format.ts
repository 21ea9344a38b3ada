/** Cell formatting shared by the terminal, Markdown and HTML renderers (JSON keeps raw values). */
import type { Scalar } from '../analysis/duck.js';

/** Rates and shares are fractions in the data; shown as percentages. */
export function isRateColumn(column: string): boolean {
  return /(^|_)(rate|share)(_|$)/.test(column);
}

export function formatCell(column: string, value: Scalar | Scalar[]): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.map((v) => String(v)).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') {
    if (isRateColumn(column)) return `${(value * 100).toFixed(value !== 0 && Math.abs(value) < 0.001 ? 3 : 1)}%`;
    if (Number.isInteger(value)) return String(value);
    return value.toFixed(Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 1 ? 1 : 3);
  }
  return String(value);
}
