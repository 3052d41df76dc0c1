// Configuration, normalized once from environment and command-line flags into a typed object with defaults.
import { ConfigError } from './errors.ts';

export interface Config {
  /** Origin every absolute URL in a body is built from; never taken from a request. */
  baseUrl: string;
  /** No BASE_URL was given: links follow the port actually bound (which differs from `port` when that is 0). */
  baseUrlFollowsPort: boolean;
  host: string;
  port: number;
  /** One JSON access-log line per request on stdout. */
  log: boolean;
  fixturesDir: string;
  outDir: string;
}

export const DEFAULTS = { host: '127.0.0.1', port: 3000, log: false, fixturesDir: 'fixtures', outDir: 'dist' } as const;

/** Reads `--name value` and `--name=value` flags; a bare `--flag` is "true". */
export function parseFlags(argv: readonly string[]): { flags: Map<string, string>; positionals: string[] } {
  const flags = new Map<string, string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq !== -1) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    else if (argv[i + 1] !== undefined && !(argv[i + 1] ?? '').startsWith('--') && !['log', 'json'].includes(arg.slice(2))) {
      flags.set(arg.slice(2), argv[i + 1] ?? '');
      i += 1;
    } else flags.set(arg.slice(2), 'true');
  }
  return { flags, positionals };
}

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${raw}"`);
  return port;
}

function parseBool(raw: string, name: string): boolean {
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off', ''].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be 1/0, true/false, yes/no or on/off, got "${raw}"`);
}

export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`BASE_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`BASE_URL must use http or https, got "${raw}"`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(`BASE_URL must not carry a query, fragment or credentials, got "${raw}"`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Flags win over environment variables, which win over defaults. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, argv: readonly string[] = []): Config {
  const { flags } = parseFlags(argv);
  const pick = (flag: string, envName: string): string | undefined => flags.get(flag) ?? env[envName];
  const port = parsePort(pick('port', 'PORT') ?? String(DEFAULTS.port));
  const host = pick('host', 'HOST') ?? DEFAULTS.host;
  const explicitBaseUrl = pick('base-url', 'BASE_URL');
  const baseUrl = normalizeBaseUrl(explicitBaseUrl ?? `http://localhost:${port}`);
  return {
    baseUrl,
    baseUrlFollowsPort: explicitBaseUrl === undefined,
    host,
    port,
    log: parseBool(pick('log', 'LOG') ?? String(DEFAULTS.log), 'LOG'),
    fixturesDir: pick('fixtures', 'FIXTURES_DIR') ?? DEFAULTS.fixturesDir,
    outDir: pick('out', 'OUT_DIR') ?? DEFAULTS.outDir,
  };
}
