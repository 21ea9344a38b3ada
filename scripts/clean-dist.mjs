// Empties dist/ before a build, so a file whose source is gone (or a source map
// from an older setting) is not left behind to be packed.
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
