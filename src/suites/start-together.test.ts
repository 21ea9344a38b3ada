import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { startTogether } from './start-together.js';

/** A session that waits on nothing but promises (the in-memory mock, synchronous fs): three steps. */
function session(steps: string[], done: () => void) {
  return async (id: string) => {
    for (let step = 0; step < 3; step++) {
      steps.push(`${id}${step}`);
      await null;
    }
    done();
  };
}

/** Posts the ids as separate messages (as the main thread hands out sessions) and resolves with the steps once all ended. */
function deliver(ids: string[], listen: (port: MessagePort, run: (id: string) => Promise<void>) => void): Promise<string[]> {
  const { port1, port2 } = new MessageChannel();
  opened.push(port1, port2);
  const steps: string[] = [];
  return new Promise((resolve) => {
    let ended = 0;
    listen(port2, session(steps, () => ++ended === ids.length && resolve(steps)));
    for (const id of ids) port1.postMessage(id);
  });
}

const opened: MessagePort[] = [];
afterEach(() => {
  for (const port of opened.splice(0)) port.close();
});

describe('startTogether', () => {
  it('interleaves the sessions whose messages were waiting together, as the main thread interleaves its -j loops', async () => {
    const steps = await deliver(['a', 'b', 'c'], (port, run) => port.on('message', startTogether((id: string) => void run(id))));
    expect(steps).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'c1', 'a2', 'b2', 'c2']);
  });

  it('(the cause) started from each message, such sessions run one after the other', async () => {
    // Node runs the microtasks after each message it delivers: this is what made a worker run its share of -j serially.
    const steps = await deliver(['a', 'b', 'c'], (port, run) => port.on('message', (id: string) => void run(id)));
    expect(steps).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'c0', 'c1', 'c2']);
  });

  it('starts nothing before the loop turns, then everything waiting in arrival order; later arrivals in a batch of their own', async () => {
    const started: number[] = [];
    const arrive = startTogether((n: number) => started.push(n));
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    arrive(1);
    arrive(2);
    expect(started).toEqual([]);
    await turn();
    expect(started).toEqual([1, 2]);
    arrive(3);
    expect(started).toEqual([1, 2]);
    await turn();
    expect(started).toEqual([1, 2, 3]);
  });
});
