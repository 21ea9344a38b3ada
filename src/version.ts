import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** The package version, read from package.json (one source). */
export const FAULTLINE_VERSION: string = (require('../package.json') as { version: string }).version;
