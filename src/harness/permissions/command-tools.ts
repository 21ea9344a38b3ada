/**
 * npm and docker: read-only only for the sub-commands that list or show
 * (npm reads the project's .npmrc, but none of these runs a script); any
 * other sub-command runs code whose file effects are judged as opaque.
 */
import type { ShellWord } from './shell-words.js';
import type { Draft } from './command-draft.js';
import { opaque } from './command-opaque.js';
import { firstUnsafe, parseArgs } from './option-parse.js';
import { DOCKER_TABLE, NPM_READ_ONLY, NPM_TABLE } from './specs-tools.js';

export function npm(args: readonly ShellWord[], d: Draft): void {
  const sub = args[0]?.value ?? null;
  const parsed = parseArgs('npm', NPM_TABLE, args.slice(1));
  const rest = parsed.ok ? parsed.operands.map((o) => o.value) : [];
  const bad = !parsed.ok ? parsed.reason : firstUnsafe('npm', parsed);
  if (sub === '--version' || sub === '-v') {
    if (args.length !== 1) d.notReadOnly ??= '`npm --version` with more arguments';
    return;
  }
  const readOnly =
    sub !== null &&
    (NPM_READ_ONLY.has(sub) ||
      ((sub === 'config' || sub === 'c') && (rest[0] === 'get' || rest[0] === 'list' || rest[0] === 'ls')) ||
      (sub === 'pkg' && rest[0] === 'get') ||
      (sub === 'audit' && rest.length === 0) ||
      (sub === 'version' && rest.length === 0));
  if (!readOnly) {
    d.notReadOnly ??= `\`npm ${sub ?? args[0]?.text ?? ''}\` is not a read-only npm command`;
    opaque('npm', args.slice(1), d);
  } else if (bad) d.notReadOnly ??= bad;
}

const DOCKER_READ_ONLY = new Set(['ps', 'images', 'inspect', 'logs', 'version', 'info', 'top', 'port', 'diff', 'history', 'search']);
const DOCKER_GROUPS: Readonly<Record<string, readonly string[]>> = {
  image: ['ls', 'list', 'inspect', 'history'], container: ['ls', 'list', 'ps', 'inspect', 'logs', 'top', 'port', 'diff'],
  network: ['ls', 'list', 'inspect'], volume: ['ls', 'list', 'inspect'], system: ['df', 'info'], context: ['ls', 'list', 'inspect', 'show'],
};

export function docker(args: readonly ShellWord[], d: Draft): void {
  const sub = args[0]?.value ?? null;
  if (sub === '--version' || sub === '-v') {
    if (args.length !== 1) d.notReadOnly ??= '`docker --version` with more arguments';
    return;
  }
  const group = sub !== null && Object.hasOwn(DOCKER_GROUPS, sub) ? DOCKER_GROUPS[sub] : undefined;
  const skip = group ? 2 : 1;
  const ok = sub !== null && (DOCKER_READ_ONLY.has(sub) || sub === 'stats' || (group !== undefined && group.includes(args[1]?.value ?? '')));
  if (!ok) {
    d.notReadOnly ??= `\`docker ${sub ?? ''}\` is not a read-only docker command`;
    opaque('docker', args.slice(1), d);
    return;
  }
  const parsed = parseArgs('docker', DOCKER_TABLE, args.slice(skip));
  if (!parsed.ok) d.notReadOnly ??= parsed.reason;
  else if (sub === 'stats' && !parsed.options.some((o) => o.spec.name === '--no-stream')) d.notReadOnly ??= '`docker stats` without --no-stream runs forever';
  else if (sub === 'logs' && parsed.options.some((o) => o.written === '-f' || o.written === '--follow')) d.notReadOnly ??= '`docker logs -f` runs forever';
}
