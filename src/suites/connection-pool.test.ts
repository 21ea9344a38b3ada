import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { descriptorsHeld } from '../harness/safe-fs/fd-budget.js';
import { sdkClientOptions } from '../providers/adapter-options.js';
import { connectionPool, descriptorsPerConnection, poolConnections } from './connection-pool.js';

let server: Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

/** A loopback server that answers after 5 ms (so requests at once need a connection each). */
async function loopback(): Promise<string> {
  server = createServer((_req, res) => setTimeout(() => res.end('ok'), 5));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('connection pool', () => {
  it('counts a loopback connection as both of its ends, a remote one as one', () => {
    expect(descriptorsPerConnection(new URL('http://127.0.0.1:4000'))).toBe(2);
    expect(descriptorsPerConnection(new URL('http://localhost:4000/v1'))).toBe(2);
    expect(descriptorsPerConnection(new URL('http://[::1]:4000'))).toBe(2);
    expect(descriptorsPerConnection(new URL('https://api.anthropic.com'))).toBe(1);
    expect(descriptorsPerConnection(null)).toBe(1);
  });

  it('opens at most a quarter of the budget, and always at least one connection', () => {
    expect(poolConnections(768, 2)).toBe(96);
    expect(poolConnections(768, 1)).toBe(192);
    expect(poolConnections(3, 2)).toBe(1);
  });

  it('is one pool per origin', () => {
    expect(connectionPool('http://127.0.0.1:1/v1')).toBe(connectionPool('http://127.0.0.1:1'));
    expect(connectionPool('http://127.0.0.1:1')).not.toBe(connectionPool('http://127.0.0.1:2'));
  });

  it('holds its open connections in the descriptor budget until they close', async () => {
    const url = await loopback();
    const pool = connectionPool(url);
    const before = descriptorsHeld();
    const answers = await Promise.all([1, 2, 3].map(() => fetch(url, { dispatcher: pool } as RequestInit).then((r) => r.text())));
    expect(answers).toEqual(['ok', 'ok', 'ok']);
    // Three requests at once: three keep-alive connections, two descriptors each, still open after the answers.
    expect(descriptorsHeld() - before).toBe(6);
    server!.closeAllConnections();
    await expect.poll(() => descriptorsHeld() - before).toBe(0);
  });

  it('is what an SDK client given it fetches through, unless it is given its own fetch', () => {
    const pool = connectionPool('http://127.0.0.1:9');
    expect(sdkClientOptions({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', dispatcher: pool }).fetchOptions?.dispatcher).toBe(pool);
    expect(sdkClientOptions({ model: 'm', fetch: globalThis.fetch, dispatcher: pool }).fetchOptions).toBeUndefined();
    expect(sdkClientOptions({ model: 'm' }).fetchOptions).toBeUndefined();
  });
});
