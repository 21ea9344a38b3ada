// Copies non-TypeScript assets next to the compiled code: the SQL report files,
// and the bash grammar's .wasm (the package ships this 1.3 MB file instead of
// depending on tree-sitter-bash, which installs 20 MB and a native build for it).
import { chmodSync, cpSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

if (existsSync('src/analysis/sql')) cpSync('src/analysis/sql', 'dist/analysis/sql', { recursive: true });

const require = createRequire(import.meta.url);
const wasm = require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
cpSync(wasm, 'dist/harness/permissions/tree-sitter-bash.wasm');
// MIT asks that its notice travel with the copy.
cpSync(join(dirname(wasm), 'LICENSE'), 'dist/harness/permissions/tree-sitter-bash.LICENSE');

// tsc does not keep the executable bit; npx and the bin link need it.
chmodSync('dist/cli/bin.js', 0o755);
