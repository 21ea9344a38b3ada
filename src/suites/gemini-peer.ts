/**
 * The gemini wire needs @google/genai, an optional peer dependency. A command
 * asks here, before it writes anything, whether its tasks need the SDK and
 * whether it is installed, so a missing SDK is one clear usage error (with the
 * install command) instead of a failure inside every gemini session.
 */
import { loadGeminiSdk } from '../providers/gemini-sdk.js';
import { MissingPeerError } from '../providers/optional-peer.js';
import type { LoadedTask } from './load-suite.js';
import { taskWire } from './wire-pins.js';

type Wire = Parameters<typeof taskWire>[1];

/** The tasks the mock runs on the gemini wire when the run asks for `wanted`. */
export function geminiTasks<T extends Pick<LoadedTask, 'wire' | 'wires'>>(tasks: readonly T[], wanted?: Wire): T[] {
  return tasks.filter((t) => taskWire(t, wanted) === 'gemini');
}

/** Null when the SDK loads, else the MissingPeerError that says how to install it. Other load errors are thrown. */
export async function geminiSdkMissing(): Promise<MissingPeerError | null> {
  try {
    await loadGeminiSdk();
    return null;
  } catch (error) {
    if (error instanceof MissingPeerError) return error;
    throw error;
  }
}
