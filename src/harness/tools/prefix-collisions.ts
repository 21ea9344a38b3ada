/**
 * The prefix-distinctness rule lives in one place, src/events/tool-prefix-rule.ts,
 * shared by `faultline lint-tools`, tool_search and the report's integrity SQL
 * (which calls it as the DuckDB function tool_prefix_collision): two copies
 * of a rule drift apart and then give opposite answers on the same names.
 */
export * from '../../events/tool-prefix-rule.js';
