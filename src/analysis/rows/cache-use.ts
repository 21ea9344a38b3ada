/** What the row cache did for one JSONL input (apart so the load's stats can name it without importing the cache). */
export type CacheUse = 'off' | 'small' | 'cold' | 'unchanged' | 'appended' | 'stale';
