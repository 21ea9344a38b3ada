/**
 * Terminal columns a string takes, not its UTF-16 length: a CJK character or
 * an emoji takes two columns, a combining mark none (string-width, the
 * measure cli-table3 and most terminal tools use). Every width the terminal
 * renderers compute goes through here.
 */
import stringWidth from 'string-width';

export function textWidth(text: string): number {
  return stringWidth(text);
}

/** `text` padded with spaces to `width` columns. */
export function padEndWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - textWidth(text)));
}

/** The longest head of `text` that fits in `width` columns (at least one character, so a cut always advances). */
export function headToWidth(text: string, width: number): string {
  let used = 0;
  let end = 0;
  for (const ch of text) {
    const w = textWidth(ch);
    if (used + w > width && end > 0) break;
    used += w;
    end += ch.length;
  }
  return text.slice(0, end);
}
