/**
 * Whether terminal output is coloured, by the conventions users set in CI:
 * NO_COLOR (no-color.org: set and not empty) turns colour off, whatever else
 * is set (as picocolors reads it); FORCE_COLOR turns it on without a TTY
 * (CI logs render ANSI), except FORCE_COLOR=0 or false, which turns it off
 * (Node's and chalk's reading); otherwise colour on a TTY whose TERM is not dumb.
 */
export function wantsColor(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return isTTY && env.TERM !== 'dumb';
}
