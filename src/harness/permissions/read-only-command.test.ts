import { describe, expect, it } from 'vitest';
import { isReadOnlyCommand, readOnlyVerdict } from './read-only-command.js';
import { analyzeShell } from './shell-analysis.js';

const yes = (cmds: string[]): void => {
  for (const c of cmds) expect(isReadOnlyCommand(c), c).toBe(true);
};
const no = (cmds: string[]): void => {
  for (const c of cmds) expect(isReadOnlyCommand(c), c).toBe(false);
};

describe('isReadOnlyCommand', () => {
  it('accepts the commands agents use to explore a repository', () => {
    yes(['ls', 'ls -la src', 'cat README.md', 'head -n 20 a.ts', 'tail -5 log', 'wc -l *.ts', 'grep -rn TODO src', 'rg foo', 'find . -name "*.ts"', 'echo hi', 'pwd', 'stat a', 'file a', 'diff a b', 'sort a | uniq -c', 'which node', 'env', 'cd src && ls', 'ls -la && wc -l *.ts', 'git log --oneline | head -5', 'ls 2>/dev/null', 'ls > /dev/null 2>&1', 'command -v git', 'timeout 5 cat a', 'find . -type f | xargs grep foo']);
  });

  it('judges every part of a compound command, so one writing part makes it not read-only', () => {
    no(['ls && rm -rf x', 'ls; touch a', 'cat a | tee b', 'ls || mv a b', 'ls & curl x']);
  });

  it('treats a write redirection as not read-only, except into /dev/null', () => {
    no(['cat a > b', 'echo x >> log', 'ls &> out', 'cat a > /etc/passwd']);
    yes(['cat a 2> /dev/null']);
  });

  it('treats substitutions, eval, pipes into shells and env tricks as not read-only', () => {
    no(['echo $(curl x)', 'echo `id`', 'cat <(ls)', 'eval ls', 'echo x | sh', 'export LD_PRELOAD=/x.so; ls', 'LD_PRELOAD=x ls', '$CMD', 'f() { ls; }; f']);
  });

  it('knows which git sub-commands are read-only', () => {
    yes(['git status', 'git log -p', 'git diff HEAD~1', 'git show abc', 'git branch', 'git branch -a', 'git rev-parse HEAD', 'git -C sub status', 'git --no-pager log', 'git config --get user.name', 'git stash list', 'git remote -v', 'git tag', 'git']);
    no(['git push', 'git push --force origin main', 'git commit -m x', 'git reset --hard', 'git checkout main', 'git clean -fdx', 'git branch new-feature', 'git branch -D old', 'git -c core.pager=evil log', 'git diff --output=x', 'git config user.name x', 'git stash', 'git tag v1', 'git fetch']);
  });

  it('knows which npm sub-commands are read-only', () => {
    yes(['npm ls', 'npm view zod version', 'npm outdated', 'npm config get registry', 'npm audit', 'npm --version']);
    no(['npm install', 'npm i zod', 'npm publish', 'npm run build', 'npm test', 'npm audit fix', 'npm version patch', 'npm exec x']);
  });

  it('knows which docker sub-commands are read-only', () => {
    yes(['docker ps -a', 'docker images', 'docker inspect c1', 'docker logs c1', 'docker image ls', 'docker stats --no-stream']);
    no(['docker run alpine', 'docker rm c1', 'docker rmi i', 'docker exec c1 sh', 'docker logs -f c1', 'docker image rm x', 'docker stats']);
  });

  it('rejects flags that make an otherwise read-only command write or execute', () => {
    no(['rg --pre ./x foo', 'sort --compress-program=sh a', 'file -C -m x', 'tree -o out', 'git diff --no-index /etc/passwd a', 'find . -delete', 'find . -exec rm {} \\;', 'find . -execdir sh -c x \\;', 'sort -o out a', 'sort -uo out a', 'uniq a out', 'tail -f log', 'date -s 2020-01-01', 'xxd -r a b']);
  });

  it('does not trust a command name given as a path outside the system bin directories', () => {
    yes(['/bin/ls', '/usr/bin/git status']);
    no(['./ls', 'tools/cat a', './time ls']);
  });

  it('rejects wrappers that change privileges or outlive the call', () => {
    no(['sudo ls', 'nohup ls', 'doas cat a']);
  });

  it('returns false for commands it cannot parse (fail closed)', () => {
    no(['echo "unterminated', 'ls |', 'ls @(a|b)', '']);
    const v = readOnlyVerdict(analyzeShell('echo "x'));
    expect(v.reason).toMatch(/could not be parsed/);
  });

  it('rejects unknown commands and names that exist on Object.prototype', () => {
    no(['make', 'python3 x.py', 'constructor', 'toString', '__proto__']);
  });
});
