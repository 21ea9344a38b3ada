/**
 * `faultline verify-defense <name|module...> [--suite dir]` and `--all`: runs
 * each defense's fault scenarios and controls, then the fault scenarios again
 * with the defense off, and prints recall, false positives and the mutation
 * check (src/suites/verify/). Exit 1 when any defense is not verified.
 */
import type { Command } from 'commander';
import { CliError, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';

interface VerifyCliOptions {
  all?: boolean;
  suite?: string[];
  json?: boolean;
  md?: boolean;
  junit?: string;
  concurrency: string;
  mutationSandbox: string;
}

export function registerVerifyDefense(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('verify-defense')
    .description('show that defenses fire on their fault scenarios, not on their controls, and that each fault scenario fails with the defense off (exit 1 if not)')
    .argument('[defenses...]', 'shipped defense names, names declared by the suites\' defense modules, or paths of defense modules (every defense they export)')
    .option('--all', 'every defense the scenarios name (with the shipped catalog: every shipped defense): a matrix')
    .option('--suite <paths...>', 'suite files or directories with the fault scenarios (`defense: <name>`) and controls (`control_for: [<name>]`); default: the shipped suites/faults and suites/controls')
    .option('--json', 'print the verdicts as JSON')
    .option('--md', 'print the matrix as Markdown')
    .option('--junit <file>', 'also write JUnit XML: a test suite per defense, a test case per scenario run (skipped ones with the reason)')
    .option('-j, --concurrency <n>', 'sessions at once', '4')
    .option('--mutation-sandbox <mode>', 'OS sandbox for the runs with a defense off (required|auto|off): a defense switched off may let a dangerous command through, so with required (the default) a run that can start a process is skipped, with the reason, where bubblewrap does not work', 'required')
    .addHelpText(
      'after',
      '\nExamples:\n  faultline verify-defense identical_call_loop\n  faultline verify-defense --all --md\n  faultline verify-defense ./my-defense.mjs --suite my-suites/\n',
    )
    .action(async (targets: string[], opts: VerifyCliOptions) => {
      if (!opts.all && targets.length === 0) throw new CliError('name a defense (or a defense module), or pass --all');
      if (opts.all && targets.length > 0) throw new CliError('--all verifies every defense; do not name defenses with it');
      const concurrency = Number(opts.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError(`--concurrency must be a positive integer, got "${opts.concurrency}"`);
      if (!['required', 'auto', 'off'].includes(opts.mutationSandbox)) throw new CliError(`--mutation-sandbox must be required, auto or off, got "${opts.mutationSandbox}"`);
      const [{ loadSuitesForCli }, { shippedSuitePaths }, resolver, { verifyDefenses }, render, { mockModelSource }] = await Promise.all([
        import('../load-suites.js'),
        import('../../suites/verify/shipped-suites.js'),
        import('../../suites/verify/resolve-defenses.js'),
        import('../../suites/verify/verify-defense.js'),
        import('../../suites/verify/render.js'),
        import('../../suites/mock-source.js'),
      ]);
      const { bubblewrapProblem } = await import('../../harness/sandbox/sandbox.js');
      let tasks = loadSuitesForCli(opts.suite ?? shippedSuitePaths(), io);
      // Scenarios on the gemini wire need @google/genai, an optional peer: without it they are left out, by name, with the install command.
      const { geminiTasks, geminiSdkMissing } = await import('../../suites/gemini-peer.js');
      const onGemini = geminiTasks(tasks).filter((t) => t.defense !== undefined || (t.control_for?.length ?? 0) > 0);
      const missing = onGemini.length > 0 ? await geminiSdkMissing() : null;
      if (missing) {
        tasks = tasks.filter((t) => !onGemini.includes(t));
        io.stderr(`faultline: skipping ${onGemini.length} scenario${onGemini.length === 1 ? '' : 's'} on the gemini wire (${onGemini.map((t) => t.id).join(', ')}): ${missing.message}\n`);
      }
      const { claimJunitFile, writeJunitFile } = await import('../junit-file.js');
      const junitPath = opts.junit !== undefined ? claimJunitFile(io, opts.junit) : null;
      let defenses;
      try {
        defenses = await resolver.resolveDefenses(targets, opts.all === true, tasks, opts.suite === undefined);
        if (defenses.length === 0) throw new CliError(`no scenario in ${opts.suite?.join(', ')} names a defense (\`defense:\` or \`control_for:\`), so --all has nothing to verify`);
      } catch (error) {
        if (error instanceof resolver.UnknownDefenseError) throw new CliError(error.message);
        throw error;
      }
      const source = mockModelSource();
      let done = 0;
      const progress = io.stderrIsTTY === true;
      const { stopOnSignal } = await import('../stop-on-signal.js');
      const stop = stopOnSignal(io, 'faultline verify-defense', 'stopping the running sessions and removing their workspaces; no verdict');
      try {
        const verdicts = await verifyDefenses({
          signal: stop.signal,
          defenses,
          tasks,
          source,
          concurrency,
          mutationSandbox: opts.mutationSandbox as 'required' | 'auto' | 'off',
          onProgress: (phase, r) => {
            done++;
            if (progress) io.stderr(`\r[${done}] ${phase}: ${r.task.id}`.padEnd(90).slice(0, 90));
          },
        });
        if (progress) io.stderr('\r'.padEnd(91) + '\r');
        const sandboxProblem = bubblewrapProblem();
        io.stdout(opts.json ? render.renderJson(verdicts, sandboxProblem) : opts.md ? render.renderMarkdown(verdicts, sandboxProblem) : render.renderTerminal(verdicts, sandboxProblem));
        if (junitPath !== null) writeJunitFile(junitPath, (await import('../../suites/verify/junit.js')).verifyJunit(verdicts));
        result.exitCode = verdicts.every((v) => v.verified) ? 0 : 1;
      } catch (error) {
        // Interrupted: the sessions ended and their workspaces are gone; a verdict from part of the runs would mislead.
        const interrupted = stop.exitCode();
        if (interrupted === null) throw error;
        if (progress) io.stderr('\r'.padEnd(91) + '\r');
        result.exitCode = interrupted;
      } finally {
        stop.remove();
        await source.close();
      }
    });
}
