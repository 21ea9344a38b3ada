// Copies non-TypeScript assets (SQL report files) next to the compiled code.
import { cpSync, existsSync } from 'node:fs';

if (existsSync('src/analysis/sql')) cpSync('src/analysis/sql', 'dist/analysis/sql', { recursive: true });
