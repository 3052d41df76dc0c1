// `market-profiles verify <base-url>`: checks any running deployment against the contract from what it serves, trusting nothing it was meant to serve.
import type { VerifyConfig } from '../config.ts';
import { normalizeBaseUrl } from '../option-kinds.ts';
import { renderJson } from '../../contract/json.ts';
import { runAllChecks, type CheckResult } from './checks.ts';
import { createProbe, type Probe } from './http.ts';
import { PATHS } from '../../contract/paths.ts';
import { ConfigError } from '../../contract/errors.ts';
import { forTerminal, nestsDeeperThan } from '../../contract/untrusted.ts';
import { manifestSizes, readManifest } from './manifest.ts';

export interface VerifyReport {
  /** The deployment's BASE_URL, which its links are held to. */
  baseUrl: string;
  /** Where the requests went: the address given, which may name the BASE_URL's machine otherwise. */
  address: string;
  ok: boolean;
  passed: number;
  failed: number;
  checks: CheckResult[];
}

export interface VerifyOptions {
  concurrency?: number;
  timeoutMs?: number;
  /** The most of one answer's body read (default `MAX_ANSWER_BYTES`, 64 MiB). */
  maxBytes?: number;
  /** A build's manifest (dist/manifest.json): every variant of every route must be its file, and no answer larger. */
  manifest?: string;
}

/** Names of this machine (loopback and the unspecified address serve prints with HOST=0.0.0.0): one deployment answers at all of them. */
const THIS_MACHINE = /^(?:localhost|[a-z0-9.-]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0|\[::\])$/i;

/** Two base URLs that differ only in the name they give this machine: the same scheme, port and path. */
export function sameMachine(a: string, b: string): boolean {
  const [x, y] = [new URL(a), new URL(b)];
  return x.protocol === y.protocol && x.port === y.port && x.pathname === y.pathname && THIS_MACHINE.test(x.hostname) && THIS_MACHINE.test(y.hostname);
}

/** The BASE_URL a deployment was built with, read from its index's links.self; undefined when that cannot be read (the checks then say why). */
async function builtWith(probe: Probe): Promise<string | undefined> {
  try {
    const res = await probe.fetch(PATHS.index);
    const text = res.body.toString('utf8');
    const self: unknown = res.status === 200 && !nestsDeeperThan(text) ? (JSON.parse(text) as { links?: { self?: unknown } }).links?.self : undefined;
    return typeof self === 'string' && self.endsWith(PATHS.index) ? normalizeBaseUrl(self.slice(0, -PATHS.index.length)) : undefined;
  } catch {
    return undefined;
  }
}

const reportOf = (baseUrl: string, address: string, checks: CheckResult[]): VerifyReport => {
  const failed = checks.filter((c) => !c.ok).length;
  return { baseUrl, address, ok: failed === 0, passed: checks.length - failed, failed, checks };
};

/**
 * Checks the deployment at `target`. A deployment built for this machine under another name (serve prints
 * http://127.0.0.1:3000, its links say http://localhost:3000) is checked against the BASE_URL it was built with; one
 * built for another host fails with one check that names that BASE_URL and how to verify it.
 */
export async function verifyDeployment(target: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const address = normalizeBaseUrl(target);
  const manifest = options.manifest === undefined ? undefined : { file: options.manifest, manifest: readManifest(options.manifest) };
  const probeOptions = { ...options, ...(manifest === undefined ? {} : { sizes: manifestSizes(manifest.manifest) }) };
  let probe = createProbe(address, probeOptions);
  try {
    const declared = await builtWith(probe);
    if (declared !== undefined && declared !== address) {
      if (!sameMachine(declared, address)) {
        const line = `${address} serves a deployment built with BASE_URL=${declared} (its links use it): run market-profiles verify ${declared}, or build it with BASE_URL=${address}`;
        return reportOf(declared, address, [{ name: 'deployment BASE_URL', ok: false, detail: line, faults: [line] }]);
      }
      probe.close();
      probe = createProbe(declared, { ...probeOptions, address });
    }
    return reportOf(probe.baseUrl, address, await runAllChecks(probe, manifest));
  } finally {
    probe.close();
  }
}

export function formatReport(report: VerifyReport): string {
  // What a deployment sent may be quoted in a detail: its control characters never reach the terminal as they are.
  const lines = report.checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'}  ${forTerminal(c.name)}: ${forTerminal(c.detail)}`);
  const at =
    report.address === report.baseUrl || !sameMachine(report.address, report.baseUrl)
      ? report.address
      : `${report.baseUrl} at ${report.address} (the same machine by another name)`;
  const count = report.checks.length;
  return `verify ${at}\n${lines.join('\n')}\n${count} ${count === 1 ? 'check' : 'checks'}: ${report.passed} passed, ${report.failed} failed\n`;
}

/**
 * The address argument, refused as a usage error naming it (not BASE_URL, which verify does not read): one without a
 * scheme (`localhost:3000`) is answered with the URL it most likely meant.
 */
function checkAddress(target: string): void {
  try {
    normalizeBaseUrl(target, 'the address');
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const meant = /^[A-Za-z0-9.-]+(:[0-9]+)?(\/[^?#]*)?$/.test(target) ? `; did you mean http://${target}?` : '';
    throw new ConfigError(`${error.message}${meant} (market-profiles verify --help says more)`);
  }
}

/** The `verify` subcommand: the report on stdout (text, or JSON with --json); exit code 0 only when every check passed. */
export async function verifyCommand(args: readonly string[], options: VerifyConfig): Promise<number> {
  const [target, extra] = args;
  if (target === undefined || extra !== undefined) {
    const got = extra === undefined ? '' : `, got also "${extra}"`;
    process.stderr.write(
      `market-profiles: verify: needs exactly one address${got}, e.g. market-profiles verify http://localhost:3000 (market-profiles verify --help says more)\n`,
    );
    return 2;
  }
  checkAddress(target);
  let report: VerifyReport;
  try {
    report = await verifyDeployment(target, {
      concurrency: options.concurrency,
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      ...(options.manifest === undefined ? {} : { manifest: options.manifest }),
    });
  } catch (error) {
    if (options.manifest === undefined) throw error;
    process.stderr.write(`market-profiles: verify: ${forTerminal((error as Error).message)}\n`);
    return 2;
  }
  process.stdout.write(options.json ? renderJson(report) : formatReport(report));
  return report.ok ? 0 : 1;
}
