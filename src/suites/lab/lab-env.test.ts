/** The harness's environment: no credential of the caller, the lab's base URLs, and the workspace as its working directory in PWD too. */
import { describe, expect, it } from 'vitest';
import { DUMMY_KEY, labEnv } from './lab-env.js';

const place = { baseURLs: { anthropic: 'http://127.0.0.1:1/s/a', openai: 'http://127.0.0.1:1/s/a/v1', responses: 'http://127.0.0.1:1/s/a/v1', gemini: 'http://127.0.0.1:1/s/a' }, prompt: 'p', workspace: '/tmp/ws-1', task: 't', cwd: '/home/me/project' };

describe('labEnv', () => {
  it("takes out the caller's keys and proxies, and points PWD at the workspace the harness runs in", () => {
    const env = labEnv({ PATH: '/bin', PWD: '/home/me/project', ANTHROPIC_API_KEY: 'sk-real', HTTPS_PROXY: 'http://proxy', CLAUDE_CODE_USE_BEDROCK: '1' }, place);
    expect(env).toMatchObject({ PATH: '/bin', ANTHROPIC_API_KEY: DUMMY_KEY, ANTHROPIC_BASE_URL: place.baseURLs.anthropic, OPENAI_BASE_URL: place.baseURLs.openai });
    expect(env['HTTPS_PROXY']).toBeUndefined();
    expect(env['CLAUDE_CODE_USE_BEDROCK']).toBeUndefined();
    // A harness that takes its project root from PWD (opencode) would see the workspace's files as outside it.
    expect(env['PWD']).toBe('/tmp/ws-1');
  });
});
