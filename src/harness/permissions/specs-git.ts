/**
 * git's read-only sub-commands and their option tables (git 2.39). git's
 * parse-options accepts unique prefixes of long options, so each table lists
 * only real options of that sub-command and prefixes are resolved against it
 * (option-parse.ts). Unknown options make the call not read-only.
 *
 * Code-running options are `unsafe`: `--ext-diff`/`--textconv` run programs,
 * `-O`/`--open-files-in-pager` run a pager command, `--show-signature` runs
 * gpg (which reads ~/.gnupg), `--no-index` compares files anywhere. `--output`
 * writes a file. Operands (revisions and pathspecs alike) are judged as read
 * paths: `git diff /dev/null OUT` compares OUT outside the repository.
 */
import { optionTable, type EffectSpec, type OptionTable } from './option-parse.js';

const DIFF_SHORT = 'puszU::tB::M::C::Dl:S:G:O:RabwWI:';
const DIFF_LONG = [
  'patch no-patch unified= raw patch-with-raw indent-heuristic no-indent-heuristic minimal patience histogram anchored= diff-algorithm=',
  'stat? compact-summary numstat shortstat dirstat? cumulative dirstat-by-file? summary patch-with-stat name-only name-status submodule?',
  'color? no-color color-moved? no-color-moved color-moved-ws= no-color-moved-ws word-diff? word-diff-regex= color-words? no-renames',
  'rename-empty no-rename-empty check ws-error-highlight= full-index binary abbrev? no-abbrev break-rewrites? find-renames? find-copies?',
  'find-copies-harder irreversible-delete diff-filter= find-object= pickaxe-all pickaxe-regex skip-to= rotate-to= relative? no-relative',
  'text ignore-cr-at-eol ignore-space-at-eol ignore-space-change ignore-all-space ignore-blank-lines ignore-matching-lines= inter-hunk-context=',
  'function-context exit-code quiet no-ext-diff ext-diff textconv no-textconv ignore-submodules? src-prefix= dst-prefix= no-prefix',
  'default-prefix line-prefix= ita-invisible-in-index ita-visible-in-index output= output-indicator-new= output-indicator-old=',
  'output-indicator-context= stat-width= stat-name-width= stat-graph-width= stat-count= cc combined-all-paths',
].join(' ');
const DIFF_EFFECTS: Readonly<Record<string, EffectSpec>> = {
  '--output': 'write',
  '--ext-diff': ['unsafe', 'runs an external diff program'],
  '--textconv': ['unsafe', 'runs text-conversion programs'],
  '-O': 'read',
};

const REV_LONG = [
  'max-count= skip= since= after= until= before= since-as-filter= author= committer= grep-reflog= grep= all-match invert-grep',
  'regexp-ignore-case basic-regexp extended-regexp fixed-strings perl-regexp remove-empty merges no-merges min-parents= max-parents=',
  'no-min-parents no-max-parents first-parent exclude-first-parent-only not all branches? tags? remotes? glob= exclude= reflog',
  'alternate-refs single-worktree ignore-missing bisect cherry-mark cherry-pick left-only right-only cherry walk-reflogs merge boundary',
  'simplify-by-decoration show-pulls full-history dense sparse simplify-merges ancestry-path? date-order author-date-order topo-order',
  'reverse no-walk? do-walk format= pretty? abbrev-commit no-abbrev-commit oneline encoding= expand-tabs? no-expand-tabs notes? no-notes',
  'show-notes? standard-notes no-standard-notes show-signature relative-date date= parents children left-right graph show-linear-break?',
  'decorate? no-decorate decorate-refs= decorate-refs-exclude= clear-decorations source mailmap no-mailmap use-mailmap no-use-mailmap',
  'full-diff log-size follow no-follow count diff-merges= no-diff-merges remerge-diff dd root no-graph',
].join(' ');
const LOG_SHORT = `${DIFF_SHORT}n:iEFPgL:mc`;
const LOG_EFFECTS: Readonly<Record<string, EffectSpec>> = {
  ...DIFF_EFFECTS,
  '--show-signature': ['unsafe', 'runs gpg, which reads the key ring'],
};

const log = (): OptionTable => optionTable(LOG_SHORT, `${DIFF_LONG} ${REV_LONG}`, { digits: true, effects: LOG_EFFECTS });
const diff = (extraShort = '', extraLong = '', extra: Readonly<Record<string, EffectSpec>> = {}): OptionTable =>
  optionTable(`${DIFF_SHORT}${extraShort}`, `${DIFF_LONG} ${extraLong}`, { digits: true, effects: { ...DIFF_EFFECTS, ...extra } });

export const GIT_TABLES: Readonly<Record<string, OptionTable>> = {
  status: optionTable('sbvu::z', 'short branch show-stash porcelain? long verbose untracked-files? ignore-submodules? ignored? null column? no-column ahead-behind no-ahead-behind renames no-renames find-renames?'),
  log: log(),
  whatchanged: log(),
  show: log(),
  diff: diff('', 'cached staged merge-base no-index', { '--no-index': ['unsafe', 'compares files outside the repository'] }),
  'diff-files': diff('q0123c', 'base ours theirs'),
  'diff-index': diff('m', 'cached merge-base'),
  'diff-tree': diff('rtmvc', 'root stdin no-commit-id always merge-base pretty? format= combined-all-paths'),
  'rev-parse': optionTable('q', 'abbrev-ref? symbolic-full-name show-toplevel show-prefix show-cdup git-dir git-common-dir absolute-git-dir is-inside-work-tree is-inside-git-dir is-bare-repository is-shallow-repository short? verify quiet all branches? tags? remotes? symbolic default= show-object-format? local-env-vars path-format= sq sq-quote not since= until= after= before= prefix= revs-only no-revs flags no-flags git-path= show-superproject-working-tree shared-index-path show-ref-format glob= exclude= disambiguate= end-of-options'),
  'ls-files': optionTable('cdmoiskuztvfx:X:', 'cached deleted modified others ignored stage unmerged killed directory no-empty-directory eol deduplicate exclude= exclude-from= exclude-per-directory= exclude-standard error-unmatch with-tree= full-name recurse-submodules abbrev? debug sparse format= resolve-undo', {
    effects: { '-X': 'read', '--exclude-from': 'read' },
  }),
  'ls-tree': optionTable('drtlz', 'long name-only name-status object-only full-name full-tree abbrev? format='),
  'cat-file': optionTable('tsepZ', 'textconv filters batch? batch-check? batch-command? batch-all-objects buffer follow-symlinks unordered allow-unknown-type path= mailmap use-mailmap no-mailmap', {
    effects: { '--textconv': ['unsafe', 'runs text-conversion programs'], '--filters': ['unsafe', 'runs filter programs'] },
  }),
  blame: optionTable('bL:ltS:pM::C::hcfnsew', 'root show-stats reverse= first-parent porcelain line-porcelain incremental encoding= contents= date= progress no-progress ignore-rev= ignore-revs-file= color-lines color-by-age score-debug show-name show-number show-email abbrev?', {
    effects: { '-S': 'read', '--contents': 'read', '--ignore-revs-file': 'read' },
  }),
  // shortlog's own -n is --numbered (no value), not log's -n NUM.
  shortlog: optionTable(`${LOG_SHORT}sew::n`, `${DIFF_LONG} ${REV_LONG} numbered summary email committer group=`, { digits: true, effects: LOG_EFFECTS }),
  describe: optionTable('', 'dirty? broken? all tags contains abbrev= candidates= exact-match debug long match= exclude= always first-parent'),
  grep: optionTable('e:f:iInlLcwvhHEFPGrzoqpWA:B:C:O::', 'cached untracked no-index index recurse-submodules no-exclude-standard exclude-standard text textconv no-textconv ignore-case max-depth= recursive no-recursive word-regexp invert-match full-name extended-regexp basic-regexp perl-regexp fixed-strings line-number column files-with-matches name-only files-without-match null only-matching count color? no-color break heading show-function context= after-context= before-context= function-context threads= and or not all-match quiet open-files-in-pager?', {
    digits: true,
    effects: {
      '-f': 'read',
      '-O': ['unsafe', 'runs a pager command'], '--open-files-in-pager': ['unsafe', 'runs a pager command'],
      '--no-index': ['unsafe', 'searches files outside the repository'], '--textconv': ['unsafe', 'runs text-conversion programs'],
    },
  }),
  'show-ref': optionTable('dsq', 'head branches tags dereference hash? abbrev? verify exists quiet exclude-existing?'),
  'for-each-ref': optionTable('', 'count= shell perl python tcl sort= format= color? points-at= merged? no-merged? contains? no-contains? ignore-case omit-empty exclude='),
  'merge-base': optionTable('a', 'all octopus independent is-ancestor fork-point'),
  'name-rev': optionTable('', 'tags refs= exclude= all annotate-stdin name-only no-undefined always'),
  'count-objects': optionTable('vH', 'verbose human-readable'),
  var: optionTable('l', ''),
  version: optionTable('', 'build-options'),
  'check-ignore': optionTable('qvzn', 'quiet verbose stdin non-matching no-index'),
  'rev-list': optionTable(`${LOG_SHORT}`, `${DIFF_LONG} ${REV_LONG} objects objects-edge timestamp bisect-vars bisect-all header disk-usage? use-bitmap-index in-commit-order no-object-names object-names filter= missing= exclude-promisor-objects indexed-objects`, { digits: true, effects: LOG_EFFECTS }),
  'show-branch': optionTable('arg::', 'all remotes topo-order date-order current color? no-color sparse more= list merge-base independent no-name sha1-name topics reflog?'),
  cherry: optionTable('v', 'abbrev?'),
};

/** `git branch` / `git tag` listing forms; the write options make them not read-only. */
const BRANCH_WRITES = ['-d', '-D', '-m', '-M', '-c', '-C', '-f', '-u', '--delete', '--move', '--copy', '--force', '--set-upstream-to', '--unset-upstream', '--edit-description', '--track', '--no-track', '--create-reflog', '--recurse-submodules'];
export const GIT_BRANCH = optionTable('arlvqdDmMcCfu:i', 'all remotes list verbose quiet color? no-color column? no-column sort= merged? no-merged? contains? no-contains? points-at= format= show-current abbrev= no-abbrev ignore-case omit-empty delete move copy force set-upstream-to= unset-upstream edit-description track? no-track create-reflog recurse-submodules', {
  effects: Object.fromEntries(BRANCH_WRITES.map((f) => [f, ['write', 'changes branches'] as const])),
});
const TAG_WRITES = ['-a', '-s', '-u', '-f', '-d', '-m', '-F', '-e', '--annotate', '--sign', '--local-user', '--force', '--delete', '--message', '--file', '--edit', '--cleanup', '--create-reflog', '--no-sign'];
export const GIT_TAG = optionTable('ln::iasu:fdvm:F:e', 'list sort= contains? no-contains? merged? no-merged? points-at? format= color? column? no-column ignore-case omit-empty annotate sign local-user= force delete verify message= file= edit cleanup= create-reflog no-sign', {
  effects: { ...Object.fromEntries(TAG_WRITES.map((f) => [f, ['write', 'creates or deletes tags'] as const])), '-v': ['unsafe', 'runs gpg'], '--verify': ['unsafe', 'runs gpg'] },
});

/** `git config`: reading forms only. `--file F` is read (or written by a write form). */
export const GIT_CONFIG = optionTable('lf:ez', 'get get-all get-regexp get-urlmatch replace-all add unset unset-all rename-section remove-section list get-color get-colorbool edit show-origin show-scope name-only null type= bool int bool-or-int path expiry-date default= includes no-includes local global system worktree file= blob= fixed-value comment=', {
  effects: {
    '-f': 'read', '--file': 'read',
    '--replace-all': ['write', 'writes the configuration'], '--add': ['write', 'writes the configuration'], '--unset': ['write', 'writes the configuration'],
    '--unset-all': ['write', 'writes the configuration'], '--rename-section': ['write', 'writes the configuration'], '--remove-section': ['write', 'writes the configuration'],
    '-e': ['unsafe', 'opens an editor'], '--edit': ['unsafe', 'opens an editor'],
  },
});
export const GIT_CONFIG_READS = new Set(['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l', '--get-color', '--get-colorbool']);

/** Global options allowed before the sub-command. `-c`, `--git-dir`, `--exec-path=`, `-p` are not. */
export const GIT_GLOBAL = optionTable('C:c:Pph', 'no-pager no-optional-locks no-replace-objects literal-pathspecs glob-pathspecs noglob-pathspecs icase-pathspecs version help git-dir= work-tree= namespace= exec-path? config-env= paginate bare html-path man-path info-path super-prefix= list-cmds=', {
  stopAtOperand: true,
  effects: {
    '-c': ['unsafe', 'sets configuration for this run'], '--config-env': ['unsafe', 'sets configuration for this run'],
    '--git-dir': ['unsafe', 'uses another repository, whose configuration may run code'], '--work-tree': ['unsafe', 'uses another work tree'],
    '--namespace': ['unsafe', 'changes the ref namespace'], '--exec-path': ['unsafe', 'changes where git finds its programs'],
    '-p': ['unsafe', 'forces a pager'], '--paginate': ['unsafe', 'forces a pager'], '--bare': ['unsafe', 'treats the directory as a bare repository'],
    '--super-prefix': ['unsafe', 'is internal'],
  },
});

/**
 * Options of state-changing sub-commands whose value is a program git (or
 * the other side of a local transport) runs: `git ls-remote
 * --upload-pack='CMD;' .` runs CMD. Long names are matched by prefix
 * (parse-options accepts abbreviations), short ones anywhere in a cluster.
 * `clone -c KEY=VALUE` is code when KEY is a code-running key.
 */
export const GIT_CODE_OPTIONS: Readonly<Record<string, { readonly short: string; readonly long: readonly string[] }>> = {
  clone: { short: 'u', long: ['upload-pack'] },
  fetch: { short: '', long: ['upload-pack'] },
  pull: { short: '', long: ['upload-pack'] },
  'ls-remote': { short: '', long: ['upload-pack'] },
  push: { short: '', long: ['receive-pack', 'exec'] },
  archive: { short: '', long: ['exec'] },
  rebase: { short: 'x', long: ['exec'] },
  difftool: { short: 'x', long: ['extcmd'] },
  'send-email': { short: '', long: ['to-cmd', 'cc-cmd', 'header-cmd', 'sendmail-cmd', 'smtp-server'] },
};

/** Sub-commands (and actions) that run a command given in their operands, or start a server or browser. */
export const GIT_RUNS_OPERANDS: ReadonlySet<string> = new Set(['bisect run', 'submodule foreach', 'filter-branch', 'daemon', 'instaweb', 'web--browse']);

/**
 * Configuration keys whose value is a program git (or a program it starts)
 * runs, or a file it includes: setting one is running code. A closed table,
 * matched case-insensitively on the whole key (`<section>.<sub>.<name>`).
 */
export const CODE_CONFIG_KEYS: readonly RegExp[] = [
  /^core\.(fsmonitor|pager|editor|sshcommand|hookspath|gitproxy|askpass|alternaterefscommand|attributesfile|excludesfile|worktree)$/i,
  /^sequence\.editor$/i, /^pager\..+$/i, /^alias\..+$/i, /^diff\.(external|.+\.(command|textconv))$/i, /^merge\..+\.driver$/i,
  /^filter\..+\.(clean|smudge|process)$/i, /^gpg\.(program|.+\.program)$/i, /^credential\.(.+\.)?helper$/i,
  /^uploadpack\.packobjectshook$/i, /^protocol\.(.+\.)?allow$/i, /^remote\..+\.(uploadpack|receivepack|proxy)$/i,
  /^include\.path$/i, /^includeif\..+\.path$/i, /^interactive\.difffilter$/i, /^sendemail\..+$/i, /^web\.browser$/i,
  /^browser\..+\.(cmd|path)$/i, /^man\..+\.(cmd|path)$/i, /^help\.(browser|format)$/i, /^init\.templatedir$/i,
  /^safe\.(directory|barerepository)$/i, /^http\..*(proxy|sslcainfo|cookiefile)$/i, /^ssh\.variant$/i, /^mergetool\..+\.cmd$/i,
  /^difftool\..+\.cmd$/i, /^core\.sshcommand$/i, /^receive\.procreceiverefs$/i, /^transfer\.credentialsinurl$/i, /^log\.showsignature$/i,
];

export function isCodeConfigKey(key: string): boolean {
  return CODE_CONFIG_KEYS.some((re) => re.test(key));
}
