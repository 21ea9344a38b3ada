/**
 * Per test file: load the bash grammar before any test, as runAgent and a
 * suite's task do, so unit tests that call the shell analysis directly see
 * the parser (it is loaded on demand, not at import: see shell-parser.ts).
 */
import { loadShellParser } from '../../src/harness/permissions/shell-parser.js';

await loadShellParser();
