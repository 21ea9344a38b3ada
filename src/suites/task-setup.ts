/**
 * A task's `setup:` script: bash in the fresh workspace before the session
 * starts (a git repository to snapshot, a build to break). It is suite
 * configuration, trusted like a hooks module, so it does not go through the
 * permission chain; it gets a clean git identity so commits work anywhere.
 */
import { spawn } from 'node:child_process';

const SETUP_TIMEOUT_MS = 60_000;

export class TaskSetupError extends Error {
  readonly code = 'TASK_SETUP_FAILED';
}

export function runSetup(script: string, workspace: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: 'faultline',
      GIT_AUTHOR_EMAIL: 'faultline@example.invalid',
      GIT_COMMITTER_NAME: 'faultline',
      GIT_COMMITTER_EMAIL: 'faultline@example.invalid',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    };
    const child = spawn('bash', ['-e', '-c', script], { cwd: workspace, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, SETUP_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new TaskSetupError(`setup could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new TaskSetupError(`setup failed (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').slice(-3).join(' | ') || 'no output'}`));
    });
  });
}
