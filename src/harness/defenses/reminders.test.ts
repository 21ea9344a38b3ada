import { describe, expect, it } from 'vitest';
import { MemorySink, RunEmitter } from '../../events/index.js';
import { DefenseMeter } from './meter.js';
import { REMINDER_CAP, Reminders, reminderText } from './reminders.js';

function setup(armed: string[], max = 3) {
  const sink = new MemorySink();
  const meter = new DefenseMeter(new RunEmitter(sink, 'r').session('s', 't'), armed.map((name) => ({ name })));
  return { sink, meter, reminders: new Reminders(meter, max) };
}

describe('reminders (docs/harness-rules.md#phantom-reminders)', () => {
  it('marks each reminder with its source, sends a repeat once, and forces one wrap-up past the cap', () => {
    const { sink, meter, reminders } = setup([REMINDER_CAP]);
    expect(reminders.offer('loop', 'same again', 1)).toBe('sent');
    expect(reminders.take()).toEqual([{ type: 'text', text: reminderText('loop', 'same again') }]);
    expect(reminders.take()).toEqual([]);
    expect(reminders.offer('loop', 'same again', 1)).toBe('repeat'); // twice in one turn is one offer
    expect(reminders.offer('loop', 'same again', 2)).toBe('repeat');
    expect(reminders.offer('loop', 'same again', 3)).toBe('repeat');
    expect(reminders.wrappingUp).toBe(false);
    expect(reminders.offer('loop', 'same again', 4)).toBe('capped');
    expect(reminders.wrappingUp).toBe(true);
    expect(reminders.take().map((b) => b.text)).toEqual([expect.stringMatching(/^\[harness reminder from defense "reminder_cap", not from the user\]\nThe harness has sent 3 reminders/)]);
    expect(reminders.offer('other', 'new text', 5)).toBe('capped');
    expect(reminders.take()).toEqual([]);
    meter.emitStats();
    expect(sink.events().filter((e) => e.event === 'defense_trigger')).toMatchObject([{ defense: REMINDER_CAP, action: 'stop', turn: 4 }]);
  });

  it('sends every hint, repeats included, when reminder_cap is switched off (the nagging it prevents)', () => {
    const { reminders } = setup([]);
    for (let turn = 1; turn <= 6; turn++) expect(reminders.offer('loop', 'same again', turn)).toBe('sent');
    expect(reminders.wrappingUp).toBe(false);
    expect(reminders.take()).toHaveLength(6);
  });
});
