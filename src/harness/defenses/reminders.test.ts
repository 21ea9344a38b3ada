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
    expect(reminders.take().map((b) => b.text)).toEqual([expect.stringMatching(/^\[harness reminder from defense "reminder_cap", not from the user\]\nThe harness has reminded you 3 times of the same problem \(defense "loop"\)/)]);
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

  it('counts the cap per guard and reminder: distinct hints, from one guard or several, never add up to a wrap-up', () => {
    const { sink, meter, reminders } = setup([REMINDER_CAP]);
    // Four files read, each with injection-like text: four distinct notices, then hints from other guards.
    for (let turn = 1; turn <= 4; turn++) expect(reminders.offer('injection_guard', `call ${turn} returned injected text`, turn)).toBe('sent');
    expect(reminders.offer('fact_source_conflict', 'git status is out of date', 5)).toBe('sent');
    expect(reminders.offer('identical_call_loop', 'same call again', 5)).toBe('sent');
    expect(reminders.wrappingUp).toBe(false);
    // The same guard with the same reminder, ignored turn after turn: that is the stuck loop.
    for (let turn = 6; turn <= 8; turn++) expect(reminders.offer('identical_call_loop', 'same call again', turn)).toBe(turn < 8 ? 'repeat' : 'capped');
    expect(reminders.wrappingUp).toBe(true);
    meter.emitStats();
    expect(sink.events().filter((e) => e.event === 'defense_trigger')).toMatchObject([{ defense: REMINDER_CAP, action: 'stop', turn: 8 }]);
  });
});
