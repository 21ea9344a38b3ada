/**
 * The doc comments written beside the zod schemas of the event catalog
 * (src/events/schemas.ts assembles it from the files below), by field, for
 * docs/event-contract.md. Read with the TypeScript parser (a dev
 * dependency, so this lives in scripts/, not in the published package).
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import type { FieldNotes } from '../src/events/contract-markdown.js';

/** The catalog's files: the shared fields, then each part of EVENT_SCHEMAS. */
const SCHEMA_FILES = ['schema-fields.ts', 'run-event-schemas.ts', 'tool-event-schemas.ts', 'check-event-schemas.ts'].map((f) => new URL(`../src/events/${f}`, import.meta.url));
/** A variable holding events by name: EVENT_SCHEMAS itself or one of its parts (RUN_EVENT_SCHEMAS, ...). */
const EVENT_MAP = /^(?:[A-Z]+_)?EVENT_SCHEMAS$/;

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

export function eventFieldNotes(sources: string | string[] = SCHEMA_FILES.map((f) => readFileSync(f, 'utf8'))): FieldNotes {
  const notes: Record<string, string> = {};
  for (const source of typeof sources === 'string' ? [sources] : sources) notesOf(source, notes);
  return notes;
}

function notesOf(source: string, notes: Record<string, string>): void {
  const file = ts.createSourceFile('schemas.ts', source, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node, event: string | undefined): void => {
    if (ts.isPropertyAssignment(node)) {
      const name = nameOf(node);
      const note = name === undefined ? undefined : docComment(node, source);
      const inEvents = event === '';
      if (name !== undefined && note) notes[inEvents ? name : `${event ?? '*'}.${name}`] = note;
      if (inEvents && name !== undefined) return ts.forEachChild(node, (child) => visit(child, name));
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && EVENT_MAP.test(node.name.text)) {
      return ts.forEachChild(node, (child) => visit(child, ''));
    }
    ts.forEachChild(node, (child) => visit(child, event));
  };
  visit(file, undefined);
}
