/** docs/harness-rules.md#phantom-reminders: user-role reminders are marked, de-duplicated and capped, then a wrap-up is forced (reminders.ts). */
import type { WiredDefense } from './types.js';
import { REMINDER_CAP } from './reminders.js';

export const reminderCap: WiredDefense = {
  name: REMINDER_CAP,
  guards: 'the same hint injected in the user role again and again by one defense ("phantom user" nagging in a stuck loop): repeats are dropped, past the cap one wrap-up is forced and a reply that still calls tools ends the session; distinct hints are not added up',
  source: 'docs/harness-rules.md#phantom-reminders (reminder-throttle, MAX_STUCK_REMINDERS), docs/harness-rules.md#combined-mechanisms',
  defaultOn: true,
  action: 'stop',
  // Evaluated in reminders.ts each time a defense offers a hint (at the end of a turn).
  evaluatedAt: 'turn_end',
};
