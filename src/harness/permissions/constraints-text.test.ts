import { describe, expect, it } from 'vitest';
import { staticConstraintsText } from './constraints-text.js';

describe('static constraints text', () => {
  it('lists disabled tools and deny rules, not allow or ask rules', () => {
    const text = staticConstraintsText({
      mode: 'default',
      headless: false,
      disabledTools: ['web_fetch', 'bash'],
      rules: [
        { id: 'a', effect: 'deny', tool: 'bash', pattern: 'git push*' },
        { id: 'b', effect: 'allow', tool: 'bash', pattern: 'ls*' },
        { id: 'c', effect: 'deny', tool: 'write' },
      ],
    });
    expect(text).toBe(
      'Permission constraints for this session:\n- These tools are disabled: bash, web_fetch.\n- Refused by configuration: bash calls matching `git push*`.\n- Refused by configuration: every write call.',
    );
  });

  it('is empty when nothing is configured and the run is interactive', () => {
    expect(staticConstraintsText({ mode: 'default', headless: false })).toBe('');
  });

  it('mentions plan mode and headless runs', () => {
    const text = staticConstraintsText({ mode: 'plan' });
    expect(text).toContain('Plan mode');
    expect(text).toContain('No one can approve');
  });
});
