/**
 * Server-side state of the Responses API, per mock session: every stored
 * response's full item history (its input, resolved, plus its output), so a
 * request with `previous_response_id` continues it, and the output items the
 * mock emitted, so `item_reference` resolves and a `function_call` sent back by
 * id must bring its `reasoning` item along (the API's rule for reasoning models).
 */
import type { JsonObject } from './json-shape.js';

export interface EmittedItem {
  item: JsonObject;
  /** The reasoning item emitted just before this one in the same response, if any. */
  reasoningId: string | null;
  /** For a reasoning item: the item emitted right after it. */
  nextId: string | null;
}

export class ResponseStore {
  private readonly responses = new Map<string, JsonObject[]>();
  private readonly items = new Map<string, EmittedItem>();

  history(responseId: string): JsonObject[] | null {
    return this.responses.get(responseId) ?? null;
  }

  emitted(itemId: string): EmittedItem | null {
    return this.items.get(itemId) ?? null;
  }

  /** Remember a response: `store` false keeps only its items (the API still knows what it sent), not the history. */
  save(responseId: string, input: JsonObject[], output: JsonObject[], store: boolean): void {
    output.forEach((item, i) => {
      const prev = output[i - 1];
      const reasoningId = prev?.['type'] === 'reasoning' ? String(prev['id']) : null;
      const next = output[i + 1];
      this.items.set(String(item['id']), { item, reasoningId, nextId: item['type'] === 'reasoning' && next ? String(next['id']) : null });
    });
    if (store) this.responses.set(responseId, [...input, ...output]);
  }
}
