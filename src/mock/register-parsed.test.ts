/**
 * A loaded suite's script is registered as it is (the suite schema parsed it
 * already), anything else through ModelScript as before; and the root
 * conversation routes, looked up before any pattern, resolve as the patterns do.
 */
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { MockRouter } from './mock-router.js';
import { routeOf } from './routes.js';
import { ModelScript } from './script.js';

describe('registering a script', () => {
  it('takes a parsed script as it is, and parses one as written', () => {
    const router = new MockRouter('t');
    const parsed = ModelScript.parse([{ tool_use: [{ name: 'read' }] }, { text: 'done' }]);
    const kept = router.register('http://x', { parsed }, { wire: 'anthropic' });
    expect(router.session(kept.id)!.script).toBe(parsed);
    const written = router.register('http://x', [{ tool_use: [{ name: 'read' }] }], { wire: 'anthropic' });
    const script = router.session(written.id)!.script;
    expect(script).toEqual([{ tool_use: [{ name: 'read', input: {} }] }]);
  });

  it('still refuses a script that is not one, with zod naming the problem', () => {
    const router = new MockRouter('t');
    expect(() => router.register('http://x', [], { wire: 'anthropic' })).toThrow(ZodError);
    expect(() => router.register('http://x', {} as never, { wire: 'anthropic' })).toThrow(ZodError);
    expect(() => router.register('http://x', { parsed: 'no' } as never, { wire: 'anthropic' })).toThrow(ZodError);
    expect(router.size).toBe(0);
  });

  it('tells the registered onRecord and the router\'s onRequest about each request, in that order', () => {
    const told: string[] = [];
    const router = new MockRouter('t', { onRequest: (id, wire) => told.push(`router ${id} ${wire}`) });
    const handle = router.register('http://x', [{ text: 'hi' }], { wire: 'anthropic', onRecord: (r) => told.push(`own ${r.status}`) });
    const body = JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] });
    router.dispatch({ method: 'POST', url: '/v1/messages', headers: { 'x-faultline-mock-session': handle.id }, bodyText: body });
    expect(told).toEqual(['own 200', `router ${handle.id} anthropic`]);
  });
});

describe('routes', () => {
  it('resolves the root conversation endpoints (query ignored) as the scoped ones', () => {
    expect(routeOf('POST', '/v1/messages?beta=true', {})).toEqual({ sid: null, wire: 'anthropic' });
    expect(routeOf('POST', '/v1/chat/completions', {})).toEqual({ sid: null, wire: 'openai' });
    expect(routeOf('POST', '/v1/responses/', {})).toEqual({ sid: null, wire: 'responses' });
    expect(routeOf('POST', '/s/i7/v1/messages', {})).toEqual({ sid: 'i7', wire: 'anthropic' });
    expect(routeOf('GET', '/v1/messages', { 'x-api-key': 'k' })).toEqual({ sid: null, wire: 'anthropic', route: { kind: 'unknown_route', method: 'GET', path: '/v1/messages' } });
    expect(routeOf('POST', '/v1/messages/count_tokens', {})).toEqual({ sid: null, wire: 'anthropic', route: { kind: 'count_tokens' } });
  });
});
