/**
 * The keys a suite schema allows at a path, read from the zod schema itself
 * (for "unknown key ... (did you mean ...?)"). Where a union allows several
 * shapes (a script turn, a text match), their keys are pooled.
 */
import { z } from 'zod';

export function allowedKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  for (const node of at([schema], path)) if (node instanceof z.ZodObject) for (const key of Object.keys(node.shape)) keys.add(key);
  return [...keys];
}

/** The object shapes a value at `path` may take (every branch of a union there, unwrapped). */
export function objectsAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodObject[] {
  return at([schema], path).filter((node): node is z.ZodObject => node instanceof z.ZodObject);
}

function at(nodes: z.ZodType[], path: readonly PropertyKey[]): z.ZodType[] {
  const here = nodes.flatMap(unwrap);
  if (path.length === 0) return here;
  const [step, ...rest] = path;
  const next = here.flatMap((node): z.ZodType[] => {
    if (node instanceof z.ZodObject && typeof step === 'string') {
      const child = (node.shape as Record<string, z.ZodType>)[step];
      return child ? [child] : [];
    }
    if (node instanceof z.ZodArray && typeof step === 'number') return [node.element as z.ZodType];
    if (node instanceof z.ZodRecord) return [node.valueType as z.ZodType];
    return [];
  });
  return next.length === 0 ? [] : at(next, rest);
}

/** Optional, nullable, default, pipes and refinements, and the branches of a union. */
function unwrap(node: z.ZodType): z.ZodType[] {
  if (node instanceof z.ZodOptional || node instanceof z.ZodNullable || node instanceof z.ZodDefault) return unwrap(node.unwrap() as z.ZodType);
  if (node instanceof z.ZodPipe) return unwrap(node.in as z.ZodType);
  if (node instanceof z.ZodUnion) return (node.options as z.ZodType[]).flatMap(unwrap);
  return [node];
}
