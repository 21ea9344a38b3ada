/**
 * `defineDefense()`: checks a defense declaration once, where it is written,
 * so a misspelt action or a name that is not a label fails with a message
 * instead of showing up later as a defense that never fires.
 */
import { z } from 'zod';
import { DefenseAction, DefenseName } from '../../events/labels.js';
import type { HookDefense } from './types.js';

const Declaration = z.object({
  name: DefenseName,
  guards: z.string().min(1, 'say what it guards against'),
  source: z.string().min(1, 'say where the rule comes from (a link into docs/harness-rules.md, a public source)'),
  defaultOn: z.boolean(),
  action: DefenseAction,
  judges: z
    .strictObject({ tools: z.array(z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'a tool name')).min(1).optional(), successesOnly: z.boolean().optional() })
    .optional(),
  session: z.custom<HookDefense['session']>((v) => typeof v === 'function', 'session must be a function returning the hooks for one session'),
});

export class DefenseDefinitionError extends Error {
  readonly code = 'DEFENSE_DEFINITION';
}

export function defineDefense<T extends HookDefense>(defense: T): T {
  const parsed = Declaration.safeParse(defense);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(defense)'}: ${i.message}`).join('; ');
    const name = typeof (defense as { name?: unknown })?.name === 'string' ? ` "${(defense as { name: string }).name}"` : '';
    throw new DefenseDefinitionError(`defense${name} is not valid: ${problems}`);
  }
  return defense;
}
