/**
 * Where and how `faultline export otel` sends spans, from its flags and the
 * OpenTelemetry exporter environment variables, as the OTLP exporter
 * specification defines them (opentelemetry-specification,
 * protocol/exporter.md):
 *  - OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: used as is;
 *  - OTEL_EXPORTER_OTLP_ENDPOINT: a base URL, `v1/traces` appended to its path
 *    (`http://host:4318` -> `/v1/traces`, Langfuse's `…/api/public/otel` ->
 *    `…/api/public/otel/v1/traces`);
 *  - OTEL_EXPORTER_OTLP_TRACES_HEADERS over OTEL_EXPORTER_OTLP_HEADERS:
 *    `key=value` pairs separated by commas, values percent-decoded;
 *  - OTEL_EXPORTER_OTLP_TRACES_PROTOCOL over OTEL_EXPORTER_OTLP_PROTOCOL:
 *    `http/protobuf` (the default) or `http/json`; `grpc` is not supported here.
 * A flag beats the variables: `--endpoint` is a base URL like
 * OTEL_EXPORTER_OTLP_ENDPOINT (one that already ends in /v1/traces is kept),
 * `--protocol`, and `--header` over the variables' headers.
 */

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export class OtlpConfigError extends Error {
  readonly code = 'OTLP_CONFIG';
}

export interface OtlpTarget {
  url: URL;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  /** Where the URL came from, for messages. */
  from: string;
}

/** A base URL with `v1/traces` appended to its path (a trailing slash or not). */
export function appendTracesPath(base: string): URL {
  const url = new URL(base);
  if (/\/v1\/traces\/?$/.test(url.pathname)) return url;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  return url;
}

/** `key=value,key2=value2` (W3C Baggage-like), values percent-decoded; a malformed entry is an error naming the variable. */
export function parseHeaders(text: string, source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of text.split(',')) {
    if (entry.trim() === '') continue;
    const at = entry.indexOf('=');
    if (at < 1) throw new OtlpConfigError(`${source}: "${entry.trim()}" is not key=value`);
    let value = entry.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      throw new OtlpConfigError(`${source}: the value of ${entry.slice(0, at).trim()} is not valid percent-encoding`);
    }
    out[entry.slice(0, at).trim()] = value;
  }
  return out;
}

function url(text: string, source: string, build: (t: string) => URL): URL {
  let u: URL;
  try {
    u = build(text);
  } catch {
    throw new OtlpConfigError(`${source} is not a URL: ${text}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new OtlpConfigError(`${source} must be http(s): ${text}`);
  return u;
}

function protocolOf(value: string, source: string): OtlpProtocol {
  if ((OTLP_PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol;
  if (value === 'grpc') throw new OtlpConfigError(`${source}=grpc: faultline exports over OTLP/HTTP only; use http/protobuf (or http/json) and the receiver's HTTP port (4318)`);
  throw new OtlpConfigError(`${source} must be http/protobuf or http/json, got "${value}"`);
}

export interface OtlpFlags {
  endpoint?: string;
  protocol?: string;
  header?: readonly string[];
}

/** The target, or null when neither a flag nor a variable names an endpoint. */
export function otlpTarget(flags: OtlpFlags, env: NodeJS.ProcessEnv): OtlpTarget | null {
  const e = (name: string) => (env[name] !== undefined && env[name]!.trim() !== '' ? env[name]!.trim() : undefined);
  let target: { url: URL; from: string } | null = null;
  if (flags.endpoint !== undefined) target = { url: url(flags.endpoint, '--endpoint', appendTracesPath), from: '--endpoint' };
  else if (e('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')) target = { url: url(e('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')!, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', (t) => new URL(t)), from: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' };
  else if (e('OTEL_EXPORTER_OTLP_ENDPOINT')) target = { url: url(e('OTEL_EXPORTER_OTLP_ENDPOINT')!, 'OTEL_EXPORTER_OTLP_ENDPOINT', appendTracesPath), from: 'OTEL_EXPORTER_OTLP_ENDPOINT' };
  if (target === null) return null;
  const protocol =
    flags.protocol !== undefined
      ? protocolOf(flags.protocol, '--protocol')
      : e('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
        ? protocolOf(e('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')!, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
        : e('OTEL_EXPORTER_OTLP_PROTOCOL')
          ? protocolOf(e('OTEL_EXPORTER_OTLP_PROTOCOL')!, 'OTEL_EXPORTER_OTLP_PROTOCOL')
          : 'http/protobuf';
  const headers = {
    ...(e('OTEL_EXPORTER_OTLP_HEADERS') ? parseHeaders(e('OTEL_EXPORTER_OTLP_HEADERS')!, 'OTEL_EXPORTER_OTLP_HEADERS') : {}),
    ...(e('OTEL_EXPORTER_OTLP_TRACES_HEADERS') ? parseHeaders(e('OTEL_EXPORTER_OTLP_TRACES_HEADERS')!, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS') : {}),
  };
  for (const h of flags.header ?? []) {
    const at = h.indexOf('=');
    if (at < 1) throw new OtlpConfigError(`--header must be name=value, got "${h}"`);
    headers[h.slice(0, at).trim()] = h.slice(at + 1).trim();
  }
  return { ...target, protocol, headers };
}
