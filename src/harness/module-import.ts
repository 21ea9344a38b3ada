/**
 * Suite-named modules (hooks, defenses) are imported once per resolved path:
 * every session of a run shares the module, and a failed import is forgotten
 * so a fixed file can be tried again.
 */
import { isAbsolute, resolve } from 'node:path';
import { resolveFaultlineToSelf } from './self-resolve.js';

export function importOncePerPath<T>(load: (fullPath: string) => Promise<T>): (modulePath: string, baseDir: string) => Promise<T> {
  const cache = new Map<string, Promise<T>>();
  return (modulePath, baseDir) => {
    const full = isAbsolute(modulePath) ? modulePath : resolve(baseDir, modulePath);
    let loading = cache.get(full);
    if (!loading) {
      // The module may `import 'faultline'` from a folder where it is not installed.
      resolveFaultlineToSelf();
      loading = load(full);
      cache.set(full, loading);
      loading.catch(() => cache.delete(full));
    }
    return loading;
  };
}
