/**
 * What "instructions arriving inside a tool result" look like (docs/harness-rules.md#result-injection).
 * Deliberately narrow: ordinary imperative text in files ("run npm install,
 * ignore the peer-dependency warnings") must not match, so each rule needs
 * the parts that only an injection has: an override of the model's own
 * instructions, a forged harness/system frame, or a request to send secrets
 * somewhere.
 */

// The object must be the reader's own instructions: "ignore all previous instructions", "disregard your
// rules", "forget the above prompt" — a modifier right before the noun, at most one article between.
// "Disregard the previous version of these instructions" (a changelog) does not match.
const OVERRIDE =
  /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|every)\s+)?(?:(?:of\s+)?(?:the|your|my|these|those)\s+)?(?:previous|prior|above|earlier|preceding|original|system|your|all)\s+(?:(?:system|safety)\s+)?(?:instructions?|prompts?|rules|directives|guidelines|guardrails|messages)\b/i;
const NEW_ORDERS = /\b(?:your new (?:task|instructions?|role|goal) (?:is|are)|new (?:system )?instructions?\s*:|you are now (?:in )?(?:developer|admin|dan|jailbreak|unrestricted) mode)\b/i;
const FORGED_FRAME =
  /<\/?(?:system|system-reminder|system_prompt|instructions|tool_result|function_results|assistant)>|<\|im_(?:start|end)\|>|\[harness reminder from defense|^\s*#{0,3}\s*(?:SYSTEM|ADMIN) (?:OVERRIDE|MESSAGE|PROMPT)\s*:/im;
const SEND = /\b(?:send|post|upload|exfiltrate|forward|transmit|leak|paste)\b[^\n]{0,120}?(?:https?:\/\/|\bcurl\b|\bwget\b|\bnc\b|webhook)/i;
const SECRET = /(?:id_rsa|id_ed25519|\.ssh\/|\.aws\/credentials|\.env\b|api[_ -]?keys?|access[_ -]?tokens?|passwords?|private keys?|secrets?)/i;
/** Sentence breaks (an exfiltration request names the secret and the destination in one sentence); `.env` is no break. */
const SENTENCE_BREAK = /(?<=[.!?])\s+|\n/;

export type InjectionKind = 'override' | 'new_orders' | 'forged_frame' | 'exfiltration';

/** The first rule a text matches, or null. Scans at most the first 64 KB (an injection has to be read to work). */
export function findInjection(text: string): InjectionKind | null {
  const head = text.length > 65_536 ? text.slice(0, 65_536) : text;
  if (OVERRIDE.test(head)) return 'override';
  if (NEW_ORDERS.test(head)) return 'new_orders';
  if (FORGED_FRAME.test(head)) return 'forged_frame';
  for (const sentence of head.split(SENTENCE_BREAK)) if (SEND.test(sentence) && SECRET.test(sentence)) return 'exfiltration';
  return null;
}
