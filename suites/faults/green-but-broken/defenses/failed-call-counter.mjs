import { failedCallCounter } from './rules.mjs';

export default failedCallCounter;
