/**
 * The doc comments written beside the zod schemas in src/events/schemas.ts, by
 * field, for docs/event-contract.md. Read with the TypeScript parser (a dev
 * dependency, so this lives in scripts/, not in the published package).
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import type { FieldNotes } from '../src/events/contract-markdown.js';

const SCHEMAS = new URL('../src/events/schemas.ts', import.meta.url);

/** The last `/** ... *\/` comment in the trivia before a node (on its own line or on the same line). */
function docComment(node: ts.Node, text: string): string | undefined {
  const trivia = text.slice(node.getFullStart(), node.getStart());
  const match = /\/\*\*([\s\S]*?)\*\/(?![\s\S]*\/\*\*)/.exec(trivia);
  if (!match) return undefined;
  return match[1]!
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const nameOf = (node: ts.PropertyAssignment) => (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : undefined);

export function eventFieldNotes(source = readFileSync(SCHEMAS, 'utf8')): FieldNotes {
  const file = ts.createSourceFile('schemas.ts', source, ts.ScriptTarget.Latest, true);
  const notes: Record<string, string> = {};
  const visit = (node: ts.Node, event: string | undefined): void => {
    if (ts.isPropertyAssignment(node)) {
      const name = nameOf(node);
      const note = name === undefined ? undefined : docComment(node, source);
      const inEvents = event === '';
      if (name !== undefined && note) notes[inEvents ? name : `${event ?? '*'}.${name}`] = note;
      if (inEvents && name !== undefined) return ts.forEachChild(node, (child) => visit(child, name));
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === 'EVENT_SCHEMAS') {
      return ts.forEachChild(node, (child) => visit(child, ''));
    }
    ts.forEachChild(node, (child) => visit(child, event));
  };
  visit(file, undefined);
  return notes;
}
