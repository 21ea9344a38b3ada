// The file tools the third-party harnesses below give their agents, as a user of each library would write them:
// plain functions over the working directory (the lab runs each session in a fresh workspace).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export function readFile(path) {
  return readFileSync(join(process.cwd(), path), 'utf8');
}

export function listFiles(path = '.') {
  return readdirSync(join(process.cwd(), path || '.')).join('\n');
}

export function searchFiles(pattern, dir = process.cwd()) {
  const hits = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) hits.push(...searchFiles(pattern, full));
    else readFileSync(full, 'utf8').split('\n').forEach((line, i) => line.includes(pattern) && hits.push(`${relative(process.cwd(), full)}:${i + 1}: ${line}`));
  }
  return dir === process.cwd() ? hits.join('\n') : hits;
}

export const prompt = () => process.env.FAULTLINE_LAB_PROMPT ?? process.argv.slice(3).join(' ');
