/**
 * The README sections a finding points to: a reader has the README, not the
 * design notes behind it. tests check that every anchor is a README heading.
 */
export interface ReadmeRef {
  title: string;
  /** GitHub's anchor of the heading. */
  anchor: string;
}

export const README_REFS = {
  reading: { title: 'Reading a report', anchor: 'reading-a-report' },
  lostCalls: { title: 'Lost tool calls', anchor: 'lost-tool-calls' },
  defenseTriage: { title: 'Defense triage', anchor: 'defense-triage' },
  cutShort: { title: 'Cut-short sessions and lost events', anchor: 'cut-short-sessions-and-lost-events' },
  reports: { title: 'Reports', anchor: 'reports' },
  imports: { title: 'Analyze your production traces', anchor: 'analyze-your-production-traces' },
} as const satisfies Record<string, ReadmeRef>;

/** `README › Defense triage`: how text renderers point to a section. */
export function readmeText(ref: ReadmeRef): string {
  return `README › ${ref.title}`;
}
