// npm run mutation: Stryker's mutation score per core module, each module against the test files that cover it, its survivors then against the whole unit tier (a benchmark-like script, not part of npm test).
//
// usage: npm run mutation [-- [--reuse] <module name> ...]   e.g. npm run mutation -- methodology request-target
//   --reuse: take a module's first stage from its last report when the module's source is unchanged since (after
//   adding unit tests, say), so only its survivors run again, against the unit tier: a test added to one of the
//   module's integration files is seen only by a run without it.
// Stryker (mutation/package.json) is installed into mutation/node_modules on first use. Reports go to artifacts/mutation/.
//
// Two stages, so a run stays short and its survivors are real: every mutant runs against the module's own test files
// (a second or two each for unit files, 11 to 25 s where the list holds the server's integration files); the few that
// survive run again against the whole unit tier (test/unit/all.ts, 10 to 20 s each), since a page or a golden test may
// be what notices them. A mutant is a survivor only if it survives both.
// A module whose own test list is the unit tier (the route table, which every unit file that builds a table reads) has
// only the first stage, unless its report is reused.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..');
const REPORTS = join(ROOT, 'artifacts', 'mutation');

/** The whole unit tier, one process: what a module's survivors are run against in the second stage. */
const UNIT_TIER = 'test/unit/all.ts';

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
  { name: 'derive', file: 'src/sources/derive.ts', tests: ['test/unit/derive.test.ts'] },
  { name: 'request-target', file: 'src/protocol/request-target.ts', tests: ['test/unit/request-target.test.ts'] },
  { name: 'negotiation', file: 'src/protocol/negotiation.ts', tests: ['test/unit/negotiation.test.ts'] },
  { name: 'conditional', file: 'src/protocol/conditional.ts', tests: ['test/unit/negotiation.test.ts'] },
  { name: 'verdict', file: 'src/protocol/verdict.ts', tests: ['test/unit/verdict.test.ts'] },
  { name: 'validate', file: 'src/validate/contract-checks.ts', tests: ['test/unit/validate.test.ts', 'test/unit/schema.test.ts'] },
  { name: 'series', file: 'src/methodology/series.ts', tests: ['test/unit/series.test.ts'] },
  { name: 'periods', file: 'src/contract/periods.ts', tests: ['test/unit/series.test.ts'] },
  { name: 'vintages', file: 'src/methodology/vintages.ts', tests: ['test/unit/vintages.test.ts'] },
  { name: 'market-index', file: 'src/methodology/market-index.ts', tests: ['test/unit/contract.test.ts', 'test/unit/schema.test.ts'] },
  { name: 'config', file: 'src/commands/config.ts', tests: ['test/unit/config.test.ts', 'test/unit/help.test.ts', 'test/unit/cli.test.ts'] },
  {
    name: 'option-kinds',
    file: 'src/commands/option-kinds.ts',
    tests: ['test/unit/option-kinds.test.ts', 'test/unit/config.test.ts', 'test/unit/help.test.ts'],
  },
  { name: 'suggest', file: 'src/commands/suggest.ts', tests: ['test/unit/help.test.ts', 'test/unit/config.test.ts'] },
  { name: 'problems', file: 'src/protocol/problems.ts', tests: ['test/unit/problems.test.ts', 'test/integration/problems.test.ts'] },
  { name: 'variants', file: 'src/routes/variants.ts', tests: ['test/unit/variants.test.ts'] },
  // Every unit file that builds a table reads its routes: the tier itself is this module's test list.
  { name: 'route-table', file: 'src/routes/route-table.ts', tests: [UNIT_TIER] },
  {
    name: 'answers',
    file: 'src/runtimes/server/answers.ts',
    tests: ['test/unit/answers.test.ts', 'test/integration/server-limits.test.ts', 'test/integration/problems.test.ts', 'test/integration/server-http.test.ts'],
  },
  {
    name: 'handler',
    file: 'src/runtimes/server/handler.ts',
    tests: [
      'test/unit/handler.test.ts',
      'test/integration/server-limits.test.ts',
      'test/integration/server-http.test.ts',
      'test/integration/server-log.test.ts',
      'test/integration/server-connections.test.ts',
    ],
  },
  {
    name: 'connections',
    file: 'src/runtimes/server/connections.ts',
    tests: ['test/unit/connections.test.ts', 'test/integration/server-connections.test.ts'],
  },
  // The listener: node's parser set up, answers on refused sockets, Upgrade and CONNECT, the drain. About 35 s a run, 242
  // mutants: about 90 minutes (Stryker's estimate). server-shutdown.test.ts runs the compiled CLI (lib/, which the
  // sandbox has not), so it cannot see a mutant.
  {
    name: 'listener',
    file: 'src/runtimes/server/listener.ts',
    tests: [
      'test/integration/server-limits.test.ts',
      'test/integration/server-http.test.ts',
      'test/integration/server-connections.test.ts',
      'test/integration/problems.test.ts',
      'test/integration/server-log.test.ts',
    ],
  },
  { name: 'request-facts', file: 'src/runtimes/server/request-facts.ts', tests: ['test/unit/request-facts.test.ts', 'test/unit/handler.test.ts'] },
  { name: 'access-log', file: 'src/runtimes/server/access-log.ts', tests: ['test/unit/access-log.test.ts', 'test/unit/handler.test.ts'] },
  // The Worker's code in memory; test/integration/edge-worker.test.ts (the same answers as the embedded server's) builds a
  // thousand markets, about 30 s a run.
  { name: 'edge-worker', file: 'src/runtimes/edge-worker.ts', tests: ['test/unit/edge-worker.test.ts'] },
  // What the Worker is told of the build, and which bodies are stored in parts.
  { name: 'edge-data', file: 'src/artifact/edge-data.ts', tests: ['test/unit/edge-worker.test.ts'] },
  // The download's writer, read back by Python's zipfile and Info-ZIP's unzip (download.test.ts, 2 s a run) and by verify's reader.
  {
    name: 'zip',
    file: 'src/render/zip.ts',
    tests: ['test/unit/zip.test.ts', 'test/unit/verify-decoding.test.ts', 'test/integration/download.test.ts'],
  },
  { name: 'unzip', file: 'src/commands/verify/unzip.ts', tests: ['test/unit/verify-decoding.test.ts', 'test/unit/zip.test.ts'] },
  // Reading the archive back: the record, the documents it lists and the profiles, each fault named; the integration file
  // writes archives and builds from them (about 5 s of CPU a run).
  { name: 'archive', file: 'src/archive/archive.ts', tests: ['test/integration/vintages.test.ts', 'test/unit/route-table.test.ts'] },
  {
    name: 'headers',
    file: 'src/protocol/headers.ts',
    tests: ['test/unit/route-table.test.ts', 'test/unit/answers.test.ts', 'test/unit/handler.test.ts', 'test/unit/edge-worker.test.ts'],
  },
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
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

interface Report {
  files: Record<string, { source: string; mutants: MutantResult[] }>;
}
const readReport = (reportFile: string): Report => JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
const mutantsOf = (report: Report): MutantResult[] => Object.values(report.files).flatMap((f) => f.mutants);

/** The module's last first-stage report, if it was made from the module's source as it is now. */
function lastReport(name: string, file: string): MutantResult[] | undefined {
  const reportFile = join(REPORTS, `${name}.json`);
  if (!existsSync(reportFile)) return undefined;
  const report = readReport(reportFile);
  return report.files[file]?.source === readFileSync(join(ROOT, file), 'utf8') ? mutantsOf(report) : undefined;
}

/** Which mutant this is, the same in both stages' reports: where it is and what it changes. */
const identity = (m: MutantResult): string =>
  `${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column} ${m.mutatorName} ${m.replacement ?? ''}`;

const escaped = (m: MutantResult): boolean => m.status === 'Survived' || m.status === 'NoCoverage';

/**
 * Counts from the first stage's report, with its survivors' verdicts from the second stage where there was one: score =
 * killed (and timed out) over every mutant that could be tested.
 */
function scoreOf(
  mutants: readonly MutantResult[],
  second: ReadonlyMap<string, string>,
): {
  killed: number;
  survived: number;
  noCoverage: number;
  timeout: number;
  errors: number;
  score: number;
  survivors: string[];
} {
  const final = mutants.map((m) => ({ ...m, status: escaped(m) ? (second.get(identity(m)) ?? m.status) : m.status }));
  const count = (status: string): number => final.filter((m) => m.status === status).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const errors = count('CompileError') + count('RuntimeError');
  const detected = killed + timeout;
  const valid = detected + survived + noCoverage;
  const survivors = final
    .filter(escaped)
    .map((m) => `${m.location.start.line}:${m.location.start.column} ${m.mutatorName} → ${(m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80)}`);
  return { killed, survived, noCoverage, timeout, errors, score: valid === 0 ? 100 : (detected / valid) * 100, survivors };
}

/** One Stryker run: these mutation ranges against one test command; the report's mutants, or undefined when Stryker failed. */
function stryker(name: string, mutate: readonly string[], tests: readonly string[]): MutantResult[] | undefined {
  const reportFile = join(REPORTS, `${name}.json`);
  const config = {
    $schema: './mutation/node_modules/@stryker-mutator/core/schema/stryker-schema.json',
    mutate,
    testRunner: 'command',
    commandRunner: { command: `node --import tsx --test --test-concurrency=1 ${tests.join(' ')}` },
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
  const configFile = join(REPORTS, `${name}.stryker.json`);
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  rmSync(reportFile, { force: true });
  const run = spawnSync(strykerBin, ['run', configFile], { cwd: ROOT, stdio: 'inherit' });
  return run.status === 0 && existsSync(reportFile) ? mutantsOf(readReport(reportFile)) : undefined;
}

const reuse = process.argv.includes('--reuse');
const wanted = process.argv.slice(2).filter((a) => a !== '--reuse');
const selected = wanted.length === 0 ? MODULES : MODULES.filter((m) => wanted.includes(m.name));
if (selected.length === 0) {
  process.stderr.write(`mutation: no module named ${wanted.join(', ')}; the modules are ${MODULES.map((m) => m.name).join(', ')}\n`);
  process.exit(2);
}
const strykerBin = ensureStryker();
mkdirSync(REPORTS, { recursive: true });
const rows: string[] = [];
const notes: string[] = [];
for (const m of selected) {
  const kept = reuse ? lastReport(m.name, m.file) : undefined;
  process.stdout.write(`\nmutation: ${m.file} against ${m.tests.join(', ')}${kept === undefined ? '' : ': its last report (the module is unchanged since)'}\n`);
  const first = kept ?? stryker(m.name, [m.file], m.tests);
  if (first === undefined) {
    rows.push(`| \`${m.file}\` | stryker failed | | | | | |`);
    continue;
  }
  // Each survivor's own range, so only survivors (and mutants nested inside one) run again. A range's columns count
  // from 0 where the report's count from 1; one more on each side keeps the mutant inside it.
  const escapedFirst = first.filter(escaped);
  // A module whose own test list is the unit tier, run now, already has the second stage's verdict (a reused report's
  // survivors still run again: tests were added since).
  const tierFirst = kept === undefined && m.tests.length === 1 && m.tests[0] === UNIT_TIER;
  const ranges = tierFirst
    ? []
    : [...new Set(escapedFirst.map(({ location: { start, end } }) => `${m.file}:${start.line}:${Math.max(0, start.column - 2)}-${end.line}:${end.column}`))];
  const second = new Map<string, string>();
  if (ranges.length > 0) {
    process.stdout.write(`\nmutation: ${m.file}, the ${escapedFirst.length} survivors against the whole unit tier (${UNIT_TIER})\n`);
    const again = stryker(`${m.name}.unit-tier`, ranges, [UNIT_TIER]);
    if (again === undefined) {
      rows.push(`| \`${m.file}\` | stryker failed on the unit tier | | | | | |`);
      continue;
    }
    for (const x of again) second.set(identity(x), x.status);
  }
  const s = scoreOf(first, second);
  const left = s.survived + s.noCoverage;
  const caughtLater = escapedFirst.length - left;
  const mutants = s.killed + s.timeout + left;
  const stage = ranges.length > 0 ? 'run' : tierFirst ? 'the first was the tier' : 'none needed';
  rows.push(`| \`${m.file}\` | ${mutants} | ${mutants - escapedFirst.length} | ${caughtLater} | ${left} | ${s.score.toFixed(1)} % | ${stage} |`);
  if (s.errors > 0) notes.push(`${m.file}: ${s.errors} mutants that did not compile or run, not counted`);
  writeFileSync(join(REPORTS, `${m.name}.survivors.txt`), `${s.survivors.join('\n')}\n`);
}
// The run's table, as markdown: a commit message or a closing note can quote it as printed.
const table = [
  '| module | mutants | killed by its own files | killed by the unit tier | survived | score | second stage |',
  '|---|---|---|---|---|---|---|',
  ...rows,
  ...notes.map((n) => `\n${n}`),
].join('\n');
process.stdout.write(`\n${table}\n\nsurviving mutants, per module: artifacts/mutation/<module>.survivors.txt\n`);
