/** The fault scenarios and controls shipped with faultline (the package's suites/ directory). */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function shippedSuitePaths(): string[] {
  // src/suites/verify/ and dist/suites/verify/ are both three levels below the package root.
  const root = fileURLToPath(new URL('../../../suites/', import.meta.url));
  return ['faults', 'controls'].map((dir) => `${root}${dir}`).filter((p) => existsSync(p));
}
