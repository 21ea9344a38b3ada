// Copies non-TypeScript assets (SQL report files) next to the compiled code.
import { chmodSync, cpSync, existsSync } from 'node:fs';

if (existsSync('src/analysis/sql')) cpSync('src/analysis/sql', 'dist/analysis/sql', { recursive: true });

// tsc does not keep the executable bit; npx and the bin link need it.
chmodSync('dist/cli/bin.js', 0o755);
