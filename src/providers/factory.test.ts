import { describe, expect, it } from 'vitest';
import { AnthropicModel } from './anthropic.js';
import { createModel } from './factory.js';
import { OpenAIModel } from './openai.js';

describe('createModel', () => {
  it('builds the adapter for the named provider', () => {
    const a = createModel({ provider: 'anthropic', model: 'claude-x', apiKey: 'k' });
    const o = createModel({ provider: 'openai', model: 'gpt-x', apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1' });
    expect(a).toBeInstanceOf(AnthropicModel);
    expect([a.provider, a.model]).toEqual(['anthropic', 'claude-x']);
    expect(o).toBeInstanceOf(OpenAIModel);
    expect([o.provider, o.model]).toEqual(['openai', 'gpt-x']);
  });

  it('rejects an unknown provider', () => {
    // Deliberately outside the type, as a config file could be.
    expect(() => createModel({ provider: 'cohere' as 'openai', model: 'x' })).toThrow(/unknown provider/);
  });
});
