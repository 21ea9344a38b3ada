// Bundles the CLI and its worker thread (after tsc): dist/cli/bin.js becomes a
// two-line shim that imports dist/cli/bundle/bin.js. Node 20 loads ESM file by
// file; `faultline run` loads about 850 (the harness, both provider SDKs, zod)
// on the main thread and again on each worker thread, which cost more CPU than
// a small run itself (measured: a one-task run 0.75 s of CPU unbundled, 0.33 s
// bundled). The library entry points (dist/index.js and the subpaths) stay as
// tsc wrote them.
//
// Each bundled module still sees its own dist/ location as import.meta.url, so
// the files it finds beside itself (the SQL reports, the bash grammar, the
// shipped suites, package.json) resolve as before. One exception:
// suites/thread-pool.js starts its worker from './task-thread.js' beside
// itself, which in the bundle must be the bundled worker entry.
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { build } from 'rolldown';

const dist = resolve('dist');
const out = resolve(dist, 'cli/bundle');
const BUNDLE_URL_KEPT = new Set([resolve(dist, 'suites/thread-pool.js')]);

/** Every import.meta.url in a dist/ module, as that module's own dist/ URL (computed from the bundle file, which sits in `out`). */
const ownUrls = {
  name: 'own-import-meta-url',
  transform(code, id) {
    if (!id.startsWith(dist + sep) || id.startsWith(out + sep) || BUNDLE_URL_KEPT.has(id) || !code.includes('import.meta.url')) return null;
    const rel = relative(out, id).split(sep).join('/');
    return { code: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), map: null };
  },
};

rmSync(out, { recursive: true, force: true });
await build({
  input: { bin: resolve(dist, 'cli/bin.js'), 'task-thread': resolve(dist, 'suites/task-thread.js') },
  platform: 'node',
  // Native code, a .wasm found beside its module, a package that loads its own dependency with createRequire (tinyglobby:
  // picomatch, which npm may nest under it), and the optional peers (absent unless the user installed them).
  external: [/^node:/, /^@duckdb\//, 'web-tree-sitter', 'tinyglobby', '@google/genai', 'msw', /^msw\//, 'vitest', /^vitest\//, 'vega', 'vega-lite', 'tsx', /^tsx\//],
  plugins: [ownUrls],
  logLevel: 'warn',
  // No JSDoc or annotation comments (legal ones stay): Node 20 compiles each ESM file from scratch (no compile cache),
  // and its pre-parser scans every byte, comments included; the SDKs are mostly doc comments (the Anthropic chunk
  // 1.16 -> 0.76 MB; importing the mock + Anthropic adapter ~12% less CPU). Code, names and lines are as before.
  // Source maps name each bundled function's own module for profiles and stack traces (`--enable-source-maps`,
  // bench/throughput/profile-summary.ts); they are left out of the package (package.json `files`).
  output: { dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', keepNames: true, sourcemap: true, comments: { legal: true, annotation: false, jsdoc: false } },
});
// A bundled package that require()s another at run time would resolve it from dist/cli/bundle/, not from where npm
// put it (possibly nested under the package, in the version it asked for): such a package must be external above.
const stray = readdirSync(out).flatMap((f) => [...readFileSync(resolve(out, f), 'utf8').matchAll(/__require\("([^"]+)"\)/g)].map((m) => m[1]).filter((name) => !isBuiltin(name)).map((name) => `${f}: require("${name}")`));
if (stray.length > 0) throw new Error(`bundle-cli: bundled code requires packages at run time; make them external:\n${stray.join('\n')}`);
writeFileSync(resolve(dist, 'cli/bin.js'), `#!/usr/bin/env node\n// The bundled CLI (scripts/bundle-cli.mjs says why).\nimport './bundle/bin.js';\n`);
chmodSync(resolve(dist, 'cli/bin.js'), 0o755);
