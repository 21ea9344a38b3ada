#!/usr/bin/env node
import { lowerBackgroundThreads } from './background-priority.js';
import { keepRunningWhenOutputCloses } from './closed-output.js';
import { run } from './program.js';
import { exitForSignal, hungUpEarlier } from './stop-on-signal.js';

// V8's background threads yield the CPU to the main one (background-priority.ts says why).
lowerBackgroundThreads();
// A reader that goes away (`| head`) ends the printing, not the command (closed-output.ts says why).
keepRunningWhenOutputCloses();

// Not a top-level await: the built CLI is a CommonJS bundle, loaded from V8's code cache (scripts/bundle-cli.mjs).
void run(process.argv.slice(2)).then((code) => {
  // A command ended by a hang-up ends the process by the signal once it has cleaned up (stop-on-signal.ts says why).
  if (hungUpEarlier()) exitForSignal('SIGHUP');
  process.exitCode = code;
});
