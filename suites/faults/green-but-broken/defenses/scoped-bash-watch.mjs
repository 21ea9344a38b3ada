import { bashWatcher } from './rules.mjs';

export default bashWatcher('gbb_scoped_bash_watch');
