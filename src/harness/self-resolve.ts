/**
 * A user's defense or hook module lives in the user's own folder, where
 * `faultline` may not be installed (a global install, npx, a CI cache) or may
 * be another copy. `import 'faultline'` in such a module must reach the
 * faultline that is running, so its defineDefense and types are the ones the
 * harness checks against. A module resolution hook (node:module register)
 * sends every `faultline` and `faultline/<subpath>` specifier to this
 * package: it resolves the specifier as if imported from this package's own
 * package.json, which Node answers through the package's `exports` (a package
 * may import itself by name).
 */
import { register } from 'node:module';

/** Runs in Node's hooks thread; plain JavaScript, so it needs no build or loader of its own. */
const HOOK = `
let self;
export function initialize(data) { self = data.packageJson; }
export async function resolve(specifier, context, next) {
  if (specifier === 'faultline' || specifier.startsWith('faultline/')) return next(specifier, { ...context, parentURL: self });
  return next(specifier, context);
}
`;

let registered = false;

/** Installs the hook once per process; safe to call before every module import. */
export function resolveFaultlineToSelf(): void {
  if (registered) return;
  registered = true;
  // src/harness/ and dist/harness/ both sit two levels below the package root.
  const packageJson = new URL('../../package.json', import.meta.url).href;
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`, { data: { packageJson } });
}
