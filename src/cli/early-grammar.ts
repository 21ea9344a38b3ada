/**
 * The bash grammar, loaded while the suite is read. Every session awaits it
 * before its set-up (suites/run-task.ts); its WebAssembly compiles on V8's
 * background threads, so started before the synchronous suite load it is
 * ready by the first task instead of waited for there (a 1-task run's main
 * thread sat idle ~10 ms at its first task). Only for a run whose sessions
 * run on this thread: a worker pool's threads load their own. A failure is
 * left to the session's own load, which reports it as it always did.
 */
export function loadGrammarEarly(): void {
  void import('../harness/permissions/shell-parser.js').then((parser) => parser.loadShellParser()).catch(() => undefined);
}
