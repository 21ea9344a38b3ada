import { describe, expect, it, vi } from 'vitest';
import { chooseWorkspaceTmpfs, mountAt, TMPFS_MAGIC, type ShmFacts, type TmpfsInputs } from './workspace-tmpfs.js';

const GiB = 1024 ** 3;
const MOUNTS = [
  '24 27 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw,size=12334792k,mode=755',
  '25 24 0:23 / /dev/shm rw,nosuid,nodev,relatime - tmpfs tmpfs rw,size=24683784k',
  '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
].join('\n');

const facts = (over: Partial<ShmFacts> = {}): ShmFacts => ({
  mountinfo: MOUNTS,
  statfs: { type: TMPFS_MAGIC, bavail: (4 * GiB) / 4096, bsize: 4096 },
  writable: true,
  memoryLimit: null,
  ...over,
});

function inputs(over: Partial<TmpfsInputs> = {}): TmpfsInputs {
  return {
    env: { HOME: '/root', PATH: '/usr/bin' },
    platform: 'linux',
    workspaceDirGiven: false,
    keepWorkspaces: false,
    writes: () => ({ unbounded: null, largestTaskBytes: 600 }),
    concurrency: 32,
    shm: () => facts(),
    ...over,
  };
}

describe('the tmpfs workspace rule', () => {
  it('chooses /dev/shm when the user chose nothing, every task is bounded and the tmpfs has room', () => {
    const choice = chooseWorkspaceTmpfs(inputs());
    expect(choice).toEqual({ dir: '/dev/shm', reason: 'workspaces on /dev/shm: a tmpfs with 4096 MiB free, and every task writes only through the file tools' });
  });

  it('leaves a choice of the user alone, and reads nothing of /dev/shm then', () => {
    const cases: [Partial<TmpfsInputs>, string][] = [
      [{ workspaceDirGiven: true }, '--workspace-dir chooses'],
      [{ env: { TMPDIR: '/tmp' } }, 'TMPDIR is set'],
      [{ env: { TMP: '/var/tmp' } }, 'TMP is set'],
      [{ env: { TEMP: '' } }, 'TEMP is set'],
      [{ keepWorkspaces: true }, 'kept workspaces belong on disk'],
      [{ platform: 'darwin' }, 'not Linux (darwin)'],
      [{ writes: () => ({ unbounded: 's/t1 has the bash tool', largestTaskBytes: 10 }) }, 's/t1 has the bash tool, which can write without bound'],
    ];
    for (const [over, why] of cases) {
      const shm = vi.fn(facts);
      const writes = vi.fn(over.writes ?? (() => ({ unbounded: null, largestTaskBytes: 1 })));
      expect(chooseWorkspaceTmpfs(inputs({ ...over, writes, shm }))).toEqual({ dir: null, reason: `workspaces in the temp directory: ${why}` });
      expect(shm).not.toHaveBeenCalled();
      // The tasks are summed only once the user's choices allow the tmpfs.
      expect(writes).toHaveBeenCalledTimes(over.writes ? 1 : 0);
    }
  });

  it('refuses a /dev/shm that is not a tmpfs mount, is noexec or is not writable', () => {
    const cases: [Partial<ShmFacts>, string][] = [
      [{ mountinfo: null }, '/dev/shm is not a mount point'],
      [{ mountinfo: MOUNTS.split('\n')[0]! }, '/dev/shm is not a mount point'],
      [{ mountinfo: MOUNTS.replace('- tmpfs tmpfs', '- ext4 /dev/vdb') }, '/dev/shm is not a tmpfs'],
      [{ statfs: { type: 0xef53, bavail: GiB, bsize: 4096 } }, '/dev/shm is not a tmpfs'],
      [{ statfs: null }, '/dev/shm is not a tmpfs'],
      [{ mountinfo: MOUNTS.replace('rw,nosuid,nodev,relatime', 'rw,nosuid,nodev,noexec,relatime') }, '/dev/shm is mounted noexec'],
      [{ writable: false }, '/dev/shm is not writable by this user'],
    ];
    for (const [over, why] of cases) {
      expect(chooseWorkspaceTmpfs(inputs({ shm: () => facts(over) }))).toEqual({ dir: null, reason: `workspaces in the temp directory: ${why}` });
    }
  });

  it('asks for 1 GiB free and for the largest task x -j x 4: a container\'s 64 MB /dev/shm never qualifies', () => {
    const free = (bytes: number) => () => facts({ statfs: { type: TMPFS_MAGIC, bavail: bytes / 4096, bsize: 4096 } });
    expect(chooseWorkspaceTmpfs(inputs({ shm: free(64 * 1024 ** 2) })).reason).toBe('workspaces in the temp directory: /dev/shm has 64 MiB free, less than 1024 MiB');
    expect(chooseWorkspaceTmpfs(inputs({ shm: free(GiB) })).dir).toBe('/dev/shm');
    // 16 MiB a task at -j 32, x 4: 2 GiB.
    const big = () => ({ unbounded: null, largestTaskBytes: 16 * 1024 ** 2 });
    expect(chooseWorkspaceTmpfs(inputs({ writes: big, shm: free(2 * GiB - 4096) })).reason).toBe(
      'workspaces in the temp directory: /dev/shm has 2047 MiB free, less than 2048 MiB',
    );
    expect(chooseWorkspaceTmpfs(inputs({ writes: big, shm: free(2 * GiB) })).dir).toBe('/dev/shm');
  });
});

describe('the tmpfs workspace rule under a memory limit', () => {
  it('asks that the largest task x -j x 4 be at most a quarter of the limit (a tmpfs page is charged to it)', () => {
    const MiB = 1024 ** 2;
    // 1 MiB a task at -j 32, x 4: 128 MiB in flight.
    const writes = () => ({ unbounded: null, largestTaskBytes: MiB });
    const limited = (limit: number) => () => facts({ memoryLimit: limit });
    expect(chooseWorkspaceTmpfs(inputs({ writes, shm: limited(512 * MiB - 1) })).reason).toBe(
      'workspaces in the temp directory: the process may use 511 MiB of memory, less than 4 x the 128 MiB its workspaces may hold',
    );
    expect(chooseWorkspaceTmpfs(inputs({ writes, shm: limited(512 * MiB) })).dir).toBe('/dev/shm');
    // The bench's tasks (about 600 bytes) fit any container.
    expect(chooseWorkspaceTmpfs(inputs({ shm: limited(256 * MiB) })).dir).toBe('/dev/shm');
  });
});

describe('mountAt', () => {
  it('takes the last mount at the point (it hides the ones before), with its per-mount options and type', () => {
    const text = `${MOUNTS}\n30 25 0:27 / /dev/shm rw,noexec,relatime shared:5 - tmpfs shm rw,size=65536k`;
    expect(mountAt(text, '/dev/shm')).toEqual({ fstype: 'tmpfs', options: ['rw', 'noexec', 'relatime'] });
  });

  it('reads an escaped mount point and skips lines it cannot read', () => {
    expect(mountAt('garbage\n40 1 0:50 / /mnt/a\\040b rw - tmpfs x rw', '/mnt/a b')).toEqual({ fstype: 'tmpfs', options: ['rw'] });
    expect(mountAt('40 1 0:50 / /dev/shm rw', '/dev/shm')).toBeNull();
  });
});
