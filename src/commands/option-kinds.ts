// The kinds of value an option takes: each states its type once, and the same bounds give the text the README and the usage text show and the parser that refuses a bad value.
import { ConfigError } from '../contract/errors.ts';

export interface ValueKind<T> {
  /** The type, as the README and the usage text say it. */
  type: string;
  /** The type where an environment variable sets it, when that differs: a switch is a bare flag, but its variable spells a value. */
  envType?: string;
  /** A flag that takes no value (`--log`), rather than one that does (`--port 8080`, `--port=8080`). */
  switch: boolean;
  /** Reads a raw value (from a flag or the environment); a bad one is a ConfigError naming the option. */
  parse(raw: string, name: string): T;
}

/** A whole number from `min` to `max`, both included. */
export const integerKind = (min: number, max: number): ValueKind<number> => ({
  type: `integer ${min}–${max}`,
  switch: false,
  parse(raw, name) {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    return n;
  },
});

/** Any text but the empty string; `type` says what it names (a path, a host, a source id). */
export const textKind = (type: string): ValueKind<string> => ({
  type,
  switch: false,
  parse(raw, name) {
    if (raw === '') throw new ConfigError(`${name} must not be empty`);
    return raw;
  },
});

/** On or off: a bare flag, or its environment variable spelled 1/0, true/false, yes/no or on/off. */
export const onOffKind: ValueKind<boolean> = {
  type: 'boolean',
  envType: 'boolean (`1`/`0`, `true`/`false`)',
  switch: true,
  parse(raw, name) {
    if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off', ''].includes(raw.toLowerCase())) return false;
    throw new ConfigError(`${name} must be 1/0, true/false, yes/no or on/off, got "${raw}"`);
  },
};

/** The service's origin (and path), without a trailing slash; its errors name `name`: BASE_URL unless told (`verify`'s target shares it), or the flag typed. */
export function normalizeBaseUrl(raw: string, name = 'BASE_URL'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must use http or https, got "${raw}"`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(`${name} must not carry a query, fragment or credentials, got "${raw}"`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

const URL_TYPE = 'absolute http(s) URL';

/** The base URL itself: normalizeBaseUrl's errors say what is wrong with it, naming the option as it was given. */
export const baseUrlKind: ValueKind<string> = { type: URL_TYPE, switch: false, parse: (raw, name) => normalizeBaseUrl(raw, name) };

/** Another origin of the same form (a mirror): refused with one message naming its option. */
export const mirrorUrlKind: ValueKind<string> = {
  type: URL_TYPE,
  switch: false,
  parse(raw, name) {
    try {
      return normalizeBaseUrl(raw);
    } catch {
      throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
    }
  },
};
