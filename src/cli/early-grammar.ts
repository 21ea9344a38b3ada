/**
 * The bash grammar, loaded as soon as the suite has loaded. Every session
 * awaits it before its set-up (suites/run-task.ts); its WebAssembly compiles
 * on V8's background threads, so started here it compiles while this thread
 * loads the harness and the SDK for the first session, instead of being
 * waited for at the first task (a 1-task run's main thread sat idle ~13 ms
 * there). Not before the suite loads: a run refused for a bad flag or suite
 * would then wait for the grammar before exiting (+0.1 s). Only for a run
 * whose sessions run on this thread: a worker pool's threads load their own.
 * A failure is left to the session's own load, which reports it as always.
 */
export function loadGrammarEarly(): void {
  void import('../harness/permissions/shell-parser.js').then((parser) => parser.loadShellParser()).catch(() => undefined);
}
