import { describe, expect, it } from 'vitest';
import { sedScriptEffects } from './sed-script.js';

describe('sed script effects', () => {
  it('finds files written by w, W and the s///w flag, files read by r and R, and commands run by e', () => {
    expect(sedScriptEffects('s/a/b/w /tmp/out')).toEqual({ writes: ['/tmp/out'], reads: [], runs: false });
    expect(sedScriptEffects('1,3W log.txt')).toMatchObject({ writes: ['log.txt'] });
    expect(sedScriptEffects('/x/r /etc/passwd')).toMatchObject({ reads: ['/etc/passwd'] });
    expect(sedScriptEffects('s/x/date/e')).toMatchObject({ runs: true });
    expect(sedScriptEffects('e touch x')).toMatchObject({ runs: true });
  });

  it('sees nothing in ordinary scripts with e, r and w letters in their patterns', () => {
    expect(sedScriptEffects('s/hello world/red wine/g; /error/d; 2p')).toEqual({ writes: [], reads: [], runs: false });
    expect(sedScriptEffects('s|/usr/bin|/opt/bin|')).toEqual({ writes: [], reads: [], runs: false });
  });

  it('returns null for a script it cannot read, which the caller treats as opaque code', () => {
    expect(sedScriptEffects('s/unterminated')).toBeNull();
    expect(sedScriptEffects('k')).toBeNull();
  });
});
