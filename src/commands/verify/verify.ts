// `market-profiles verify <base-url>`: checks any running deployment against the contract from what it serves, trusting nothing it was meant to serve.
import type { VerifyConfig } from '../config.ts';
import { normalizeBaseUrl } from '../option-kinds.ts';
import { renderJson } from '../../contract/json.ts';
import { runAllChecks, type CheckResult } from './checks.ts';
import { createProbe } from './http.ts';

export interface VerifyReport {
  baseUrl: string;
  ok: boolean;
  passed: number;
  failed: number;
  checks: CheckResult[];
}

export interface VerifyOptions {
  concurrency?: number;
  timeoutMs?: number;
}

export async function verifyDeployment(baseUrl: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const probe = createProbe(normalizeBaseUrl(baseUrl), options);
  try {
    const checks = await runAllChecks(probe);
    const failed = checks.filter((c) => !c.ok).length;
    return { baseUrl: probe.baseUrl, ok: failed === 0, passed: checks.length - failed, failed, checks };
  } finally {
    probe.close();
  }
}

export function formatReport(report: VerifyReport): string {
  const lines = report.checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  return `verify ${report.baseUrl}\n${lines.join('\n')}\n${report.checks.length} checks: ${report.passed} passed, ${report.failed} failed\n`;
}

/** The `verify` subcommand: the report on stdout (text, or JSON with --json); exit code 0 only when every check passed. */
export async function verifyCommand(args: readonly string[], options: VerifyConfig): Promise<number> {
  const target = args[0];
  if (target === undefined) {
    process.stderr.write('usage: market-profiles verify <base-url> [--json] [--concurrency N] [--timeout-ms N]\n');
    return 2;
  }
  const report = await verifyDeployment(target, { concurrency: options.concurrency, timeoutMs: options.timeoutMs });
  process.stdout.write(options.json ? renderJson(report) : formatReport(report));
  return report.ok ? 0 : 1;
}
