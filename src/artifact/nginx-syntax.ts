// nginx config quoting, in one place: generated strings must reach nginx byte for byte, and a stray `$` would be read as a variable.
import { InvariantError } from '../contract/errors.ts';

/** A double-quoted nginx string holding `text` literally (nginx unescapes \\ \" \n \r \t inside quotes). */
export function quote(text: string): string {
  if (text.includes('$')) throw new InvariantError(`nginx has no escape for "$"; refusing to generate ${JSON.stringify(text.slice(0, 80))}`);
  return quoteWithVariables(text);
}

/** Like quote(), but `$name` and `${name}` stay variable references (the caller vouches for every `$`). */
export function quoteWithVariables(text: string): string {
  // eslint-disable-next-line no-control-regex -- control bytes cannot be written into a config line
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text))
    throw new InvariantError(`control character in nginx string ${JSON.stringify(text.slice(0, 80))}`);
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n').replaceAll('\r', '\\r').replaceAll('\t', '\\t')}"`;
}

/** A regex map key: `~` (or `~*` caseless) and the pattern, quoted so braces and semicolons are safe. */
export const regexKey = (pattern: string, caseless = false): string => quoteWithVariables(`${caseless ? '~*' : '~'}${pattern}`);

/**
 * Writes a map block; entries are [key, value] already quoted. nginx caches a map's value for the whole request,
 * internal redirects included; `volatile` maps are evaluated afresh each time (for $uri and $status).
 */
export function mapBlock(source: string, variable: string, entries: readonly (readonly [string, string])[], comment?: string, volatile = false): string {
  const lines = [...(volatile ? ['    volatile;'] : []), ...entries.map(([k, v]) => `    ${k} ${v};`)];
  return `${comment === undefined ? '' : `# ${comment}\n`}map ${source} $${variable} {\n${lines.join('\n')}\n}\n`;
}

/** A variable-name-safe slug of a header name: Content-Disposition → content_disposition. */
export const slug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '_');

/** A duration in nginx's time syntax: whole seconds as `10s`, anything else in milliseconds (`1500ms`). */
export const nginxTime = (ms: number): string => {
  if (!Number.isInteger(ms) || ms < 0) throw new InvariantError(`nginx has no time of ${ms} ms`);
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
};

/** A size in nginx's size syntax: whole KiB as `16k`, anything else in bytes. */
export const nginxSize = (bytes: number): string => {
  if (!Number.isInteger(bytes) || bytes <= 0) throw new InvariantError(`nginx has no size of ${bytes} bytes`);
  return bytes % 1024 === 0 ? `${bytes / 1024}k` : `${bytes}`;
};
