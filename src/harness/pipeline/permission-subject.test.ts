import { describe, expect, it } from 'vitest';
import { FAULT_TOOLS } from '../tools/fault-tools.js';
import { builtinTools } from '../tools/builtin.js';
import { ToolRegistry } from '../tools/registry.js';
import { deepEqual } from '../hooks/deep-equal.js';
import { BUILTIN_SUBJECTS, permissionSubject } from './permission-subject.js';

const PATH_FIELDS = ['file_path', 'path', 'paths', 'command'];

describe('permission subjects', () => {
  it('covers exactly the built-in tools that take a path or a command (both directions, so a new tool cannot slip past the path guard)', () => {
    const tools = [...builtinTools(), ...FAULT_TOOLS];
    const registry = new ToolRegistry(tools);
    const takesPaths = tools
      .filter((t) => Object.keys((registry.jsonSchema(t.name).properties ?? {}) as object).some((k) => PATH_FIELDS.includes(k)))
      .map((t) => t.name);
    const described = tools.filter((t) => BUILTIN_SUBJECTS[t.name] || t.accessedPaths).map((t) => t.name);
    expect(described.sort()).toEqual(takesPaths.sort());
    expect(Object.keys(BUILTIN_SUBJECTS).every((name) => tools.some((t) => t.name === name))).toBe(true);
  });

  it('describes a missing optional directory as the workspace root and a bash call by its command', () => {
    const [ls, bash, edit] = ['ls', 'bash', 'edit'].map((n) => builtinTools().find((t) => t.name === n)!);
    expect(permissionSubject(ls!, {}).paths).toEqual([{ path: '.', access: 'read' }]);
    expect(permissionSubject(bash!, { command: 'ls' })).toMatchObject({ command: 'ls', paths: [] });
    expect(permissionSubject(edit!, { file_path: 'a.ts', old_string: 'x', new_string: 'y' }).paths).toEqual([{ path: 'a.ts', access: 'write' }]);
  });
});

describe('deepEqual (the modified-input notice test)', () => {
  it('treats a fresh object with the same content as equal, whatever the key order', () => {
    expect(deepEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(deepEqual({ a: 1, u: undefined }, { a: 1 })).toBe(true);
  });

  it('tells real changes apart, including nested ones and array vs object', () => {
    expect(deepEqual({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
    expect(deepEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(deepEqual('1', 1)).toBe(false);
  });
});
