#!/usr/bin/env node
import { lowerBackgroundThreads } from './background-priority.js';
import { keepRunningWhenOutputCloses } from './closed-output.js';
import { run } from './program.js';

// V8's background threads yield the CPU to the main one (background-priority.ts says why).
lowerBackgroundThreads();
// A reader that goes away (`| head`) ends the printing, not the command (closed-output.ts says why).
keepRunningWhenOutputCloses();

// Not a top-level await: the built CLI is a CommonJS bundle, loaded from V8's code cache (scripts/bundle-cli.mjs).
void run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
