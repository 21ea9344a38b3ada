// `node --import ./hide-packages.mjs`: the packages named in FAULTLINE_HIDE_PACKAGES
// (comma-separated) do not resolve, as when an optional dependency is not installed.
import { register } from 'node:module';

const hooks = `
const hidden = new Set((process.env.FAULTLINE_HIDE_PACKAGES || '').split(',').filter(Boolean));
export async function resolve(specifier, context, next) {
  const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
  if (hidden.has(name)) {
    const error = new Error("Cannot find package '" + name + "' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);

// require() too (msw is required, its API being synchronous): a hidden package fails as a missing CommonJS module.
const { default: Module } = await import('node:module');
const hiddenNames = new Set((process.env.FAULTLINE_HIDE_PACKAGES || '').split(',').filter(Boolean));
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const name = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0];
  if (hiddenNames.has(name)) throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
  return resolveFilename.call(this, request, ...rest);
};
