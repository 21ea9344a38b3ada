/**
 * The HTTP connections of the SDK clients of a run, bounded and counted in
 * the process's descriptor budget (harness/safe-fs/fd-budget.ts). The suite
 * runner gives each model its origin's pool as the client's `dispatcher`
 * (providers/adapter-options.ts); a model made outside a run keeps fetch's
 * own pool.
 *
 * Why: fetch's default pool opens one connection per request in flight and
 * keeps it open afterwards (keep-alive), so at `-j 1000` over HTTP a run
 * holds a thousand sockets, and against the mock's loopback server, which
 * runs in the same process, two descriptors each (the client's end and the
 * server's). Under a 1,024 limit the connect that fails is some task's model
 * call: an EMFILE that reads as a `connection` error, retried until the task
 * fails (measured before this pool: `faultline run --transport http -j 1000`
 * of 2,000 tasks under a hard limit of 1,024 lost 506 tasks and took 306 s).
 *
 * So each origin gets one pool of at most a quarter of the budget's
 * descriptors, and a request past them waits in the pool for a free
 * connection instead of failing. Each open connection is counted as held
 * while it is open, so a tool call that needs descriptors waits for them
 * rather than failing with EMFILE (an idle connection closes after the
 * pool's keep-alive timeout, a few seconds, so the wait ends).
 */
import { createRequire } from 'node:module';
import type { Agent } from 'undici';
import { countDescriptors, descriptorCapacity, type DescriptorLease } from '../harness/safe-fs/fd-budget.js';

/** Hosts whose server is likely this process (the mock's loopback server): a connection costs both ends. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Descriptors one connection to `origin` costs this process (null: the SDK's default host, remote). */
export function descriptorsPerConnection(origin: URL | null): number {
  return origin !== null && LOOPBACK.has(origin.hostname) ? 2 : 1;
}

/** Connections one pool may open when the budget is `capacity` descriptors: a quarter of it, at least one. */
export function poolConnections(capacity: number, perConnection: number): number {
  return Math.max(1, Math.floor(capacity / 4 / perConnection));
}

/** Pools kept per process (one per origin); past it the oldest is dropped (its clients keep it, new ones get a new one). */
const MAX_POOLS = 256;
const pools = new Map<string, Agent>();

/**
 * The pool (a dispatcher for fetch) of `baseURL`'s origin, made on first use. Without a base URL the SDK's default
 * host is meant: one pool for those.
 */
export function connectionPool(baseURL: string | undefined): Agent {
  const origin = originOf(baseURL);
  const key = origin?.origin ?? '';
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = countedPool(descriptorsPerConnection(origin));
    if (pools.size >= MAX_POOLS) pools.delete(pools.keys().next().value as string);
    pools.set(key, pool);
  }
  return pool;
}

function countedPool(perConnection: number): Agent {
  // `require`, not `import`: clients are made synchronously, and only a run over sockets needs undici at all.
  const { Agent: AgentClass } = createRequire(import.meta.url)('undici') as typeof import('undici');
  const pool = new AgentClass({ connections: poolConnections(descriptorCapacity(), perConnection) });
  const open: DescriptorLease[] = [];
  pool.on('connect', () => open.push(countDescriptors(perConnection)));
  pool.on('disconnect', () => open.pop()?.release());
  return pool;
}

function originOf(baseURL: string | undefined): URL | null {
  if (baseURL === undefined) return null;
  try {
    return new URL(baseURL);
  } catch {
    return null;
  }
}
