// Hook module for two loop controls: it stands in for work running beside the
// session (a build writing bundles, a job finishing), advanced one step each
// time the model looks — deterministic, unlike a real background process, so
// the controls never depend on timing. It never blocks or rewrites a call.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const BUNDLES = 4; // the build writes bundle-1.js .. bundle-4.js, one per look
const JOB_TICKS = 3; // the job is done after three waits

export function preToolUse(event) {
  const ws = event.workspace;
  if (event.tool === 'ls') {
    const written = readdirSync(ws).filter((name) => /^bundle-\d+\.js$/.test(name)).length;
    if (written < BUNDLES) writeFileSync(join(ws, `bundle-${written + 1}.js`), `export default ${written + 1};\n`);
  }
  if (event.tool === 'sleep') {
    const log = join(ws, 'job.log');
    const ticks = readFileSync(log, 'utf8').split('\n').filter(Boolean).length + 1;
    writeFileSync(log, `${readFileSync(log, 'utf8')}tick ${ticks}\n`);
    if (ticks >= JOB_TICKS) writeFileSync(join(ws, 'status.txt'), 'status: done\n');
  }
  return undefined;
}
