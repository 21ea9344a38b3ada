/**
 * What a GNU sed script does to files beyond its operands: `w FILE`, `W FILE`
 * and the `s///w FILE` flag write a file, `r FILE`/`R FILE` read one, `e` and
 * the `s///e` flag run a shell command. A small scanner over one static
 * script (addresses, then one command letter and its arguments); anything it
 * does not understand returns null, which the caller treats as opaque code.
 */
export interface SedEffects {
  readonly writes: readonly string[];
  readonly reads: readonly string[];
  /** The script runs shell commands (`e`, `s///e`). */
  readonly runs: boolean;
}

const SIMPLE = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'l', 'n', 'N', 'p', 'P', 'x', 'z', 'F', 'q', 'Q', 'L']);

export function sedScriptEffects(script: string): SedEffects | null {
  const writes: string[] = [];
  const reads: string[] = [];
  let runs = false;
  let i = 0;
  const n = script.length;
  const skipBlanks = () => {
    while (i < n && (script[i] === ' ' || script[i] === '\t' || script[i] === ';' || script[i] === '\n')) i++;
  };
  const toEol = (): string => {
    const start = i;
    while (i < n && script[i] !== '\n') i++;
    return script.slice(start, i);
  };
  /** Skips a delimited part (`/re/`, `\cREc`); false when unterminated. */
  const delimited = (delim: string): boolean => {
    while (i < n && script[i] !== delim) {
      if (script[i] === '\\') i++;
      else if (script[i] === '\n') return false;
      i++;
    }
    if (i >= n) return false;
    i++;
    return true;
  };
  const address = (): boolean => {
    const c = script[i];
    if (c === undefined) return true;
    if (/[0-9]/.test(c)) {
      while (i < n && /[0-9~]/.test(script[i] as string)) i++;
    } else if (c === '$') i++;
    else if (c === '/') {
      i++;
      if (!delimited('/')) return false;
      while (i < n && (script[i] === 'I' || script[i] === 'M')) i++;
    } else if (c === '\\') {
      const d = script[i + 1];
      if (d === undefined) return false;
      i += 2;
      if (!delimited(d)) return false;
    }
    return true;
  };
  while (i < n) {
    skipBlanks();
    if (i >= n) break;
    if (script[i] === '#') {
      toEol();
      continue;
    }
    if (!address()) return null;
    if (script[i] === ',') {
      i++;
      if (script[i] === '+' || script[i] === '~') i++;
      if (!address()) return null;
    }
    while (script[i] === ' ' || script[i] === '!') i++;
    const cmd = script[i];
    if (cmd === undefined) return null;
    i++;
    if (cmd === '{' || cmd === '}') continue;
    if (SIMPLE.has(cmd)) {
      while (i < n && /[0-9 ]/.test(script[i] as string)) i++;
      continue;
    }
    if (cmd === 'w' || cmd === 'W') writes.push(toEol().trim());
    else if (cmd === 'r' || cmd === 'R') reads.push(toEol().trim());
    else if (cmd === 'e') {
      runs = true;
      toEol();
    } else if (cmd === 'a' || cmd === 'i' || cmd === 'c' || cmd === 'b' || cmd === 't' || cmd === 'T' || cmd === ':' || cmd === 'v') {
      // Text or a label: to the end of the line (labels also end at `;` in GNU sed).
      while (i < n && script[i] !== '\n' && !(cmd !== 'a' && cmd !== 'i' && cmd !== 'c' && script[i] === ';')) {
        if (script[i] === '\\') i++;
        i++;
      }
    } else if (cmd === 's' || cmd === 'y') {
      const d = script[i];
      if (d === undefined || d === '\n' || d === '\\') return null;
      i++;
      if (!delimited(d) || !delimited(d)) return null;
      if (cmd === 's') {
        while (i < n && /[gpiImMe0-9]/.test(script[i] as string)) {
          if (script[i] === 'e') runs = true;
          i++;
        }
        if (script[i] === 'w') {
          i++;
          writes.push(toEol().trim());
        }
      }
    } else return null;
  }
  // GNU sed: `/dev/stdout` and `/dev/stderr` are special names.
  return { writes: writes.filter((w) => w !== '/dev/stdout' && w !== '/dev/stderr'), reads, runs };
}
