import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmitter } from '../../src/events/create-emitter.js';
import { checkTraceFile } from '../../src/events/check-trace.js';
import { eventsJsonSchemaText } from '../../src/events/json-schema.js';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection } from '../../src/analysis/report-model.js';
import { readEvents, scratch } from '../importers/helpers.js';
import { runLoggingPackages } from '../helpers/loaded-packages.js';

describe('faultline/events: the emitter for other harnesses', () => {
  it('is a package subpath that loads zod and nothing else (no DuckDB, SDKs, msw or vega)', () => {
    const built = existsSync('dist/events/public.js');
    expect(built, 'dist/ is built by npm ci (prepare); run npm run build').toBe(true);
    const { stdout, packages } = runLoggingPackages(`const m = await import('faultline/events'); process.stdout.write(typeof m.createEmitter + ' ' + typeof m.EVENT_SCHEMAS.tool_call.safeParse);`);
    expect(stdout).toBe('function function');
    expect(packages).toEqual(['zod']);
  });

  it('writes contract-valid events a report reads, timing calls and labelling unknown tools', async () => {
    const file = join(scratch(), 'my-harness.jsonl');
    let t = 1_700_000_000_000;
    const log = createEmitter({ file, runId: 'run-1', knownTools: ['read_file', 'shell'], now: () => t++ });
    const s = log.session({ sessionId: 'sess-1', taskId: 'fix-bug', tools: ['read_file', 'shell'], defensesArmed: ['identical_call_loop'], defensesAvailable: ['identical_call_loop', 'low_yield_spin'], permissionMode: 'default', headless: true });
    s.modelRequest({ turn: 1, provider: 'anthropic', model: 'claude-sonnet-4-5', requestBytes: 2048 });
    s.modelResponse({ turn: 1, durationMs: 812.5, stopReason: 'tool_use', stopClass: 'tool_use', toolUseCount: 3, inputTokens: 900, outputTokens: 40 });
    s.toolCall({ turn: 1, tool: 'read_file', toolUseId: 'c1', concurrencySafe: true }).success({ outputBytes: 120 });
    s.toolCall({ turn: 1, tool: 'shell', toolUseId: 'c2' }).failure('tool_error', { errorCode: 'exit_1' });
    s.toolCall({ turn: 1, tool: 'rm_rf', toolUseId: 'c3' }).failure('not_found', { durationMs: 0 });
    s.defenseTrigger({ turn: 1, defense: 'identical_call_loop', action: 'hint' });
    s.defenseStats({ defense: 'identical_call_loop', evaluated: 3, triggered: 1 });
    s.expectation('answer', false, 'expected the patch; token=sk-ant-abcdefghijklmnopqrstu');
    s.end({ outcome: 'failed', stop: 'end_turn', turns: 1, inputTokens: 900, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 });
    log.close();
    expect(log.stats()).toMatchObject({ written: 13, invalid: 0, failedWrites: 0 });
    expect(await checkTraceFile(file)).toMatchObject({ lines: 13, valid: 13, bad: [] });
    const events = readEvents(file);
    expect(events.find((e) => e.tool_use_id === 'c3' && e.event === 'tool_call')).toMatchObject({ tool: '<unknown>', requested_tool: 'rm_rf' });
    const success = events.find((e) => e.tool_use_id === 'c1' && e.event === 'tool_success');
    // Timed by the emitter around the call: a measured duration (no duration_source), and what was not given is null.
    expect(success).toMatchObject({ raw_bytes: null, output_bytes: 120, truncated: null });
    expect('duration_source' in (success ?? {})).toBe(false);
    expect(typeof success?.duration_ms).toBe('number');
    expect(events.find((e) => e.event === 'expectation')?.detail).toBe('expected the patch; token=[REDACTED]');
    const analysis = await analyzeTraces([file]);
    expect(findSection(analysis, 'tool_funnel')?.rows.find((r) => r.tool === '(all tools)')).toMatchObject({ calls: 3, successes: 1, failures: 2, lost: 0 });
    expect(findSection(analysis, 'defenses')?.rows.find((r) => r.defense === 'identical_call_loop')).toMatchObject({ triage: 'firing', triggers_match_stats: true });
    // Implemented but not armed: disarmed, told apart from a defense the harness does not have (unknown).
    expect(findSection(analysis, 'defenses')?.rows.find((r) => r.defense === 'low_yield_spin')).toMatchObject({ triage: 'disarmed' });
    expect(findSection(analysis, 'defenses')?.rows.find((r) => r.defense === 'token_budget')).toMatchObject({ triage: 'unknown' });
  });

  it('drops and counts an event the contract rejects, never throwing into the harness', () => {
    const file = join(scratch(), 'bad.jsonl');
    const log = createEmitter({ file, runId: 'run-2' });
    const s = log.session({ sessionId: 'x' });
    expect(() => s.modelResponse({ turn: -1, stopReason: null, stopClass: 'null' })).not.toThrow();
    log.close();
    expect(log.stats()).toMatchObject({ written: 1, invalid: 1, firstError: 'invalid event dropped: model_response' });
  });

  it('ships the JSON Schema for other languages as faultline/schema/events.v1.json', () => {
    const require = createRequire(import.meta.url);
    expect(readFileSync(require.resolve('faultline/schema/events.v1.json'), 'utf8')).toBe(eventsJsonSchemaText());
  });
});
