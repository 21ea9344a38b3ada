// Bundles the CLI and its worker thread (after tsc): dist/cli/bin.js becomes a
// shim that loads dist/cli/bundle/bin.cjs, and dist/cli/bundle/task-thread.js
// one that loads task-thread.cjs. Node 20 loads ESM file by file; `faultline
// run` loads about 850 (the harness, both provider SDKs, zod) on the main
// thread and again on each worker thread, which cost more CPU than a small run
// itself (measured: a one-task run 0.75 s of CPU unbundled, 0.33 s bundled).
// The library entry points (dist/index.js and the subpaths) stay as tsc wrote
// them.
//
// The chunks are CommonJS so that src/cli/bundle-loader.ts can compile them
// with V8's code cache (Node 20 has none for ES modules); scripts/code-cache.mjs
// writes the cache after this script. CommonJS has no top-level await, which
// the bundled modules therefore do not use.
//
// Each bundled module still sees its own dist/ location as import.meta.url, so
// the files it finds beside itself (the SQL reports, the bash grammar, the
// shipped suites, package.json) resolve as before (rolldown turns
// import.meta.url into the chunk's own file URL in CommonJS). One exception:
// suites/thread-start.js starts the worker from './task-thread.js' beside
// itself, which in the bundle must be the worker entry's shim.
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { build } from 'rolldown';

const dist = resolve('dist');
const out = resolve(dist, 'cli/bundle');
const BUNDLE_URL_KEPT = new Set([resolve(dist, 'suites/thread-start.js')]);

/** Every import.meta.url in a dist/ module, as that module's own dist/ URL (computed from the bundle file, which sits in `out`). */
const ownUrls = {
  name: 'own-import-meta-url',
  transform(code, id) {
    if (!id.startsWith(dist + sep) || id.startsWith(out + sep) || BUNDLE_URL_KEPT.has(id) || !code.includes('import.meta.url')) return null;
    const rel = relative(out, id).split(sep).join('/');
    return { code: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), map: null };
  },
};

/**
 * Every import() rolldown leaves in a chunk (of an external package, a builtin, a user's module by its URL) becomes
 * a call of `dynImp`, which src/cli/bundle-loader.ts passes each chunk: Node 20 loses a script's dynamic import
 * callback when the script comes from V8's code cache (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING). The name is as long
 * as `import`, so no column moves and the source maps stay right.
 */
const DYNAMIC_IMPORT = 'dynImp';
const dynamicImports = {
  name: 'dynamic-import-via-loader',
  renderChunk(code, chunk) {
    if (new RegExp(`\\b${DYNAMIC_IMPORT}\\b`).test(code)) throw new Error(`bundle-cli: ${chunk.fileName} already names ${DYNAMIC_IMPORT}`);
    const starts = [];
    const visit = (node) => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (node === null || typeof node !== 'object') return;
      if (node.type === 'ImportExpression') starts.push(node.start);
      for (const value of Object.values(node)) if (value !== null && typeof value === 'object') visit(value);
    };
    visit(this.parse(code));
    if (starts.length === 0) return null;
    let out = '';
    let at = 0;
    for (const start of starts.sort((a, b) => a - b)) {
      if (code.slice(start, start + 6) !== 'import') throw new Error(`bundle-cli: ${chunk.fileName}: no import() at ${start}`);
      out += code.slice(at, start) + DYNAMIC_IMPORT;
      at = start + 6;
    }
    return { code: out + code.slice(at), map: null };
  },
};

/**
 * rolldown exports a CommonJS chunk's bindings as getters (`Object.defineProperty(exports, name, { get })`), for
 * live bindings. Every call from one chunk into another then goes through a getter: with them the code-cached
 * bundle ran the bench's 2,000 tasks 3-5% slower than the ES module bundle, with plain properties 8% faster
 * (bench/throughput.ts's tasks, alternated runs on a shared machine). A binding declared `const`, `function` or
 * `class` at the chunk's top level never changes after the chunk ran, so it is exported as a plain property
 * instead; any other keeps its getter.
 */
const dataExports = {
  name: 'data-exports',
  renderChunk(code) {
    const program = this.parse(code);
    const fixed = new Set();
    for (const node of program.body) {
      if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) fixed.add(node.id.name);
      if (node.type === 'VariableDeclaration' && node.kind === 'const') for (const d of node.declarations) if (d.id.type === 'Identifier') fixed.add(d.id.name);
    }
    const edits = [];
    for (const node of program.body) {
      const exported = getterExport(node);
      if (exported !== null && fixed.has(exported.local)) edits.push({ start: node.start, end: node.end, text: `exports.${exported.name} = ${exported.local};` });
    }
    if (edits.length === 0) return null;
    let out = '';
    let at = 0;
    for (const edit of edits) {
      out += code.slice(at, edit.start) + edit.text;
      at = edit.end;
    }
    return { code: out + code.slice(at), map: null };
  },
};

/** `Object.defineProperty(exports, "name", { enumerable: true, get: function() { return local; } })`: name and local, else null. */
function getterExport(node) {
  const call = node.type === 'ExpressionStatement' ? node.expression : null;
  if (call?.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || call.callee.object.name !== 'Object' || call.callee.property.name !== 'defineProperty') return null;
  const [target, key, descriptor] = call.arguments;
  if (target?.type !== 'Identifier' || target.name !== 'exports' || key?.type !== 'Literal' || typeof key.value !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(key.value)) return null;
  if (descriptor?.type !== 'ObjectExpression' || descriptor.properties.length !== 2) return null;
  const get = descriptor.properties.find((p) => p.key?.name === 'get')?.value;
  const body = get?.type === 'FunctionExpression' ? get.body.body : null;
  if (body?.length !== 1 || body[0].type !== 'ReturnStatement' || body[0].argument?.type !== 'Identifier') return null;
  return { name: key.value, local: body[0].argument.name };
}

// Native code, a .wasm found beside its module, a package that loads its own dependency with createRequire (tinyglobby:
// picomatch, which npm may nest under it), and the optional peers (absent unless the user installed them).
const EXTERNAL = [/^node:/, /^@duckdb\//, 'web-tree-sitter', 'tinyglobby', '@google/genai', 'msw', /^msw\//, 'vitest', /^vitest\//, 'vega', 'vega-lite', 'tsx', /^tsx\//];

rmSync(out, { recursive: true, force: true });
await build({
  input: { bin: resolve(dist, 'cli/bin.js'), 'task-thread': resolve(dist, 'suites/task-thread.js') },
  platform: 'node',
  external: EXTERNAL,
  plugins: [ownUrls, dynamicImports, dataExports],
  logLevel: 'warn',
  // No JSDoc or annotation comments (legal ones stay): a chunk without a code cache that V8 takes is compiled from
  // scratch, and its pre-parser scans every byte, comments included; the SDKs are mostly doc comments (the Anthropic chunk
  // 1.16 -> 0.76 MB; importing the mock + Anthropic adapter ~12% less CPU). Code, names and lines are as before.
  // Source maps name each bundled function's own module for profiles and stack traces (`--enable-source-maps`,
  // bench/throughput/profile-summary.ts); they are left out of the package (package.json `files`).
  // External dynamic imports stay import() (rolldown's dynamicImportInCjs default): an ES-module-only package loads.
  output: { dir: out, format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs', keepNames: true, sourcemap: true, comments: { legal: true, annotation: false, jsdoc: false } },
});
// A package required at run time resolves from dist/cli/bundle/, not from where npm put it (possibly nested under
// a package, in the version it asked for): only the external ones above may be. ajv's generated code names its
// runtime helpers in strings that look like require calls.
const isExternal = (name) => isBuiltin(name) || /^ajv(-formats)?\//.test(name) || EXTERNAL.some((e) => (typeof e === 'string' ? e === name : e.test(name)));
const stray = readdirSync(out)
  .filter((f) => f.endsWith('.cjs'))
  .flatMap((f) => [...readFileSync(resolve(out, f), 'utf8').matchAll(/\brequire\("([^"./][^"]*)"\)/g)].map((m) => m[1]).filter((name) => !isExternal(name)).map((name) => `${f}: require("${name}")`));
if (stray.length > 0) throw new Error(`bundle-cli: bundled code requires packages at run time; make them external:\n${stray.join('\n')}`);
/** An ES module shim that runs a bundle chunk through the code-cache loader (src/cli/bundle-loader.ts). */
const shim = (loader, chunk, note) =>
  `${note}import { fileURLToPath } from 'node:url';\nimport { loadBundleChunk } from '${loader}';\n\nloadBundleChunk(fileURLToPath(new URL('${chunk}', import.meta.url)));\n`;
writeFileSync(resolve(dist, 'cli/bin.js'), shim('./bundle-loader.js', './bundle/bin.cjs', '#!/usr/bin/env node\n// The bundled CLI (scripts/bundle-cli.mjs says why).\n'));
chmodSync(resolve(dist, 'cli/bin.js'), 0o755);
writeFileSync(resolve(out, 'task-thread.js'), shim('../bundle-loader.js', './task-thread.cjs', '// The worker thread of `faultline run --workers` (suites/thread-start.ts starts it).\n'));
