/**
 * The fault catalog checked in both directions (docs/architecture.md#fault-catalog, issue 9): every
 * fault scenario says what fails, where that is described and which defense
 * or invariant it exercises, and every name it uses exists; every shipped
 * defense has fault scenarios and controls, and every invariant has a
 * scenario. A defense with no scenario is the dead defense of docs/harness-rules.md#dead-defense; a
 * scenario naming a rule that does not exist is a citation nobody checks.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ShippedDefense } from '../../src/events/labels.js';
import { SHIPPED_DEFENSES } from '../../src/harness/defenses/registry.js';
import { INVARIANTS } from '../../src/harness/invariants.js';
import { loadSuites, type LoadedTask } from '../../src/suites/load-suite.js';

const root = join(import.meta.dirname, '../..');
const faults = loadSuites([join(root, 'suites/faults')]);
const controls = loadSuites([join(root, 'suites/controls')]);
const where = (task: LoadedTask) => `${relative(root, task.file)} ${task.id}`;

const shipped = new Map(SHIPPED_DEFENSES.map((d) => [d.name, d]));
const invariantIds = new Set(INVARIANTS.map((i) => i.id));

/**
 * The green-but-broken scenarios (docs/harness-rules.md#green-but-broken: the report must show each form)
 * are being written in suites/faults/green-but-broken/. Until that directory
 * exists, the `report_shows_*` invariants they exercise are not required to
 * have a scenario; as soon as it exists they are checked like every other
 * invariant, with no change to this test.
 */
const GREEN_BUT_BROKEN_DIR = join(root, 'suites/faults/green-but-broken');
const PENDING_PREFIX = 'report_shows_';
const requiredInvariants = INVARIANTS.map((i) => i.id).filter((id) => existsSync(GREEN_BUT_BROKEN_DIR) || !id.startsWith(PENDING_PREFIX));

describe('fault catalog', () => {
  it('has at least 50 fault scenarios', () => {
    expect(faults.length).toBeGreaterThanOrEqual(50);
  });

  it('gives every fault scenario a failure mode, a source and exactly one of defense / invariant', () => {
    const incomplete = faults
      .filter((t) => !t.failure_mode?.trim() || !t.source?.trim() || (t.defense === undefined) === (t.invariant === undefined))
      .map(where);
    expect(incomplete).toEqual([]);
  });

  it('names only shipped defenses in fault scenarios and controls', () => {
    const unknown = [
      ...faults.filter((t) => t.defense !== undefined && !shipped.has(t.defense)).map((t) => `${where(t)}: defense ${t.defense}`),
      ...controls.flatMap((t) => (t.control_for ?? []).filter((d) => !shipped.has(d)).map((d) => `${where(t)}: control_for ${d}`)),
    ];
    expect(unknown).toEqual([]);
  });

  it('names only invariants that exist in src/harness/invariants.ts', () => {
    const unknown = faults.filter((t) => t.invariant !== undefined && !invariantIds.has(t.invariant)).map((t) => `${where(t)}: invariant ${t.invariant}`);
    expect(unknown).toEqual([]);
  });

  it('has a fault scenario and a control for every shipped defense', () => {
    const withScenario = new Set(faults.map((t) => t.defense));
    const withControl = new Set(controls.flatMap((t) => t.control_for ?? []));
    expect([...shipped.keys()].filter((d) => !withScenario.has(d)).map((d) => `${d}: no fault scenario`)).toEqual([]);
    expect([...shipped.keys()].filter((d) => !withControl.has(d)).map((d) => `${d}: no control`)).toEqual([]);
  });

  it('has a fault scenario for every invariant (report_shows_* once suites/faults/green-but-broken exists)', () => {
    const exercised = new Set(faults.map((t) => t.invariant));
    expect(requiredInvariants.filter((id) => !exercised.has(id))).toEqual([]);
  });

  it('arms the defense a scenario or control is about: one that is off by default is enabled, none is switched off', () => {
    const unarmed = [
      ...faults.filter((t) => t.defense !== undefined).map((t) => [t, t.defense!] as const),
      ...controls.flatMap((t) => (t.control_for ?? []).map((d) => [t, d] as const)),
    ]
      .filter(([t, name]) => {
        const defense = shipped.get(name);
        if (defense === undefined) return false; // reported by the shipped-names test
        return t.disabled_defenses?.includes(name) || !(defense.defaultOn || t.enabled_defenses?.includes(name));
      })
      .map(([t, name]) => `${where(t)}: ${name}`);
    expect(unarmed).toEqual([]);
  });

  it('makes every control assert that its defenses did not fire and that no call was lost', () => {
    const weak = controls
      .filter((t) => t.control_for !== undefined)
      .flatMap((t) => {
        const events = (t.expect.events ?? []).map((e) => e.replace(/\s+/g, ' ').trim());
        const quiet = (d: string) => events.includes('count(defense_trigger) == 0') || events.includes(`count(defense_trigger where defense = ${d}) == 0`);
        return [...t.control_for!.filter((d) => !quiet(d)).map((d) => `${where(t)}: no assertion that ${d} did not fire`), ...(events.includes('lost == 0') ? [] : [`${where(t)}: no lost == 0`])];
      });
    expect(weak).toEqual([]);
  });

  it('keeps the contract label set ShippedDefense equal to the registry', () => {
    expect([...ShippedDefense.options].sort()).toEqual([...shipped.keys()].sort());
  });
});
