/**
 * @google/genai, loaded on first use: it is an optional peer dependency (only
 * the gemini wire needs it), so nothing imports it statically. Callers that
 * can fail early (the CLI, a model source opening a session) await
 * `loadGeminiSdk()` before the first call.
 */
import { GEMINI_SDK, loadPeer } from './optional-peer.js';

export type GeminiSdk = typeof import('@google/genai');

let loaded: GeminiSdk | undefined;

/** The SDK module; throws MissingPeerError (with the install command) when it is not installed. */
export async function loadGeminiSdk(): Promise<GeminiSdk> {
  loaded ??= await loadPeer(GEMINI_SDK, () => import('@google/genai'));
  return loaded;
}

/** The SDK if it was loaded already, else undefined (synchronous code cannot load it). */
export function loadedGeminiSdk(): GeminiSdk | undefined {
  return loaded;
}
