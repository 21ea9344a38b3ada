/**
 * The fast reading of a suite file: js-yaml 4 with the YAML 1.2 core schema exactly as `yaml` (the slow, exact
 * reader of load-suite.ts) resolves plain scalars. A suite read here must mean what `yaml` would read, so anything
 * the two could read differently is refused here and left to `yaml`:
 *
 * - Scalars. js-yaml's own schemas resolve numbers by YAML 1.1 rules (`0b101`, `1_000`, `-0x1F` are numbers there,
 *   strings in the 1.2 core schema; js-yaml 5 changed this, and parses a 2,000-task suite ~45% slower: 125 against
 *   70 ms). The four types below take `yaml`'s own tests and conversions (yaml/dist/schema/core): null, bool, int
 *   (decimal, 0o, 0x) and float (.inf, .nan, exponent, decimal point). A tag this schema does not know (`!!binary`,
 *   `!!timestamp`, a local `!tag`) is an error here, so `yaml` reads it.
 * - Complex keys. js-yaml 4 turns a collection used as a mapping key into a string (`[a, b]: 1` has the key "a,b");
 *   `yaml` writes it another way. A text with an explicit key (`? `), a flow collection or an alias before a `:`
 *   is not read here.
 * - Null keys. js-yaml names a member whose key is null "null"; `yaml` names it "" (`~: x`). A text with a null
 *   scalar or a `!!null` tag before a `:` is not read here.
 * - Directives. `%YAML 1.1` switches `yaml` to the 1.1 schema; a text with a directive is not read here.
 *
 * fast-yaml.test.ts checks every case against `yaml`, and every shipped suite.
 */
import { FAILSAFE_SCHEMA, load, Type } from 'js-yaml';

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

const scalar = (tag: string, resolve: (text: string) => boolean, construct: (text: string) => unknown) => new Type(`tag:yaml.org,2002:${tag}`, { kind: 'scalar', resolve, construct });

const CORE_1_2 = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar('null', (s) => NULL.test(s), () => null),
    scalar('bool', (s) => BOOL.test(s), (s) => s[0] === 't' || s[0] === 'T'),
    scalar('int', (s) => INT_OCT.test(s) || INT.test(s) || INT_HEX.test(s), (s) => (INT_OCT.test(s) ? parseInt(s.slice(2), 8) : INT_HEX.test(s) ? parseInt(s.slice(2), 16) : parseInt(s, 10))),
    scalar('float', (s) => FLOAT_NAN.test(s) || FLOAT_EXP.test(s) || FLOAT.test(s), (s) => (FLOAT_NAN.test(s) ? (s.endsWith('nan') || s.endsWith('NaN') || s.endsWith('NAN') ? NaN : s[0] === '-' ? -Infinity : Infinity) : parseFloat(s))),
  ],
});

/**
 * What may make a key that is not a scalar: `?` as an explicit key, `]` or `}` then `:`, an alias then `:`. It may
 * also match inside a string (`see [1]: x`); such a text is then read by `yaml`, which is only slower.
 */
const COMPLEX_KEY = /(?:^|[\s,[{])\?(?:\s|$)|[\]}]\s*:(?:\s|$|[,\]}])|\*[^\s,[\]{}]*\s*:/m;
const NULL_KEY = /(?:^|[\s,[{])(?:~|[Nn]ull|NULL)[ \t]*:(?:\s|$|[,\]}])|!!null/m;
const DIRECTIVE = /^%/m;

export type FastParse = { ok: true; value: unknown } | { ok: false };

/** The suite text read by js-yaml, or not ok: a YAML error, or a text `yaml` might read otherwise (see above). */
export function fastParse(text: string): FastParse {
  if (COMPLEX_KEY.test(text) || NULL_KEY.test(text) || DIRECTIVE.test(text)) return { ok: false };
  try {
    return { ok: true, value: load(text, { schema: CORE_1_2 }) };
  } catch {
    return { ok: false };
  }
}
