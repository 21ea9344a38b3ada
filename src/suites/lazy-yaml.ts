/**
 * The `yaml` package, loaded on first use. It costs ~35 ms of CPU to load and
 * a suite that reads cleanly never needs it (js-yaml reads it; `yaml` is only
 * for the `file:line:col` of a message), so a plain run does not pay for it.
 * `require`, not `import()`: the loader is synchronous, and `yaml` ships
 * CommonJS for Node.
 */
import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');

let loaded: Yaml | undefined;

export function yaml(): Yaml {
  return (loaded ??= createRequire(import.meta.url)('yaml') as Yaml);
}
