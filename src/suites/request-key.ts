/**
 * A short key for a recorded (neutral, scrubbed) request: record stores what
 * the provider measured for each request the harness described, replay looks
 * the same request up by it. Scrubbed first, so a replay in another workspace
 * gets the same key.
 */
import { createHash } from 'node:crypto';
import type { RecordedRequest } from './exchange.js';

export function requestKey(request: RecordedRequest): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex').slice(0, 32);
}
