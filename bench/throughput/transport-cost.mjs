// CPU per model call of one mock transport alone: the real Anthropic adapter
// (official SDK) calling the scripted mock, client and mock in this one
// process, so the figure includes the mock server (http) or the in-process
// fetch (memory). No harness, workspace or trace: only the transport. Over
// http the SDK client gets its connections from the pool a run gives it
// (suites/connection-pool.ts), as `faultline run --transport http` does.
//
//   node bench/throughput/transport-cost.mjs <memory|http> [calls] [concurrency]
// prints one JSON line: { transport, calls, cpuMsPerCall, wallMs }
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [transport = 'memory', callsArg = '4000', jArg = '32'] = process.argv.slice(2);
const calls = Number(callsArg);
const concurrency = Number(jArg);
const dist = resolve(import.meta.dirname, '..', '..', 'dist');
const load = (path) => import(pathToFileURL(resolve(dist, path)).href);
const { loopbackModel, stopSharedLoopbackServer, LOOPBACK_HOST } = await load('mock/loopback-model.js');
const { memoryModel } = await load('mock/memory-model.js');
const { connectionPool } = await load('suites/connection-pool.js');

// A read-sized tool call each time (the engine is stateless: the same request is always turn 1).
const script = [{ tool_use: [{ name: 'read', input: { file_path: 'notes.txt' } }], repeat: true }];
const request = {
  system: 'You are a coding agent.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Fix the typo in notes.txt.' }] }],
  tools: [{ name: 'read', description: 'Read a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } }],
  maxTokens: 1024,
};
const open = () => (transport === 'http' ? loopbackModel(script, { wire: 'anthropic', dispatcher: connectionPool(`http://${LOOPBACK_HOST}`) }) : memoryModel(script, { wire: 'anthropic' }));

async function round(n) {
  const sessions = await Promise.all(Array.from({ length: concurrency }, () => open()));
  let next = 0;
  await Promise.all(
    sessions.map(async ({ model }) => {
      while (next < n) {
        next++;
        await model.complete(request);
      }
    }),
  );
  for (const { session } of sessions) session.close();
}

await round(Math.min(1000, calls)); // warm-up: JIT, connection pool
const cpu = process.cpuUsage();
const started = performance.now();
await round(calls);
const used = process.cpuUsage(cpu);
const wallMs = performance.now() - started;
await stopSharedLoopbackServer();
console.log(JSON.stringify({ transport, calls, concurrency, cpuMsPerCall: (used.user + used.system) / 1000 / calls, wallMs }));
