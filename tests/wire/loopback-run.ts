/** Test helper: one agent run against the scripted mock on the loopback server, through the real SDK client. */
import type { z } from 'zod';
import { loopbackModel } from '../../src/mock/loopback-model.js';
import type { LoopbackServer, LoopbackSessionHandle } from '../../src/mock/loopback-server.js';
import type { ModelScript } from '../../src/mock/script.js';
import { runWithModel, type AgentRun, type AgentRunOptions, type Wire } from '../harness/agent-run.js';

export { lost, WIRES, type Wire } from '../harness/agent-run.js';

export interface LoopbackRun extends AgentRun {
  session: LoopbackSessionHandle;
}

export interface LoopbackRunOptions extends AgentRunOptions {
  server: LoopbackServer;
  wire: Wire;
  stream: boolean;
}

export async function runOnLoopback(script: z.input<typeof ModelScript>, options: LoopbackRunOptions): Promise<LoopbackRun> {
  const { model, session } = await loopbackModel(script, { wire: options.wire, stream: options.stream, server: options.server });
  try {
    return { ...(await runWithModel(model, options)), session };
  } finally {
    session.close();
  }
}
