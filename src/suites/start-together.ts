/**
 * Starts together the sessions a worker thread receives in one turn of its
 * event loop (task-thread.ts).
 *
 * A session on the in-memory mock with synchronous fs waits on nothing but
 * promises, and Node runs the microtasks after each message a port delivers:
 * started from its own message, such a session ran to its end before the
 * next message was even read, so a worker ran its share of -j one session
 * after the other (1.5 in flight on average at -j 32). The main thread's -j
 * loops interleave theirs, and the same sessions run one by one cost about
 * twice the CPU each (main thread alone, 1,000 bench tasks: 1.7 ms each at
 * -j 1, 0.9 ms at -j 32): each step's code runs once per session instead of
 * once for many in a row. A setImmediate runs once the port has handed over
 * every message waiting, so the sessions received meanwhile start at once
 * and interleave as on the main thread.
 */
export function startTogether<T>(start: (item: T) => void): (item: T) => void {
  let arrived: T[] = [];
  const startArrived = () => {
    const starting = arrived;
    arrived = [];
    for (const item of starting) start(item);
  };
  return (item) => {
    if (arrived.push(item) === 1) setImmediate(startArrived);
  };
}
