/**
 * `find` as a command model: its start paths read (or written by -delete),
 * reference files read, -fprint files written, and each -exec/-execdir
 * command judged as if run on the start paths (`{}` stands for each file
 * found), so `find OUT -exec rm {} \\;` is a write outside the workspace and
 * its refusal names `-exec rm`.
 */
import type { ShellWord } from './shell-words.js';
import type { TreeRead } from './types.js';
import { SHELLS, baseName, shellCScript } from './command-words.js';
import { access, type CommandJudgement, type Draft } from './command-draft.js';
import { parseFind } from './specs-find.js';
import { isRuleOn } from './rule-switches.js';

const MAX_NESTING = 4;

/** Judges one command line; passed in by command-model.ts (find -exec judges its command as any other, without importing the dispatcher). */
export type JudgeCommand = (cmd: { argv: readonly ShellWord[] }, depth: number) => CommandJudgement;

export function find(args: readonly ShellWord[], d: Draft, depth: number, judgeCommand: JudgeCommand): void {
  const f = parseFind(args);
  for (const s of f.starts) d.accesses.push(access(s, f.deletes ? 'write' : 'read', f.deletes ? '`find -delete`' : '`find`'));
  for (const r of f.reads) d.accesses.push(access(r, 'read', '`find`'));
  for (const w of f.writes) d.accesses.push(access(w, 'write', '`find -fprint`'));
  if (f.error) {
    d.notReadOnly ??= f.error;
    return;
  }
  if (f.deletes) d.notReadOnly ??= '`find -delete` deletes files';
  if (f.writes.length > 0) d.notReadOnly ??= '`find -fprint`/`-fls` writes a file';
  for (const [index, e] of f.execs.entries()) {
    const inner = baseName(e.argv[0]) ?? e.argv[0]?.text ?? '?';
    const via = `\`find ${e.primary} ${inner}\``;
    if (depth >= MAX_NESTING) {
      d.notReadOnly ??= `${via} nests too deeply to judge`;
      continue;
    }
    // `{}` is each entry found under the start paths: judged as the start path read as a tree whose
    // entries (symlinks too, when the expression lets them through) are handed to the command.
    const tree: TreeRead = { mode: f.follow ? 'follow' : 'links', ...(f.tree ? { find: { tree: f.tree, exec: index, follow: f.follow } } : {}) };
    for (const start of f.starts) {
      const argv = e.argv.map((w) => (w.value !== null && w.value.includes('{}') ? { text: w.text, value: start.value === null ? null : w.value.replaceAll('{}', start.value), glob: start.glob, pattern: w.value === '{}' ? start.pattern : undefined, tree } : w));
      const j = judgeCommand({ argv }, depth + 1);
      if (j.notReadOnly) d.notReadOnly ??= `${via}: ${j.notReadOnly}`;
      // -execdir runs CMD in the directory of each file found: a directory only known when find runs.
      const inFoundDir = (e.primary === '-execdir' || e.primary === '-okdir') && isRuleOn('working_dirs');
      if (inFoundDir) d.cwds.push(null);
      else if (isRuleOn('working_dirs')) d.cwds.push(...j.cwds);
      if (isRuleOn('git_repository')) d.gitDirs.push(...(inFoundDir ? j.gitDirs.map(() => null) : j.gitDirs));
      d.flags.push(...j.flags);
      d.scripts.push(...j.scripts);
      d.linkTargets.push(...j.linkTargets);
      d.unseenCode ??= j.unseenCode === null ? null : `${via}: ${j.unseenCode}`;
      const shell = baseName(argv[0]);
      if (shell !== null && SHELLS.has(shell)) {
        const script = shellCScript(argv.slice(1));
        if (script !== undefined) d.scripts.push(script);
      }
      for (const a of j.accesses) d.accesses.push({ ...a, via });
    }
  }
}
