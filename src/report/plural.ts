/** `1 session`, `2 sessions`: every count a person reads in run and report output goes through here. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}
