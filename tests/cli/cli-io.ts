/** Test helper: run the CLI in-process with captured output. */
import { run } from '../../src/cli/program.js';

export async function cli(args: string[], options: { isTTY?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: options.env ?? { NO_COLOR: '1' },
    cwd: process.cwd(),
    isTTY: options.isTTY ?? false,
  });
  return { code, stdout, stderr };
}
