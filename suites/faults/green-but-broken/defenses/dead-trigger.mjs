import { readWatcher } from './rules.mjs';

export default readWatcher('gbb_dead_trigger');
