// Frictionless Data's JavaScript library (datapackage on npm), installed into test/frictionless/ on first use: it is old and pulls deprecated packages, so the root npm ci never installs it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../frictionless/', import.meta.url));

/** The parts of datapackage-js the tests use. */
export interface FrictionlessResource {
  name: string;
  valid: boolean;
  errors: Error[];
  tabular: boolean;
  descriptor: Record<string, unknown>;
  read(options?: { keyed?: boolean }): Promise<Record<string, unknown>[]>;
}
export interface FrictionlessPackage {
  valid: boolean;
  errors: Error[];
  descriptor: Record<string, unknown>;
  resources: FrictionlessResource[];
}
export interface Frictionless {
  Package: { load(descriptor: string | Record<string, unknown>, options?: { strict?: boolean }): Promise<FrictionlessPackage> };
  validate(descriptor: Record<string, unknown>): Promise<true | Error[]>;
}

/** Runs `npm ci` in test/frictionless/ when its packages are not there yet (npm writes .package-lock.json last), quietly. */
export function frictionless(): Frictionless {
  if (!existsSync(join(DIR, 'node_modules', '.package-lock.json'))) {
    const run = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: DIR, encoding: 'utf8' });
    if (run.status !== 0)
      throw new Error(`npm ci in test/frictionless/ failed (${run.error?.message ?? `exit code ${String(run.status)}`}):\n${run.stdout}${run.stderr}`);
  }
  return createRequire(join(DIR, 'package.json'))('datapackage') as Frictionless;
}
