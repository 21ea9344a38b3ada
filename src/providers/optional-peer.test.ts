import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GEMINI_SDK, isPackageMissing, loadPeer, loadPeerSync, MissingPeerError, MSW, VITEST } from './optional-peer.js';

const manifest = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** A real "not installed" error from Node's loaders (not one made up to match the check). */
async function importError(name: string): Promise<unknown> {
  return import(/* @vite-ignore */ name).then(
    () => null,
    (e: unknown) => e,
  );
}
function requireError(name: string): unknown {
  try {
    createRequire(import.meta.url)(name);
    return null;
  } catch (e) {
    return e;
  }
}

describe('optional peers', () => {
  it.each([GEMINI_SDK, MSW])('$name: an optional peer, out of dependencies, the version in the error pinned as the devDependency', (peer) => {
    expect(manifest.dependencies[peer.name]).toBeUndefined();
    expect(manifest.devDependencies[peer.name]).toBe(peer.version);
    expect(manifest.peerDependencies[peer.name]).toBe(`^${peer.version}`);
    expect(manifest.peerDependenciesMeta[peer.name]?.optional).toBe(true);
  });

  it('vitest: an optional peer with a range (faultline/vitest follows its Matchers interface), the error naming the devDependency', () => {
    expect(manifest.dependencies[VITEST.name]).toBeUndefined();
    expect(manifest.devDependencies[VITEST.name]).toBe(VITEST.version);
    expect(manifest.peerDependenciesMeta[VITEST.name]?.optional).toBe(true);
  });

  it('a package that is not installed (import and require) becomes a MissingPeerError naming the install command', async () => {
    const peer = { name: '@faultline-test/not-installed', version: '1.2.3', usedBy: 'the test feature' };
    const viaImport = await loadPeer(peer, () => import(/* @vite-ignore */ peer.name)).catch((e: unknown) => e);
    expect(viaImport).toBeInstanceOf(MissingPeerError);
    expect((viaImport as Error).message).toBe('the test feature needs the optional peer dependency @faultline-test/not-installed, which is not installed; install it with: npm i -D @faultline-test/not-installed@1.2.3');
    const viaRequire = (() => {
      try {
        return loadPeerSync(peer, () => createRequire(import.meta.url)(`${peer.name}/sub`));
      } catch (e) {
        return e;
      }
    })();
    expect(viaRequire).toBeInstanceOf(MissingPeerError);
  });

  it('a peer that is there but misses one of its own dependencies is not reported as the peer missing', async () => {
    const other = await importError('@faultline-test/a-dependency-of-the-peer');
    expect(other).toBeInstanceOf(Error);
    expect(isPackageMissing(other, '@faultline-test/not-installed')).toBe(false);
    expect(isPackageMissing(other, '@faultline-test/a-dependency-of-the-peer')).toBe(true);
    expect(isPackageMissing(requireError('msw-but-not-msw'), 'msw')).toBe(false);
    await expect(loadPeer(MSW, () => Promise.reject(other))).rejects.toBe(other);
    expect(isPackageMissing(new Error("Cannot find package 'msw'"), 'msw')).toBe(false);
  });

  it('the installed peers load (this repository has them as devDependencies)', async () => {
    await expect(loadPeer(GEMINI_SDK, () => import('@google/genai'))).resolves.toHaveProperty('GoogleGenAI');
    expect(loadPeerSync(MSW, () => createRequire(import.meta.url)('msw') as typeof import('msw'))).toHaveProperty('http');
  });
});
