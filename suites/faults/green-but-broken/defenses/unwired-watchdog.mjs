import { readWatcher } from './rules.mjs';

export default readWatcher('gbb_unwired_watchdog');
