#!/usr/bin/env node
import { run } from './program.js';

// Not a top-level await: the built CLI is a CommonJS bundle, loaded from V8's code cache (scripts/bundle-cli.mjs).
void run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
