// A hook module with bugs, for the "a hook that throws or hangs never crashes the harness" scenario.
export const timeoutMs = 100;
export function preToolUse(event) {
  if (event.tool === 'read') throw new Error('hook bug: cannot read property of undefined');
  if (event.tool === 'grep') return new Promise(() => {}); // never settles: times out
  return undefined;
}
export function postToolUse() {
  throw new Error('post hook bug');
}
