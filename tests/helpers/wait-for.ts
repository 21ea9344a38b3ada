/** Polls `check` every 20 ms until it holds; throws, naming `what`, after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
