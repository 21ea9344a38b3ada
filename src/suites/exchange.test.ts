import { describe, expect, it } from 'vitest';
import { recordedRequest, scrub, unscrub, WORKSPACE_PLACEHOLDER } from './exchange.js';

describe('recorded exchanges', () => {
  it('store the workspace path as a placeholder and redact secrets in message text', () => {
    const ws = '/tmp/faultline-ws-abc123';
    const request = recordedRequest(
      {
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: `${ws}/a.txt: password=hunter22hunter`, is_error: false }] }],
        tools: [],
        maxTokens: 10,
        signal: new AbortController().signal,
      },
      ws,
    );
    const text = JSON.stringify(request);
    expect(text).not.toContain(ws);
    expect(text).not.toContain('hunter22hunter');
    expect(text).toContain(`${WORKSPACE_PLACEHOLDER}/a.txt`);
    expect(text).not.toContain('signal');
  });

  it('put the replaying session\'s workspace back into recorded responses', () => {
    const stored = scrub({ input: { file_path: '/w/one/x.txt' } }, '/w/one');
    expect(unscrub(stored, '/w/two')).toEqual({ input: { file_path: '/w/two/x.txt' } });
  });
});
