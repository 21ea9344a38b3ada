/**
 * A task whose model never stops calling tools: the lab stops a harness with no turn cap once it goes past its turn
 * limit, long before its --timeout. Every request carries the whole history, so letting a fast harness run to the
 * timeout held over 1 GB per session in the lab (a test worker died of it beside three such sessions) and blocked it
 * for tens of seconds judging them. faultline's own harness, with its turn cap switched off, as the external process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionLine } from '../../src/suites/lab/verdict.js';
import { bundleOwnHarness, details, lab, labTasks, ownHarness } from './lab-run.js';

let bundle: { file: string; remove(): void };
beforeAll(async () => {
  bundle = await bundleOwnHarness();
});
afterAll(() => bundle?.remove());

const LIMIT = 15;
const TIMEOUT_MS = 120_000;

describe('the lab on a model that never stops', () => {
  it('stops a harness with no turn cap past its turn limit, before its --timeout, and no_turn_cap names the limit', async () => {
    const requests: string[] = [];
    const run = await lab(ownHarness(bundle.file, { bug: 'no_turn_cap' }), labTasks('lab-no-turn-cap'), { timeoutMs: TIMEOUT_MS, endlessTurnLimit: LIMIT, onRequestRecord: (line) => requests.push(line) });
    const session = run.summary.sessions[0]!;
    expect(run.violated, details(run).join('\n')).toEqual(['no_turn_cap']);
    expect(details(run)).toEqual([expect.stringContaining(`still going after ${LIMIT} turns, where the lab stops a task that never ends`)]);
    expect(session).toMatchObject({ turnLimit: LIMIT, timedOut: false, stop: 'aborted', outcome: 'failed' });
    // Stopped as soon as it asked for the turn after the limit: nothing like the hundreds a minute it sends unstopped.
    expect(session.turns).toBeGreaterThan(LIMIT);
    expect(session.turns).toBeLessThanOrEqual(LIMIT + 2);
    expect(requests.length).toBeLessThanOrEqual(LIMIT + 2);
    expect(session.durationMs).toBeLessThan(TIMEOUT_MS);
    expect(sessionLine(session, false)).toContain(`stopped by the lab after ${LIMIT} turns of a model that never stops`);
  }, 180_000);

  it('leaves a harness with its turn cap alone: it stops on its own below the limit', async () => {
    const run = await lab(ownHarness(bundle.file), labTasks('lab-no-turn-cap'), { timeoutMs: TIMEOUT_MS, endlessTurnLimit: 200 });
    const session = run.summary.sessions[0]!;
    expect(details(run)).toEqual([]);
    expect(session).toMatchObject({ turnLimit: null, timedOut: false, outcome: 'passed' });
  }, 180_000);
});
