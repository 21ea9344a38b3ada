import { describe, expect, it } from 'vitest';
import { createRegistry } from '../tools/builtin.js';
import { lookupTool } from './lookup.js';

describe('lookup', () => {
  it('answers "not ready yet" before "does not exist", for registered and unregistered names alike', () => {
    const registry = createRegistry(['read']);
    registry.setAvailability((name) => (name.startsWith('mcp__slow__') ? { code: 'mcp_server_connecting', message: 'still connecting — retry shortly' } : null));
    expect(lookupTool(registry, 'mcp__slow__echo')).toEqual({ ok: false, failure: { kind: 'unavailable', errorCode: 'mcp_server_connecting', message: 'still connecting — retry shortly' } });
    expect(lookupTool(registry, 'mcp__other__echo')).toMatchObject({ ok: false, failure: { kind: 'not_found' } });
    expect(lookupTool(registry, 'read')).toMatchObject({ ok: true });
    registry.setAvailability((name) => (name === 'read' ? { code: 'mcp_server_failed', message: 'failed' } : null));
    expect(lookupTool(registry, 'read')).toMatchObject({ ok: false, failure: { kind: 'unavailable', errorCode: 'mcp_server_failed' } });
  });
});
