// The kinds of value an option takes: each states its type once, and the same bounds give the text the README and the usage text show and the parser that refuses a bad value.
import { ConfigError } from '../contract/errors.ts';

export interface ValueKind<T> {
  /** The type, as the README and the usage text say it. */
  type: string;
  /** A flag that may stand alone (`--log`), or take one of the on and off words (`--log=false`), rather than one that needs a value (`--port 8080`, `--port=8080`). */
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

/** The words a switch takes after `=` and in its environment variable, in any case, each on word beside its off word. */
export const ON_WORDS = ['true', '1', 'yes', 'on'] as const;
export const OFF_WORDS = ['false', '0', 'no', 'off'] as const;

/** The pairs as a sentence says them: `true/false, 1/0, yes/no or on/off`. */
const pairs = (code: (word: string) => string): string => {
  const each = ON_WORDS.map((on, i) => `${code(on)}/${code(OFF_WORDS[i] ?? '')}`);
  return `${each.slice(0, -1).join(', ')} or ${each.at(-1) ?? ''}`;
};

/**
 * Every form a switch takes, said once for the README (code font) and the usage text (plain), with `example` (a switch of
 * the command whose usage it ends, `--log` unless told) as the example.
 */
export const switchForms = (markdown: boolean, example = '--log'): string => {
  const code = (text: string): string => (markdown ? `\`${text}\`` : text);
  return `A boolean option is on as a bare flag (${code(example)}), or set by a word after ${code('=')} (${code(`${example}=false`)}); that word, and its environment variable, is one of ${pairs(code)}, in any case (an empty variable is off).`;
};

/** On or off: a bare flag, or a flag or environment variable spelled true/false, 1/0, yes/no or on/off, in any case. */
export const onOffKind: ValueKind<boolean> = {
  type: 'boolean',
  switch: true,
  parse(raw, name) {
    const word = raw.toLowerCase();
    if ((ON_WORDS as readonly string[]).includes(word)) return true;
    if ((OFF_WORDS as readonly string[]).includes(word) || word === '') return false;
    throw new ConfigError(`${name} must be ${pairs((w) => w)}, got "${raw}"`);
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
