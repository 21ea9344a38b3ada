/**
 * docs/harness-rules.md#false-positive-detector: loop detection by call shape — the same tool with the same
 * argument keys and different values, many times in a row. Shape cannot tell
 * a spin from a systematic search (grep for six symbols has the same shape),
 * so it is off by default and only alerts: a broad rule may report, never
 * act. The window is wide (8 of the last 10 calls), wide enough that
 * ordinary exploration (grep for six symbols in a row) stays under it.
 */
import { stableStringify } from '../permissions/session-memory.js';
import { defineDefense } from './define.js';

export const SHAPE_WINDOW = 10;
export const SHAPE_THRESHOLD = 8;

function shapeOf(tool: string, input: unknown): string {
  const keys = input !== null && typeof input === 'object' && !Array.isArray(input) ? Object.keys(input).sort() : [];
  return `${tool}(${keys.join(',')})`;
}

export const shapeLoop = defineDefense({
  name: 'shape_loop',
  guards: 'the same tool with the same argument keys and different values over and over (a spin that varies its arguments); alert only',
  source: 'docs/harness-rules.md#false-positive-detector (loop-detection: shape false-positive rate ~100%, off by default; broad rules alert, never act)',
  defaultOn: false,
  action: 'alert',
  session() {
    let window: Array<{ shape: string; values: string }> = [];
    return {
      afterToolCall(call) {
        window.push({ shape: shapeOf(call.tool, call.input), values: stableStringify(call.input) });
        if (window.length > SHAPE_WINDOW) window.shift();
        const shape = window[window.length - 1]!.shape;
        const same = window.filter((c) => c.shape === shape);
        if (same.length < SHAPE_THRESHOLD || new Set(same.map((c) => c.values)).size < 2) return null;
        window = []; // one alert per run of the pattern
        return { alert: `${same.length} of the last ${SHAPE_WINDOW} calls were ${shape} with varying values` };
      },
    };
  },
});
