// npm run mutation: Stryker's mutation score per core module, each module against only the test files that cover it (a benchmark-like script, not part of npm test).
//
// usage: npm run mutation [-- <module name> ...]   e.g. npm run mutation -- methodology request-target
// Stryker (mutation/package.json) is installed into mutation/node_modules on first use. Reports go to artifacts/mutation/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..');
const REPORTS = join(ROOT, 'artifacts', 'mutation');

/** Each core module and the test files that exercise it: the fast per-module test command Stryker runs for every mutant. */
export const MODULES: readonly { name: string; file: string; tests: readonly string[] }[] = [
  { name: 'methodology', file: 'src/methodology/scores.ts', tests: ['test/unit/methodology.test.ts', 'test/unit/profiles.test.ts'] },
  { name: 'freshness', file: 'src/methodology/freshness.ts', tests: ['test/unit/methodology.test.ts', 'test/unit/freshness-bounds.test.ts'] },
  { name: 'profiles', file: 'src/methodology/profiles.ts', tests: ['test/unit/profiles.test.ts', 'test/unit/contract.test.ts', 'test/unit/golden.test.ts'] },
  { name: 'render-csv', file: 'src/render/csv-documents.ts', tests: ['test/unit/csv.test.ts', 'test/unit/csv-properties.test.ts', 'test/unit/golden.test.ts'] },
  { name: 'csv', file: 'src/contract/csv-format.ts', tests: ['test/unit/csv-properties.test.ts', 'test/unit/csv.test.ts', 'test/unit/verify-csv.test.ts'] },
  {
    name: 'parse',
    file: 'src/sources/parse.ts',
    tests: ['test/unit/sources-parse.test.ts', 'test/unit/source-census-acs-5yr.test.ts', 'test/unit/source-census-bps.test.ts'],
  },
  { name: 'census-acs-5yr', file: 'src/sources/census-acs-5yr/adapter.ts', tests: ['test/unit/source-census-acs-5yr.test.ts'] },
  { name: 'census-bps', file: 'src/sources/census-bps/adapter.ts', tests: ['test/unit/source-census-bps.test.ts'] },
  { name: 'fhfa-hpi', file: 'src/sources/fhfa-hpi/adapter.ts', tests: ['test/unit/source-fhfa-hpi.test.ts'] },
  { name: 'request-target', file: 'src/protocol/request-target.ts', tests: ['test/unit/request-target.test.ts'] },
  { name: 'negotiation', file: 'src/protocol/negotiation.ts', tests: ['test/unit/negotiation.test.ts'] },
  { name: 'conditional', file: 'src/protocol/conditional.ts', tests: ['test/unit/negotiation.test.ts'] },
  { name: 'verdict', file: 'src/protocol/verdict.ts', tests: ['test/unit/verdict.test.ts'] },
  { name: 'validate', file: 'src/validate/contract-checks.ts', tests: ['test/unit/validate.test.ts', 'test/unit/schema.test.ts'] },
];

function ensureStryker(): string {
  const bin = join(HERE, 'node_modules', '.bin', 'stryker');
  if (existsSync(bin)) return bin;
  process.stdout.write('mutation: installing Stryker into mutation/node_modules (npm ci in mutation/, once)\n');
  const run = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: HERE, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm ci in mutation/ failed: ${run.stdout}${run.stderr}`);
  return bin;
}

interface MutantResult {
  status: string;
  mutatorName: string;
  replacement?: string;
  location: { start: { line: number; column: number } };
}

/** Counts from a Stryker JSON report: score = killed (and timed out) over every mutant that could be tested. */
function scoreOf(reportFile: string): {
  killed: number;
  survived: number;
  noCoverage: number;
  timeout: number;
  errors: number;
  score: number;
  survivors: string[];
} {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { files: Record<string, { mutants: MutantResult[] }> };
  const mutants = Object.values(report.files).flatMap((f) => f.mutants);
  const count = (status: string): number => mutants.filter((m) => m.status === status).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const errors = count('CompileError') + count('RuntimeError');
  const detected = killed + timeout;
  const valid = detected + survived + noCoverage;
  const survivors = mutants
    .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
    .map((m) => `${m.location.start.line}:${m.location.start.column} ${m.mutatorName} → ${(m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80)}`);
  return { killed, survived, noCoverage, timeout, errors, score: valid === 0 ? 100 : (detected / valid) * 100, survivors };
}

const wanted = process.argv.slice(2);
const selected = wanted.length === 0 ? MODULES : MODULES.filter((m) => wanted.includes(m.name));
if (selected.length === 0) {
  process.stderr.write(`mutation: no module named ${wanted.join(', ')}; the modules are ${MODULES.map((m) => m.name).join(', ')}\n`);
  process.exit(2);
}
const stryker = ensureStryker();
mkdirSync(REPORTS, { recursive: true });
const rows: string[] = [];
for (const m of selected) {
  const reportFile = join(REPORTS, `${m.name}.json`);
  const config = {
    $schema: './mutation/node_modules/@stryker-mutator/core/schema/stryker-schema.json',
    mutate: [m.file],
    testRunner: 'command',
    commandRunner: { command: `node --import tsx --test --test-concurrency=1 ${m.tests.join(' ')}` },
    // Stryker would otherwise add // @ts-nocheck to files; under tsx nothing type-checks at run time anyway.
    disableTypeChecks: false,
    coverageAnalysis: 'off',
    concurrency: 2,
    timeoutMS: 20_000,
    timeoutFactor: 2,
    reporters: ['json', 'progress'],
    jsonReporter: { fileName: reportFile },
    tempDirName: join('artifacts', '.stryker-tmp'),
    ignorePatterns: ['artifacts', 'dist', 'lib', 'mutation/node_modules', 'bench/node_modules', 'edge/node_modules'],
    cleanTempDir: 'always',
  };
  const configFile = join(REPORTS, `${m.name}.stryker.json`);
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  process.stdout.write(`\nmutation: ${m.file} against ${m.tests.join(', ')}\n`);
  rmSync(reportFile, { force: true });
  const run = spawnSync(stryker, ['run', configFile], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0 || !existsSync(reportFile)) {
    rows.push(`| ${m.file} | stryker failed (exit ${String(run.status)}) | | | | |`);
    continue;
  }
  const s = scoreOf(reportFile);
  rows.push(`| ${m.file} | ${s.score.toFixed(1)} % | ${s.killed + s.timeout} | ${s.survived} | ${s.noCoverage} | ${s.errors} |`);
  writeFileSync(join(REPORTS, `${m.name}.survivors.txt`), `${s.survivors.join('\n')}\n`);
}
const table = ['| module | score | killed | survived | no coverage | compile/runtime errors |', '|---|---|---|---|---|---|', ...rows].join('\n');
process.stdout.write(`\n${table}\n\nsurviving mutants, per module: artifacts/mutation/<module>.survivors.txt\n`);
