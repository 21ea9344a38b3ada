import { blindDeferredCall } from './rules.mjs';

export default blindDeferredCall;
