/**
 * The prompt cache's block texts (prefix + the block's JSON without its
 * cache_control) and their UTF-8 sizes, remembered per session by position.
 * A session sends its history again on every call, so most blocks of a
 * request are the ones the last request had at the same place; serializing
 * and measuring them again (the system prompt above all) was most of the
 * mock's accounting. A remembered text is reused only when the block is
 * provably the same JSON: the same prefix, and a string equal to the one
 * remembered, or an object whose own members are, in order, the same
 * primitive values (cache_control aside, as the text leaves it out). Blocks
 * holding objects or arrays (a tool call's input) are serialized each time.
 * Reusing the remembered string also makes the prefix tree's comparison of
 * this text with the one it went to last an identity check.
 */
import { isObject } from './json-shape.js';

const MARK = 'cache_control';

interface Remembered {
  prefix: string;
  /** The block as parsed last time: a string, or an object whose members are all primitives. */
  value: unknown;
  text: string;
  bytes: number;
}

const isPrimitive = (value: unknown): boolean => value === null || (typeof value !== 'object' && typeof value !== 'function');

/** Whether `value` is a string or an object of primitive members only, so equality can be checked member by member. */
function comparable(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (!isObject(value)) return false;
  for (const key in value) if (key !== MARK && !isPrimitive(value[key])) return false;
  return true;
}

/** Same JSON once cache_control is left out: equal strings, or the same keys in the same order with the same primitive values. */
function sameBlock(value: unknown, known: unknown): boolean {
  if (typeof known === 'string') return value === known;
  if (!isObject(value) || !isObject(known)) return false;
  const a = Object.keys(value);
  const b = Object.keys(known);
  let i = 0;
  let j = 0;
  for (;;) {
    if (a[i] === MARK) i++;
    if (b[j] === MARK) j++;
    if (i >= a.length || j >= b.length) return i >= a.length && j >= b.length;
    const key = a[i]!;
    // The remembered members are primitives: an object in `value` is never Object.is one of them.
    if (key !== b[j] || !Object.is(value[key], known[key])) return false;
    i++;
    j++;
  }
}

/** A block's JSON without its cache_control (the bytes the prefix is made of). */
export function blockJson(value: unknown, prefix: string): string {
  if (!isObject(value) || !Object.hasOwn(value, MARK)) return prefix + JSON.stringify(value);
  const { cache_control: _mark, ...rest } = value;
  return prefix + JSON.stringify(rest);
}

export class BlockTexts {
  private last: Remembered[] = [];
  private next: Remembered[] = [];

  /** The text and size of the block at `position` (counted from the first block after the tool definitions). */
  at(position: number, value: unknown, prefix: string): { text: string; bytes: number } {
    const known = this.last[position];
    if (known !== undefined && known.prefix === prefix && sameBlock(value, known.value)) {
      this.next[position] = known;
      return known;
    }
    const text = blockJson(value, prefix);
    const fresh: Remembered = { prefix, value, text, bytes: Buffer.byteLength(text, 'utf8') };
    // A block that cannot be compared cheaply is not kept (nor is the parsed body it belongs to).
    if (comparable(value)) this.next[position] = fresh;
    return fresh;
  }

  /** The request is done: what it sent is what the next one is compared with. */
  settle(count: number): void {
    this.next.length = count;
    this.last = this.next;
    this.next = [];
  }
}
