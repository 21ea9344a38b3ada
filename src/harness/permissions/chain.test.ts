import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPermission } from './chain.js';
import { SessionMemory } from './session-memory.js';
import type { ChainStep, HookDecision, PermissionConfig, PermissionRule, PermissionSubject } from './types.js';

let base: string;
let ws: string;
let cfg: PermissionConfig;

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), 'faultline-chain-'));
  ws = path.join(base, 'ws');
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  mkdirSync(path.join(base, 'outside'));
  writeFileSync(path.join(ws, 'README.md'), '# hi\n');
  symlinkSync(path.join(base, 'outside'), path.join(ws, 'escape'));
  cfg = { mode: 'default', headless: true, workspaceRoot: ws, homeDir: path.join(base, 'home') };
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const bash = (command: string): PermissionSubject => ({ tool: 'bash', input: { command }, readOnly: false, paths: [], command });
const write = (p: string): PermissionSubject => ({ tool: 'write', input: { path: p }, readOnly: false, paths: [{ path: p, access: 'write' }] });
const read = (p: string): PermissionSubject => ({ tool: 'read', input: { path: p }, readOnly: true, paths: [{ path: p, access: 'read' }] });
const run = (s: PermissionSubject, over: Partial<PermissionConfig> = {}, hook: HookDecision | null = null) => checkPermission(s, { ...cfg, ...over }, hook);
const off = (...steps: ChainStep[]): Partial<PermissionConfig> => ({ skipSteps: new Set(steps) });
const brief = (s: PermissionSubject, over: Partial<PermissionConfig> = {}, hook: HookDecision | null = null): string => {
  const r = run(s, over, hook);
  return `${r.decision}:${r.source}`;
};

describe('permission chain: shell commands', () => {
  it('judges every part of ls && rm -rf x: not read-only, so headless refuses it by default', () => {
    const r = run(bash('ls && rm -rf x'));
    expect([r.decision, r.source, r.neededPrompt]).toEqual(['deny', 'default', true]);
    expect(r.reason).toContain('rm');
    expect(brief(bash('ls && rm -rf x'), { rules: [{ id: 'no-rm', effect: 'deny', tool: 'bash', pattern: 'rm *' }] })).toBe('deny:deny_rule');
  });

  it('never lets an allow of ls* cover ls && rm -rf x, but does cover ls -la', () => {
    const rules: PermissionRule[] = [{ id: 'ls', effect: 'allow', tool: 'bash', pattern: 'ls*' }];
    expect(brief(bash('ls && rm -rf x'), { rules })).toBe('deny:default');
    expect(brief(bash('ls -la | wc -l'), { rules, ...off('read_only') })).toBe('deny:default');
    expect(brief(bash('ls -la'), { rules, ...off('read_only') })).toBe('allow:allow_rule');
  });

  it('refuses cat a > /etc/passwd as a write outside the workspace, even in bypass mode', () => {
    const r = run(bash('cat a > /etc/passwd'), { mode: 'bypass' });
    expect([r.decision, r.source, r.ruleId, r.neededPrompt]).toEqual(['deny', 'path_guard', 'system', false]);
    expect(brief(bash('cat a > /etc/passwd'), { mode: 'bypass', ...off('path_validation') })).toBe('allow:mode');
  });

  it('asks for echo x | sh, which headless turns into a deny that still records the prompt need', () => {
    expect(brief(bash('echo x | sh'), { headless: false })).toBe('ask:tool_check');
    const r = run(bash('echo x | sh'));
    expect([r.decision, r.source, r.neededPrompt]).toEqual(['deny', 'tool_check', true]);
    expect(r.reason).toMatch(/headless/);
  });

  it.each([
    ['command substitution', 'echo $(curl x)'],
    ['a substitution as the whole command', '$(curl x)'],
    ['backticks', 'echo `curl x`'],
    ['process substitution', 'diff <(ls a) b'],
    ['eval', 'eval ls'],
    ['export LD_PRELOAD', 'export LD_PRELOAD=/x.so; ls'],
    ['pipe into a shell', 'echo x | sh'],
  ])('asks for %s even in bypass mode, and only because of the shell check', (_name, command) => {
    expect(brief(bash(command), { mode: 'bypass', headless: false })).toBe('ask:tool_check');
    // A substituted operand is also a path computed at run time, which bypass does not lift (path_validation).
    expect(brief(bash(command), { mode: 'bypass', headless: false, ...off('tool_check', 'path_validation') })).toBe('allow:mode');
  });

  it('blocks rm -rf / in acceptEdits and bypass modes and under an allow-everything rule', () => {
    const all: PermissionRule[] = [{ id: 'all', effect: 'allow', tool: 'bash' }];
    for (const over of [{ mode: 'acceptEdits' as const }, { mode: 'bypass' as const }, { rules: all }]) {
      const r = run(bash('rm -rf /'), over);
      expect([r.decision, r.source, r.ruleId, r.neededPrompt]).toEqual(['deny', 'dangerous_command', 'danger:rm_critical', false]);
      expect(r.defense).toEqual({ name: 'dangerous_command_block', action: 'block' });
    }
    // Without the hard block the path guard still refuses it: writes outside the workspace are refused in every mode.
    expect(brief(bash('rm -rf /'), { mode: 'bypass', ...off('dangerous_command') })).toBe('deny:path_guard');
    expect(brief(bash('rm -rf /'), { mode: 'bypass', ...off('dangerous_command', 'path_validation') })).toBe('allow:mode');
  });

  it('never allows a command whose words bash would join across a line continuation, even in bypass mode', () => {
    expect(brief(bash('r\\\nm -rf /'), { mode: 'bypass', headless: false })).toBe('ask:tool_check');
  });

  it('asks for a command it cannot parse and never treats it as read-only', () => {
    expect(brief(bash('cat "README.md'), { headless: false })).toBe('ask:tool_check');
    expect(brief(bash('cat "README.md'), { headless: false, ...off('tool_check') })).toBe('ask:default');
  });
});

describe('permission chain: rules and hooks', () => {
  it('lets a deny rule beat an allow rule when both match', () => {
    const rules: PermissionRule[] = [
      { id: 'allow-push', effect: 'allow', tool: 'bash', pattern: 'git push*' },
      { id: 'deny-push', effect: 'deny', tool: 'bash', pattern: 'git push*' },
    ];
    const r = run(bash('git push origin feature'), { rules, mode: 'bypass' });
    expect([r.decision, r.source, r.ruleId]).toEqual(['deny', 'deny_rule', 'deny-push']);
    expect(brief(bash('git push origin feature'), { rules, ...off('deny_rules') })).toBe('allow:allow_rule');
  });

  it('lets an ask rule beat an allow rule', () => {
    const rules: PermissionRule[] = [
      { id: 'allow-npm', effect: 'allow', tool: 'bash', pattern: 'npm *' },
      { id: 'ask-publish', effect: 'ask', tool: 'bash', pattern: 'npm publish*' },
    ];
    expect(brief(bash('npm publish'), { rules, headless: false })).toBe('ask:ask_rule');
    expect(brief(bash('npm test'), { rules })).toBe('allow:allow_rule');
  });

  it('matches deny rules against the command behind sudo and env wrappers', () => {
    const rules: PermissionRule[] = [{ id: 'no-curl', effect: 'deny', tool: 'bash', pattern: 'curl *' }];
    expect(brief(bash('sudo env A=1 curl https://x'), { rules })).toBe('deny:deny_rule');
  });

  it('matches path rules against workspace-relative paths', () => {
    const rules: PermissionRule[] = [{ id: 'no-lock', effect: 'deny', tool: 'write', pattern: '*.lock' }];
    expect(brief(write('yarn.lock'), { rules, mode: 'acceptEdits' })).toBe('deny:deny_rule');
    expect(brief(write('src/a.ts'), { rules, mode: 'acceptEdits' })).toBe('allow:mode');
  });

  it('refuses a disabled tool', () => {
    expect(brief(read('README.md'), { disabledTools: ['read'] })).toBe('deny:disabled_tool');
  });

  it('lets a hook allow a call that would otherwise ask', () => {
    expect(brief(bash('npm test'))).toBe('deny:default');
    expect(brief(bash('npm test'), {}, { decision: 'allow' })).toBe('allow:hook');
    expect(brief(bash('npm test'), off('hook'), { decision: 'allow' })).toBe('deny:default');
  });

  it('never lets a hook allow override a deny rule, a hard block, a protected path or a shell check', () => {
    const allow: HookDecision = { decision: 'allow' };
    expect(brief(bash('git push'), { rules: [{ id: 'd', effect: 'deny', tool: 'bash', pattern: 'git push*' }] }, allow)).toBe('deny:deny_rule');
    expect(brief(bash('rm -rf ~'), {}, allow)).toBe('deny:dangerous_command');
    expect(brief(write('.git/hooks/pre-commit'), {}, allow)).toBe('deny:protected_path');
    expect(brief(bash('echo x | sh'), { headless: false }, allow)).toBe('ask:tool_check');
    expect(brief(bash('npm publish'), { headless: false, rules: [{ id: 'a', effect: 'ask', tool: 'bash', pattern: 'npm publish*' }] }, allow)).toBe('ask:ask_rule');
    expect(brief(bash('cat ~/.ssh/id_rsa'), {}, allow)).toBe('deny:path_guard');
  });

  it('lets a hook allow lift a soft path ask (reading outside the workspace)', () => {
    expect(brief(read('/etc/hosts'))).toBe('deny:path_guard');
    expect(brief(read('/etc/hosts'), {}, { decision: 'allow' })).toBe('allow:hook');
  });

  it('honours a hook deny', () => {
    expect(brief(read('README.md'), {}, { decision: 'deny', reason: 'policy' })).toBe('deny:hook');
  });
});

describe('permission chain: paths and modes', () => {
  it('refuses writing .git/hooks/pre-commit under bypass mode, an allow rule and a hook allow', () => {
    const rules: PermissionRule[] = [{ id: 'w', effect: 'allow', tool: 'write' }];
    const r = run(write('.git/hooks/pre-commit'), { mode: 'bypass', rules }, { decision: 'allow' });
    expect([r.decision, r.source, r.ruleId]).toEqual(['deny', 'protected_path', 'protected:git_hooks']);
    expect(r.defense).toEqual({ name: 'protected_path_guard', action: 'block' });
    expect(brief(bash('echo evil > .git/hooks/pre-commit'), { mode: 'bypass' })).toBe('deny:protected_path');
    expect(brief(write('.git/hooks/pre-commit'), { mode: 'bypass', ...off('protected_paths') })).toBe('allow:mode');
  });

  it('refuses a write through a symlink inside the workspace that points out of it', () => {
    expect(brief(write('escape/x.txt'), { mode: 'acceptEdits' })).toBe('deny:path_guard');
    expect(brief(bash('echo x > escape/x.txt'), { mode: 'bypass' })).toBe('deny:path_guard');
    expect(brief(write('escape/x.txt'), { mode: 'bypass', ...off('path_validation') })).toBe('allow:mode');
    // acceptEdits needs every path to pass the guard, so it stays closed even with the step off.
    expect(brief(write('escape/x.txt'), { mode: 'acceptEdits', ...off('path_validation') })).toBe('deny:default');
  });

  it('allows headless read-only work by the read-only list, and only by it', () => {
    for (const c of ['ls', 'git status', 'grep -r x .', 'cat README.md', 'git log --oneline | head -5']) {
      expect(brief(bash(c)), c).toBe('allow:read_only');
      expect(brief(bash(c), off('read_only')), c).toBe('deny:default');
    }
    expect(brief(read('README.md'))).toBe('allow:read_only');
    expect(brief({ tool: 'glob', input: { pattern: '**/*.ts' }, readOnly: true, paths: [{ path: '.', access: 'read' }] })).toBe('allow:read_only');
  });

  it('allows read-only git/npm/docker sub-commands headless and refuses the ones that change state', () => {
    for (const c of ['git status', 'git diff HEAD', 'npm ls', 'npm view zod', 'docker ps', 'docker images']) expect(brief(bash(c)), c).toBe('allow:read_only');
    for (const c of ['git push', 'git commit -m x', 'npm install', 'npm publish', 'docker run alpine', 'docker rm x']) expect(brief(bash(c)), c).toBe('deny:default');
  });

  it('does not auto-allow reading secrets or files outside the workspace, even with a read-only command', () => {
    expect(brief(bash('cat ~/.ssh/id_rsa'), { mode: 'bypass' })).toBe('deny:path_guard');
    expect(brief(read('.env'))).toBe('deny:path_guard');
    expect(brief(bash('cat /etc/hosts'))).toBe('deny:path_guard');
    expect(brief(bash('cd /etc && cat hosts'))).toBe('deny:path_guard');
    expect(brief(bash('cat /etc/hosts'), { mode: 'bypass' })).toBe('allow:mode');
    expect(brief(read('/etc/hosts'), { rules: [{ id: 'r', effect: 'allow', tool: 'read', pattern: '/etc/*' }] })).toBe('allow:allow_rule');
  });

  it('denies changes in plan mode and still allows reading', () => {
    expect(brief(write('src/a.ts'), { mode: 'plan' })).toBe('deny:mode');
    expect(brief(bash('npm install'), { mode: 'plan' })).toBe('deny:mode');
    expect(brief(bash('git status'), { mode: 'plan' })).toBe('allow:read_only');
  });

  it('allows file edits inside the workspace in acceptEdits mode, but not shell commands', () => {
    expect(brief(write('src/a.ts'), { mode: 'acceptEdits' })).toBe('allow:mode');
    expect(brief(write('src/a.ts'))).toBe('deny:default');
    expect(brief(bash('touch src/a.ts'), { mode: 'acceptEdits' })).toBe('deny:default');
  });

  it('remembers a human approval for exactly the same tool and input', () => {
    const sessionMemory = new SessionMemory();
    sessionMemory.remember('bash', { command: 'npm test' });
    expect(brief(bash('npm test'), { sessionMemory })).toBe('allow:session_memory');
    expect(brief(bash('npm test -- --watch'), { sessionMemory })).toBe('deny:default');
  });

  it('reports neededPrompt only when the chain itself answered ask', () => {
    expect(run(bash('ls')).neededPrompt).toBe(false);
    expect(run(bash('rm -rf /')).neededPrompt).toBe(false);
    expect(run(bash('npm test'), { headless: false }).neededPrompt).toBe(true);
    expect(run(bash('npm test'), { headless: false }).decision).toBe('ask');
  });
});

describe('permission chain: code faultline cannot see', () => {
  it('does not let bypass run a script, inline code or an unknown program without the OS sandbox; the sandbox or explicit consent does', () => {
    for (const c of ['node s.js', 'make', 'python3 -c "print(1)"', 'bash build.sh', 'sed -f s.sed a.txt', 'npm test', 'tar xf a.tar']) {
      const r = run(bash(c), { mode: 'bypass', headless: false });
      expect(`${r.decision}:${r.source}:${r.ruleId}`, c).toBe('ask:mode:unseen_code');
      expect(r.reason, c).toMatch(/runs (a script whose commands|code whose effects) faultline cannot see/);
      expect(brief(bash(c), { mode: 'bypass', sandboxed: true }), c).toBe('allow:mode');
    }
    expect(brief(bash('make'), { mode: 'bypass', rules: [{ id: 'make', effect: 'allow', tool: 'bash', pattern: 'make*' }] })).toBe('allow:allow_rule');
    // Commands whose effects it does see still run in bypass: git, writers judged by operand, a shell's -c script.
    for (const c of ['git commit -m x', 'mkdir build && cp a.txt build/', "bash -c 'touch x'"]) expect(brief(bash(c), { mode: 'bypass' }), c).toBe('allow:mode');
  });
});

describe('permission chain: git running programs', () => {
  it('refuses git options and sub-commands that run a program named in the call, even in bypass mode', () => {
    for (const c of ["git ls-remote --upload-pack='sh x;' .", "git fetch --upl='sh x' .", 'git rebase -ix "sh x" HEAD~2', "git clone -c core.sshCommand='sh x' u d", 'git bisect run sh x', "git submodule foreach 'sh x'", 'git push --rec=x o']) {
      expect(brief(bash(c), { mode: 'bypass' }), c).toBe('deny:tool_check');
    }
    for (const c of ['git fetch origin', 'git rebase -i HEAD~2', 'git clone -c user.name=x u d', 'git push origin feature', 'git rebase -Xours main']) {
      expect(brief(bash(c), { mode: 'bypass' }), c).toBe('allow:mode');
    }
  });
});

describe('permission chain: globs', () => {
  it('judges the files a glob matches, so cat .env* cannot read secrets as a read-only command', () => {
    writeFileSync(path.join(ws, '.env.local'), 'SECRET=1');
    try {
      expect(brief(bash('cat .env*'))).toBe('deny:path_guard');
      expect(brief(bash('cat .e?v.local'))).toBe('deny:path_guard');
      expect(brief(bash('cat *.md'))).toBe('allow:read_only');
    } finally {
      rmSync(path.join(ws, '.env.local'));
    }
    expect(brief(bash('cat .env*'))).toBe('allow:read_only');
  });

  it('expands no glob after shopt changes globbing, and keeps a glob it cannot expand a firm ask that bypass does not lift', () => {
    expect(brief(bash('shopt -s nocaseglob; cat ESC[A]PE/x'), { mode: 'bypass' })).toBe('deny:path_guard');
    expect(brief(bash('cat e[[=s=]]cape/x'), { mode: 'bypass' })).toBe('deny:path_guard');
    expect(brief(bash('shopt -s nocaseglob; cat README.md'), { mode: 'bypass' })).toBe('allow:mode');
  });

  it('refuses a command the parser would split or join differently from bash', () => {
    for (const c of ['cat e[\\s]cape/x', 'cat \\ x', 'echo { }']) expect(brief(bash(c), { mode: 'bypass' }), c).toBe('deny:tool_check');
  });
});

describe('permission chain: working directories', () => {
  it('judges a relative path from every directory a compound command may be in, each cd composed with the ones before', () => {
    mkdirSync(path.join(ws, 'lib'), { recursive: true });
    symlinkSync(path.join(base, 'outside'), path.join(ws, 'lib', 'door'));
    expect(brief(bash('cd lib && cd door && cat x.txt'))).toBe('deny:path_guard');
    expect(brief(bash('cd lib && cat x.txt'))).toBe('allow:read_only');
  });

  it('treats a cd target that bash computes (~-, ~+, a glob) as unknown, and says the directory is the problem', () => {
    for (const c of ['cd ~- && cat x.txt', 'cd ~+/lib && cat x.txt', 'cd l* && cat x.txt', 'env -C l* cat x.txt']) {
      const r = run(bash(c));
      expect(`${r.decision}:${r.source}`, c).toBe('deny:path_guard');
      expect(r.reason, c).toMatch(/relative to a directory only known when the command runs/);
    }
    expect(brief(bash('cat ~-/x.txt'))).toBe('deny:path_guard');
  });
});

describe('permission chain: refusal text', () => {
  it('names both reasons when a command is not read-only and also reads outside the workspace', () => {
    const r = run(bash('cp ../outside/x.txt copy.txt'), { mode: 'acceptEdits' });
    expect(r.reason).toMatch(/outside the workspace\. Besides, this call needs approval because `cp` changes files/);
    expect(run(bash('cat ../outside/x.txt')).reason).not.toMatch(/Besides/);
  });

  it('judges /proc/self/cwd as the working directory of bash, not of the harness', () => {
    expect(brief(bash('cd escape && cat /proc/self/cwd/x.txt'))).toBe('deny:path_guard');
    expect(run(bash('cat /proc/self/cwd/README.md')).reason).toBe('');
    expect(brief(bash('cat /proc/1/cwd/x'), { mode: 'bypass' })).toBe('deny:path_guard');
  });
});

describe('permission chain: defense accounting', () => {
  it('reports which defenses were evaluated, apart from which one triggered', () => {
    const ls = run(bash('ls'));
    expect(ls.evaluatedDefenses).toEqual(['dangerous_command_block', 'protected_path_guard']);
    expect(ls.defense).toBeNull();
    expect(run(read('README.md')).evaluatedDefenses).toEqual(['protected_path_guard']);
    const denied = run(bash('rm -rf /'), { rules: [{ id: 'd', effect: 'deny', tool: 'bash' }] });
    expect(denied.evaluatedDefenses).toEqual([]);
  });
});
