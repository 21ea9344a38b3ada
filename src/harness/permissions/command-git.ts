/**
 * git, judged by its global options, its sub-command and that sub-command's
 * option table (specs-git.ts). Beyond options, git runs programs named by its
 * configuration, so the config sources count too: `-c`/`--config-env` with a
 * key from the closed CODE_CONFIG_KEYS table is flagged in every mode, writes
 * of such a key are flagged, `git config` writes are path-judged (the repo's
 * `.git/config` is protected, `--global` is outside the workspace), and the
 * repository git will discover is checked by the chain (git-repo.ts).
 */
import type { ShellWord } from './shell-words.js';
import { RUNS_VALUE, access, type Draft } from './command-draft.js';
import { opaque } from './command-opaque.js';
import { firstUnsafe, parseArgs } from './option-parse.js';
import { GIT_BRANCH, GIT_CODE_OPTIONS, GIT_CONFIG, GIT_CONFIG_READS, GIT_GLOBAL, GIT_RUNS_OPERANDS, GIT_TABLES, GIT_TAG, isCodeConfigKey } from './specs-git.js';
import { isRuleOn } from './rule-switches.js';

export function judgeGit(args: readonly ShellWord[], d: Draft): void {
  const global = parseArgs('git', GIT_GLOBAL, args);
  if (!global.ok) {
    d.notReadOnly ??= global.reason;
    d.gitDirs.push('.');
    opaque('git', args, d); // global options it cannot parse: what runs is unknown
    return;
  }
  let dir: string | null = '.';
  for (const o of global.options) {
    if (o.spec.name === '-C') {
      dir = o.value?.glob && isRuleOn('working_dirs') ? null : (o.value?.value ?? null);
      d.cwds.push(dir);
      if (o.value) d.accesses.push(access(o.value, 'read', '`git -C`'));
    }
    if ((o.spec.name === '-c' || o.spec.name === '--config-env') && isRuleOn('config_sources')) {
      const key = (o.value?.value ?? '').split('=')[0] ?? '';
      if (o.value?.value == null || isCodeConfigKey(key)) d.flags.push({ construct: 'env_tampering', detail: `git ${o.spec.name} ${key || '<dynamic>'}` });
    }
  }
  d.gitDirs.push(dir);
  const globalIssue = firstUnsafe('git', global);
  if (globalIssue) d.notReadOnly ??= globalIssue;
  const subWord = global.operands[0];
  const sub = subWord?.value ?? null;
  const rest = global.rest;
  if (subWord === undefined) {
    if (!global.options.every((o) => o.spec.name === '--version' || o.spec.name === '--help' || o.spec.name === '-C')) d.notReadOnly ??= '`git` without a sub-command';
    return;
  }
  if (sub === null) {
    d.notReadOnly ??= '`git` with a sub-command computed at run time';
    opaque('git', rest, d); // a sub-command computed at run time: what runs is unknown
    return;
  }
  const via = `\`git ${sub}\``;
  const runs = isRuleOn('option_tables') ? gitRunsCode(sub, rest) : null;
  if (runs) d.flags.push({ construct: 'eval_like', detail: runs });
  const table = Object.hasOwn(GIT_TABLES, sub) ? GIT_TABLES[sub] : undefined;
  if (table) {
    const parsed = parseArgs(`git ${sub}`, table, rest);
    if (!parsed.ok) {
      d.notReadOnly ??= parsed.reason;
      opaque(`git ${sub}`, rest, d, false);
      return;
    }
    if (isRuleOn('option_tables')) {
      d.notReadOnly ??= firstUnsafe(`git ${sub}`, parsed);
      for (const o of parsed.options) if (RUNS_VALUE.has(`git ${sub} ${o.spec.name}`)) d.flags.push({ construct: 'eval_like', detail: `git ${sub} ${o.spec.name} runs its value as a command` });
    }
    for (const o of parsed.options) {
      if (!o.value) continue;
      if (o.spec.effect === 'read') d.accesses.push(access(o.value, 'read', `\`git ${sub} ${o.spec.name}\``));
      if (o.spec.effect === 'write') d.accesses.push(access(o.value, 'write', `\`git ${sub} ${o.spec.name}\``));
      // `-L 1,5:FILE` names a file after the last colon.
      if (o.spec.name === '-L' && o.value.value !== null) d.accesses.push({ path: o.value.value.slice(o.value.value.lastIndexOf(':') + 1), access: 'read', via });
    }
    // Revisions and pathspecs alike: any operand may be a file (an outside path makes `git diff` compare it).
    for (const op of parsed.operands) d.accesses.push(access(op, 'read', via));
    return;
  }
  switch (sub) {
    case 'branch':
    case 'tag': {
      const parsed = parseArgs(`git ${sub}`, sub === 'branch' ? GIT_BRANCH : GIT_TAG, rest);
      if (!parsed.ok) d.notReadOnly ??= parsed.reason;
      else {
        d.notReadOnly ??= firstUnsafe(`git ${sub}`, parsed);
        const listing = parsed.options.some((o) => ['--list', '-l', '--contains', '--merged', '--no-merged', '--points-at', '--no-contains'].includes(o.spec.name));
        if (parsed.operands.length > 0 && !listing) d.notReadOnly ??= `\`git ${sub} NAME\` creates a ${sub}`;
      }
      return;
    }
    case 'remote': {
      const r = rest.map((w) => w.value);
      const ok = r.length === 0 || r.every((v) => v === '-v' || v === '--verbose') || (r[0] === 'get-url' && r.slice(1).every((v) => v !== null));
      if (!ok) d.notReadOnly ??= '`git remote` other than listing or get-url';
      return;
    }
    case 'config':
      return gitConfig(rest, d);
    case 'stash':
    case 'reflog':
    case 'worktree':
    case 'submodule': {
      const allowed: Readonly<Record<string, readonly (string | undefined)[]>> = { stash: ['list', 'show'], reflog: [undefined, 'show'], worktree: ['list'], submodule: ['status'] };
      const action = rest[0]?.value ?? undefined;
      if (!allowed[sub]!.includes(action)) {
        d.notReadOnly ??= `\`git ${sub} ${action ?? ''}\` changes the repository`.replace(' `', '`');
        opaque(`git ${sub}`, rest, d, false);
        return;
      }
      const table2 = sub === 'worktree' || sub === 'submodule' ? null : GIT_TABLES.log!;
      const tail = rest.slice(action === undefined ? 0 : 1);
      if (table2) {
        const parsed = parseArgs(`git ${sub}`, table2, tail);
        if (!parsed.ok) d.notReadOnly ??= parsed.reason;
        else d.notReadOnly ??= firstUnsafe(`git ${sub}`, parsed);
      } else if (!tail.every((w) => ['--porcelain', '-v', '--verbose', '-z', '--cached', '--recursive'].includes(w.value ?? '') || (w.value !== null && !w.value.startsWith('-')))) {
        d.notReadOnly ??= `\`git ${sub} ${action}\` with options faultline does not know to be safe`;
      }
      for (const w of tail) if (w.value === null || !w.value.startsWith('-')) d.accesses.push(access(w, 'read', via));
      return;
    }
    case 'help': {
      const ok = rest.every((w) => ['-a', '--all', '-g', '--guides', '-c', '--config', '--no-external-commands', '--no-aliases', '--verbose'].includes(w.value ?? '') || (w.value !== null && !w.value.startsWith('-')));
      if (!ok) d.notReadOnly ??= '`git help` with an option that opens a browser or viewer';
      return;
    }
    default:
      d.notReadOnly ??= `\`git ${sub}\` changes the repository or the work tree`;
      // Its operands may be written (checkout -- FILE, clone URL DIR, worktree add DIR...).
      for (const w of rest) if (w.value === null || !w.value.startsWith('-')) d.accesses.push(access(w, 'write', via));
      for (const w of rest) {
        const v = w.value;
        if (v !== null && v.startsWith('--') && v.includes('=')) d.accesses.push({ path: v.slice(v.indexOf('=') + 1), access: 'any', via });
        // A template directory's hooks are copied into .git/hooks (init, clone): a protected path.
        if ((sub === 'init' || sub === 'clone') && (v === null || v.startsWith('--template') || v.startsWith('--separate-git-dir'))) d.accesses.push({ path: '.git/hooks/', access: 'write', via: `\`git ${sub} --template\`` });
      }
  }
}

/** `git config`: reads judge `--file`; writes judge the file they write and flag code-running keys. */
function gitConfig(rest: readonly ShellWord[], d: Draft): void {
  // git 2.46+ spells the forms as sub-commands (`git config get KEY`); accept them as the option forms.
  const first = rest[0]?.value;
  const modern: Readonly<Record<string, string>> = { get: '--get', list: '--list', set: '', unset: '--unset' };
  const words = first !== undefined && first !== null && Object.hasOwn(modern, first) ? [...(modern[first] ? [{ text: modern[first], value: modern[first], glob: false }] : []), ...rest.slice(1)] : rest;
  const parsed = parseArgs('git config', GIT_CONFIG, words);
  if (!parsed.ok) {
    d.notReadOnly ??= parsed.reason;
    d.accesses.push({ path: '.git/config', access: 'write', via: '`git config`' });
    return;
  }
  const names = new Set(parsed.options.map((o) => o.spec.name));
  const file = parsed.options.find((o) => o.spec.name === '--file' || o.spec.name === '-f')?.value ?? null;
  const reads = [...names].some((n) => GIT_CONFIG_READS.has(n));
  const writes = parsed.options.some((o) => o.spec.effect === 'write') || (!reads && parsed.operands.length >= 2) || first === 'set';
  if (parsed.options.some((o) => o.spec.effect === 'unsafe')) d.notReadOnly ??= firstUnsafe('git config', parsed);
  if (!writes) {
    if (!reads && parsed.operands.length !== 1) d.notReadOnly ??= '`git config` without a reading form (--get, --list)';
    if (file) d.accesses.push(access(file, 'read', '`git config --file`'));
    return;
  }
  d.notReadOnly ??= '`git config` with a value writes the configuration';
  const key = parsed.operands[0]?.value ?? null;
  if (isRuleOn('config_sources') && (key === null || isCodeConfigKey(key))) {
    d.flags.push({ construct: 'env_tampering', detail: `git config ${key ?? '<dynamic key>'} (a key that makes git run a program)` });
  }
  const via = '`git config`';
  if (file) d.accesses.push(access(file, 'write', via));
  else if (names.has('--global')) d.accesses.push({ path: '~/.gitconfig', access: 'write', via });
  else if (names.has('--system')) d.accesses.push({ path: '/etc/gitconfig', access: 'write', via });
  else if (names.has('--worktree')) d.accesses.push({ path: '.git/config.worktree', access: 'write', via });
  else d.accesses.push({ path: '.git/config', access: 'write', via });
}

/**
 * What in a state-changing git call runs a program named in the call itself
 * (GIT_CODE_OPTIONS, GIT_RUNS_OPERANDS, `clone -c` with a code-running key),
 * or null. Such a call is code evaluated at run time, refused in every mode.
 */
function gitRunsCode(sub: string, rest: readonly ShellWord[]): string | null {
  const action = rest.find((w) => w.value === null || !w.value.startsWith('-'))?.value ?? '';
  if (GIT_RUNS_OPERANDS.has(sub) || GIT_RUNS_OPERANDS.has(`${sub} ${action}`)) return `git ${GIT_RUNS_OPERANDS.has(sub) ? sub : `${sub} ${action}`} runs a command`;
  const code = Object.hasOwn(GIT_CODE_OPTIONS, sub) ? GIT_CODE_OPTIONS[sub] : undefined;
  for (let i = 0; i < rest.length; i++) {
    const v = rest[i]?.value ?? null;
    if (v === '--') break;
    if (v === null) {
      if (code || sub === 'clone') return `git ${sub} with an argument computed at run time, which may be an option that runs a program`;
      break;
    }
    if (sub === 'clone' && (v === '-c' || v.startsWith('--config') || (/^-[a-zA-Z]*c/.test(v) && !v.startsWith('--')))) {
      const kv = v.startsWith('--config=') ? v.slice(9) : /^-[a-zA-Z]*c./.test(v) ? v.slice(v.indexOf('c') + 1) : (rest[i + 1]?.value ?? null);
      if (kv === null || isCodeConfigKey(kv.split('=')[0] ?? '')) return `git clone ${v} sets a configuration key that runs a program`;
    }
    if (!code) continue;
    if (v.startsWith('--') && v.length > 3) {
      const name = v.slice(2).split('=')[0] ?? '';
      if (code.long.some((l) => l.startsWith(name))) return `git ${sub} ${v.split('=')[0]} runs the program it names`;
    } else if (/^-[a-zA-Z]/.test(v) && [...code.short].some((c) => v.slice(1).split('').some((x) => x === c))) {
      return `git ${sub} ${v} runs the program it names`;
    }
  }
  return null;
}
