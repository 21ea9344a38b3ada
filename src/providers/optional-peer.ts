/**
 * Optional peer dependencies: packages only one feature needs, kept out of a
 * plain install (package.json `peerDependenciesMeta`, optional) and loaded
 * when that feature starts. A missing one is bad usage, not a crash: the
 * error names the package, the exact version faultline is tested with, and
 * the command that installs it.
 */
export interface OptionalPeer {
  /** The npm package name, as in package.json. */
  name: string;
  /** The exact version faultline pins for its own tests (its devDependency). */
  version: string;
  /** What needs it, for the error message. */
  usedBy: string;
}

export const GEMINI_SDK: OptionalPeer = {
  name: '@google/genai',
  version: '2.32.0',
  usedBy: 'the gemini wire (--wire gemini, --provider gemini, or a task with `wire: gemini`)',
};

export const MSW: OptionalPeer = {
  name: 'msw',
  version: '2.15.0',
  usedBy: "faultline's msw mount (faultline/msw: mockHandlers, mountMockServer)",
};

export const VITEST: OptionalPeer = {
  name: 'vitest',
  version: '4.1.12',
  usedBy: 'faultline/vitest (the matchers registered with vitest; other runners: faultlineMatchers from faultline/testing)',
};

/** An optional peer a feature needs is not installed. The CLI turns it into exit 2. */
export class MissingPeerError extends Error {
  readonly code = 'MISSING_PEER';
  constructor(
    readonly peer: OptionalPeer,
    cause?: unknown,
  ) {
    super(`${peer.usedBy} needs the optional peer dependency ${peer.name}, which is not installed; install it with: npm i -D ${peer.name}@${peer.version}`, { cause });
    this.name = 'MissingPeerError';
  }
}

/**
 * True when `error` says the package itself cannot be found (ESM: "Cannot find
 * package 'x'", CommonJS: "Cannot find module 'x'"). A package that is there
 * but lacks one of its own dependencies is a different fault and is rethrown.
 */
export function isPackageMissing(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return new RegExp(`Cannot find (?:package|module) '${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?:/[^']*)?'`).test(error.message);
}

/** Runs `load`; a missing `peer` becomes a MissingPeerError, anything else is rethrown. */
export async function loadPeer<T>(peer: OptionalPeer, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isPackageMissing(error, peer.name)) throw new MissingPeerError(peer, error);
    throw error;
  }
}

/** The synchronous form, for an API that cannot become async (a `require` of the peer). */
export function loadPeerSync<T>(peer: OptionalPeer, load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (isPackageMissing(error, peer.name)) throw new MissingPeerError(peer, error);
    throw error;
  }
}
