import { readWatcher } from './rules.mjs';

export default readWatcher('gbb_switched_off');
