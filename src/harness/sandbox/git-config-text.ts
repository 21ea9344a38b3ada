/**
 * The text of a git config file, read for the settings that make git run a program (git-state.ts undoes the ones
 * a call added). Pure text: where the file is and whether it may be written is git-state.ts's business.
 */

/**
 * Settings that make git run a program or use code from elsewhere: hooks, fsmonitor, pagers and editors,
 * ssh and askpass, diff/merge/filter drivers, credential helpers, gpg, shell aliases, included config
 * files, remote upload/receive programs, a worktree elsewhere.
 */
function isProgramSetting(section: string, sub: string | null, key: string, value: string): boolean {
  switch (section) {
    case 'core':
      return ['fsmonitor', 'hookspath', 'sshcommand', 'pager', 'editor', 'askpass', 'gitproxy', 'alternaterefscommand', 'worktree'].includes(key);
    case 'sequence':
      return key === 'editor';
    case 'diff':
      return key === 'external' || (sub !== null && (key === 'textconv' || key === 'command'));
    case 'difftool':
    case 'mergetool':
      return key === 'cmd';
    case 'merge':
      return sub !== null && key === 'driver';
    case 'filter':
      return key === 'clean' || key === 'smudge' || key === 'process';
    case 'credential':
      return key === 'helper';
    case 'gpg':
      return key === 'program';
    case 'pager':
      return true;
    case 'alias':
      return value.trimStart().startsWith('!');
    case 'include':
    case 'includeif':
      return key === 'path';
    case 'remote':
      return key === 'uploadpack' || key === 'receivepack';
    case 'uploadpack':
      return key === 'packobjectshook';
    case 'protocol':
      return key === 'allow';
    default:
      return false;
  }
}

interface ParsedLine {
  readonly setting: string | null;
}

export function parseConfig(text: string): { lines: string[]; parsed: ParsedLine[]; hooksPath: string | null } {
  const lines = text.split('\n');
  const parsed: ParsedLine[] = [];
  let section = '';
  let sub: string | null = null;
  let hooksPath: string | null = null;
  for (const raw of lines) {
    const line = raw.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    let rest = line;
    if (head) {
      const name = (head[1] as string).toLowerCase();
      const dot = name.indexOf('.');
      section = dot === -1 ? name : name.slice(0, dot);
      sub = head[2] ?? (dot === -1 ? null : name.slice(dot + 1));
      rest = (head[3] ?? '').trim();
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(rest);
    if (!kv || rest.startsWith('#') || rest.startsWith(';')) {
      parsed.push({ setting: null });
      continue;
    }
    const key = (kv[1] as string).toLowerCase();
    const value = (kv[2] ?? '').trim();
    if (section === 'core' && key === 'hookspath') hooksPath = unquote(value);
    parsed.push({ setting: isProgramSetting(section, sub, key, value) ? `${section}${sub !== null ? `.${sub}` : ''}.${key}=${value}` : null });
  }
  return { lines, parsed, hooksPath };
}

function unquote(v: string): string {
  const noComment = v.replace(/\s+[#;].*$/, '');
  return noComment.length >= 2 && noComment.startsWith('"') && noComment.endsWith('"') ? noComment.slice(1, -1) : noComment;
}
