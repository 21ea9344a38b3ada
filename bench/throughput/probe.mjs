// Loaded into every benchmarked process (NODE_OPTIONS=--import=<this>): at exit it writes the
// process's peak RSS and CPU time next to FAULTLINE_BENCH_PROBE, one file per process, so the
// bench can read them for faultline and promptfoo alike (and for any child either one starts).
import { writeFileSync } from 'node:fs';

const base = process.env.FAULTLINE_BENCH_PROBE;
if (base) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    try {
      writeFileSync(`${base}.${process.pid}.json`, JSON.stringify({ maxRssKb: usage.maxRSS, userUs: usage.userCPUTime, systemUs: usage.systemCPUTime }));
    } catch {
      // a probe must never change how the measured process ends
    }
  });
}
