// Writes V8's code cache beside each chunk of the bundled CLI (after scripts/bundle-cli.mjs), for
// src/cli/bundle-loader.ts to compile the chunks from: it runs the demo suite once, in this process, on one thread,
// and saves the bytecode of every function that run compiled (`<chunk>.cjs.v8cache`). A function the run never
// called is compiled on its first call, as without a cache. A failed warm-up run leaves what it compiled; no cache
// at all only makes the CLI start slower, so a problem here is a warning, not a failed build.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadBundleChunk, writeCodeCache } from '../dist/cli/bundle-loader.js';

const tmp = mkdtempSync(join(tmpdir(), 'faultline-code-cache-'));
const bin = resolve('dist/cli/bundle/bin.cjs');
// The CLI prints the run; the build shows only what this script says.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = () => true;
process.on('exit', () => {
  process.stdout.write = write;
  try {
    const written = writeCodeCache();
    console.log(`code-cache: ${written.length} chunks cached (bytecode of the functions a run of suites/demo called)`);
  } catch (error) {
    console.warn(`code-cache: no code cache written: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  // The demo run's own exit code says nothing about the build; a bundle that does not load fails it.
  if (loaded) process.exitCode = 0;
});
process.argv = [process.argv[0], bin, 'run', 'suites/demo', '--workers', '1', '--out', join(tmp, 'trace.jsonl')];
let loaded = false;
loadBundleChunk(bin);
loaded = true;
