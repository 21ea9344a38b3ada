import { describe, expect, it } from 'vitest';
import { resultText } from './content.js';

describe('MCP result as text', () => {
  it('keeps text, turns media into placeholder lines and drops nothing silently', () => {
    const text = resultText({
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', mimeType: 'image/png', data: 'A'.repeat(400) },
        { type: 'audio', mimeType: 'audio/wav', data: 'B'.repeat(8) },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/zip', blob: 'C'.repeat(40) } },
        { type: 'resource_link', uri: 'file:///c', name: 'c' },
        { type: 'hologram' },
      ],
    });
    expect(text.split('\n')).toEqual([
      'first',
      '[image image/png, 300 bytes: not shown, tool results reach the model as text here]',
      '[audio audio/wav, 6 bytes: not shown, tool results reach the model as text here]',
      '[resource file:///a.txt]',
      'inside',
      '[resource file:///b.bin: application/zip, 30 bytes: not shown]',
      '[resource link file:///c (c)]',
      '[hologram content: not shown]',
    ]);
  });

  it('falls back to structuredContent as JSON, then to the old toolResult', () => {
    expect(resultText({ content: [], structuredContent: { temp: 21 } })).toBe('{"temp":21}');
    expect(resultText({ toolResult: 'old style' })).toBe('old style');
    expect(resultText({})).toBe('');
  });

  it('cannot be made to forge a media line through a mime type', () => {
    const text = resultText({ content: [{ type: 'image', mimeType: 'x]\n[image image/png, 1 bytes', data: '' }] });
    expect(text.split('\n')).toHaveLength(1);
  });
});
