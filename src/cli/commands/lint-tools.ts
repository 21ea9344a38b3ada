/**
 * `faultline lint-tools [suites...]`: report resident/deferred tool name
 * pairs sharing a prefix of 4+ characters (docs/harness-rules.md#distinct-name-prefixes, docs/harness-rules.md#prefix-collapse). Such a pair
 * lets constrained decoding turn a call of the unloaded tool into a valid
 * call of the resident one. Exit 1 when any pair is found. MCP names are
 * compared after `mcp__` (and their server), where the model chooses.
 */
import type { Command } from 'commander';
// The one prefix rule (a leaf module, no imports): cheap enough to load for the description.
import { MIN_SHARED_PREFIX, prefixCollisions, type PrefixCollision } from '../../events/tool-prefix-rule.js';
import { CliError, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';

interface LintOptions {
  deferred?: string;
  min: string;
  json?: boolean;
}

export function registerLintTools(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('lint-tools')
    .description(`report resident/deferred tool names sharing a prefix of ${MIN_SHARED_PREFIX}+ characters (exit 1 if any)`)
    .argument('[suites...]', 'suite files or directories: each task with deferred_tools or deferred MCP servers is checked (its MCP servers are started to list their tools)')
    .option('--deferred <names>', 'comma-separated tool names to check as deferred against the other built-in tools')
    .option('--min <n>', 'shortest shared prefix reported', String(MIN_SHARED_PREFIX))
    .option('--json', 'print the collisions as JSON')
    .addHelpText('after', '\nExamples:\n  faultline lint-tools suites/\n  faultline lint-tools --deferred sleep,explode\n')
    .action(async (paths: string[], opts: LintOptions) => {
      const min = Number(opts.min);
      if (!Number.isInteger(min) || min < 1) throw new CliError(`--min must be a positive integer, got "${opts.min}"`);
      const [{ createRegistry }, { hasDeferredTools, taskToolNames }, { loadSuitesForCli }] = await Promise.all([
        import('../../harness/tools/builtin.js'),
        import('../../suites/task-tool-names.js'),
        import('../load-suites.js'),
      ]);
      const found: { where: string; pair: PrefixCollision }[] = [];
      const unlisted: string[] = [];
      let checked = 0;
      if (opts.deferred) {
        const deferred = opts.deferred.split(',').map((s) => s.trim()).filter(Boolean);
        const names = [...new Set([...createRegistry().names(), ...deferred])];
        let registry;
        try {
          registry = createRegistry(names, { deferred });
        } catch (error) {
          throw new CliError(error instanceof Error ? error.message : String(error));
        }
        const resident = registry.names().filter((n) => !registry.isDeferred(n));
        for (const pair of prefixCollisions(resident, deferred, min)) found.push({ where: '--deferred', pair });
        checked++;
      }
      if (paths.length > 0) {
        const tasks = loadSuitesForCli(paths, io);
        // MCP servers are started to list their tools, once per distinct configuration.
        const listings = new Map();
        for (const task of tasks.filter(hasDeferredTools)) {
          const where = `${task.file}: task ${task.id}`;
          const names = await taskToolNames(task, listings);
          for (const pair of prefixCollisions(names.resident, names.deferred, min)) found.push({ where, pair });
          for (const why of names.unlisted) unlisted.push(`${where}: MCP server ${why}`);
          checked++;
        }
      }
      if (opts.json) {
        const { printJson } = await import('../../report/json-format.js');
        io.stdout(printJson({ tool_sets_checked: checked, collisions: found.map(({ where, pair }) => ({ where, resident: pair.resident, deferred: pair.deferred, prefix: pair.prefix, after: pair.after ?? null })), not_listed: unlisted }));
        result.exitCode = found.length > 0 ? 1 : 0;
        return;
      }
      for (const { where, pair } of found) {
        const after = pair.after ? ` after "${pair.after}"` : '';
        io.stdout(`${where}: resident "${pair.resident}" and deferred "${pair.deferred}" share the prefix "${pair.prefix}"${after} — rename one, or keep ${pair.deferred} resident\n`);
      }
      for (const line of unlisted) io.stdout(`${line} (its tools were not checked)\n`);
      const notListed = unlisted.length > 0 ? `, ${unlisted.length} MCP server${unlisted.length === 1 ? '' : 's'} not listed` : '';
      io.stdout(checked === 0 ? 'no deferred tools to check (give suites with deferred_tools or MCP servers, or --deferred)\n' : `${checked} tool set${checked === 1 ? '' : 's'} checked, ${found.length} prefix collision${found.length === 1 ? '' : 's'}${notListed}\n`);
      result.exitCode = found.length > 0 ? 1 : 0;
    });
}
