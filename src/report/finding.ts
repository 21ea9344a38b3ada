/** One finding of the verdict: what is wrong, how bad, and where the README explains it. */
import type { ReadmeRef } from './readme-refs.js';

export interface Finding {
  level: 'error' | 'warning';
  text: string;
  /** The README section that explains it. */
  see?: ReadmeRef;
}
