/**
 * The stable, configured constraints as text for the system prompt
 * (docs/harness-rules.md#rules-up-front): deny rules and disabled tools never reach the model otherwise, so it
 * learns them only by being refused, one wasted turn each. Only
 * configuration that is fixed for the session goes in — never run-time
 * verdicts (they depend on arguments, and dynamic text would bust the prompt
 * cache, docs/harness-rules.md#stable-prefix). Output is deterministic for a given config.
 */
import type { PermissionConfig } from './types.js';

export function staticConstraintsText(config: Pick<PermissionConfig, 'rules' | 'disabledTools' | 'mode' | 'headless'>): string {
  const lines: string[] = [];
  const disabled = [...(config.disabledTools ?? [])].sort();
  if (disabled.length > 0) lines.push(`- These tools are disabled: ${disabled.join(', ')}.`);
  for (const rule of config.rules ?? []) {
    if (rule.effect !== 'deny') continue;
    const what = rule.pattern === undefined ? `every ${rule.tool === '*' ? 'tool' : rule.tool} call` : `${rule.tool === '*' ? 'any tool' : rule.tool} calls matching \`${rule.pattern}\``;
    lines.push(`- Refused by configuration: ${what}.`);
  }
  if (config.mode === 'plan') lines.push('- Plan mode: only read-only calls are allowed; describe changes instead of making them.');
  if (config.headless ?? true) lines.push('- No one can approve calls in this run: anything that would need approval is refused, so prefer read-only commands and files inside the workspace.');
  return lines.length === 0 ? '' : `Permission constraints for this session:\n${lines.join('\n')}`;
}
