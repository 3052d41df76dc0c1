// One more source plugs in as docs/architecture.md's "Add a source" says: its module, its fixture (retrieved after the newest
// archived snapshot) and its registry entry, and no other edit. A copy of the whole project gets the test-only sample in HUD's
// Fair Market Rents layout (test/fourth-source/), type-checks, and builds a new snapshot beside the archived ones; the new metric
// reaches the JSON, both CSVs, the descriptor's rows, the Data Package, the OpenAPI document and the pages. What the project
// held before is read from its newest archived snapshot, so the test holds whatever sources the registry has.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADDED = fileURLToPath(new URL('../fourth-source/', import.meta.url));
const BASE = 'http://localhost:3000';
const AUSTIN = 'us-tx-austin';
/** The registry's new import line. */
const IMPORT = "import { hudFmrSample } from './hud-fmr-sample/index.ts';";

/** Every file below a folder, relative to it. */
const walk = (dir: string, under = dir): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, under) : [relative(under, path)];
  });

/** The registry entry: the module's import, and its place in the list of sources. */
function register(registry: string): void {
  const text = readFileSync(registry, 'utf8');
  const lastImport = text.lastIndexOf('\nimport ');
  const endOfImport = text.indexOf('\n', lastImport + 1);
  const withImport = `${text.slice(0, endOfImport + 1)}${IMPORT}\n${text.slice(endOfImport + 1)}`;
  const listed = withImport.replace(
    /const REGISTERED = \[([^\]]*?),?\s*\] as const;/,
    (_, list: string) => `const REGISTERED = [${list.trim()}, hudFmrSample] as const;`,
  );
  assert.notEqual(listed, withImport, 'the registry lists its sources in `const REGISTERED = [...] as const`');
  writeFileSync(registry, listed);
}

describe('a fourth source with one metric, added by its module, its fixture and its registry entry', () => {
  let work = '';
  /** The day after the newest archived snapshot: the new source's retrieval date, so the build makes a new snapshot. */
  let retrieved = '';
  /** Austin's profile in the newest archived snapshot: what the project served before the source was added. */
  let archivedAustin: { sources: { sourceId: string; confidence: string }[]; profile: { coverage: { totalRequired: number } } };
  /** Each served path's file in the copy's build. */
  let files = new Map<string, string>();
  const body = (path: string): string => readFileSync(join(work, 'dist', 'site', files.get(path) ?? assert.fail(`no route ${path}`)), 'utf8');

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'mp-fourth-source-'));
    // The whole project as it stands, archive/ included (every file git tracks or would track: new files before they are
    // committed too, nothing it ignores): the build serves every archived snapshot and holds the current one to its
    // archived bytes.
    const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f !== '' && existsSync(join(ROOT, f)));
    for (const file of tracked) cpSync(join(ROOT, file), join(work, file), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
    cpSync(join(ADDED, 'hud-fmr-sample'), join(work, 'src', 'sources', 'hud-fmr-sample'), { recursive: true });
    cpSync(join(ADDED, 'fixtures', 'hud-fmr-sample'), join(work, 'fixtures', 'hud-fmr-sample'), { recursive: true });
    // The archive's rule (docs/architecture.md): the new source's files are retrieved after the newest archived snapshot.
    const newest = readdirSync(join(work, 'archive'))
      .filter((name) => /^\d{4}-\d{2}-\d{2}$/.test(name))
      .sort()
      .at(-1);
    assert.ok(newest !== undefined, 'the project has an archived snapshot');
    retrieved = new Date(Date.parse(`${newest}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    archivedAustin = JSON.parse(readFileSync(join(work, 'archive', newest, 'markets', `${AUSTIN}.json`), 'utf8')) as typeof archivedAustin;
    const retrieval = join(work, 'fixtures', 'hud-fmr-sample', 'retrieval.json');
    writeFileSync(retrieval, `${JSON.stringify({ ...(JSON.parse(readFileSync(retrieval, 'utf8')) as object), latestRetrievedAt: retrieved })}\n`);
    register(join(work, 'src', 'sources', 'registry.ts'));
    // The copy's own build command, run from the copy (tsx reads the copy's tsconfig there); it validates what it writes.
    writeFileSync(
      join(work, 'build.ts'),
      "import { main } from './src/commands/cli.ts';\nprocess.exitCode = await main(['build', '--out', 'dist'], process.env);\n",
    );
    execFileSync(process.execPath, ['--import', 'tsx', 'build.ts'], { cwd: work, env: { ...process.env, BASE_URL: BASE }, encoding: 'utf8' });
    const manifest = JSON.parse(readFileSync(join(work, 'dist', 'manifest.json'), 'utf8')) as { routes: { path: string; file: string }[] };
    files = new Map(manifest.routes.map((r) => [r.path, r.file]));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('the copy differs from the service by the new module, its fixture and two lines of the registry, nothing else', () => {
    const differing = ['src', 'fixtures'].flatMap((part) =>
      walk(join(work, part)).flatMap((file) => {
        const path = join(part, file);
        let original: Buffer | undefined;
        try {
          original = readFileSync(join(ROOT, path));
        } catch {
          return [`added ${path}`];
        }
        return original.equals(readFileSync(join(work, path))) ? [] : [`changed ${path}`];
      }),
    );
    assert.deepEqual(differing.sort(), [
      'added fixtures/hud-fmr-sample/README.md',
      'added fixtures/hud-fmr-sample/fy2026-fmr-metro.csv',
      'added fixtures/hud-fmr-sample/retrieval.json',
      'added src/sources/hud-fmr-sample/index.ts',
      'changed src/sources/registry.ts',
    ]);
    const before = readFileSync(join(ROOT, 'src/sources/registry.ts'), 'utf8').split('\n');
    const now = readFileSync(join(work, 'src/sources/registry.ts'), 'utf8').split('\n');
    const registered = before.find((line) => line.startsWith('const REGISTERED = [')) ?? assert.fail('no REGISTERED line');
    assert.deepEqual(
      now.filter((line) => !before.includes(line)),
      [IMPORT, registered.replace('] as const;', ', hudFmrSample] as const;')],
    );
  });

  test('the copy type-checks under the same strict settings: no table of metric ids or source ids asks for an entry', () => {
    writeFileSync(join(work, 'tsconfig.src.json'), JSON.stringify({ extends: './tsconfig.json', include: ['src'], exclude: [] }));
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    // Throws with tsc's own report when the copy does not compile.
    execFileSync(process.execPath, [tsc, '--noEmit', '-p', join(work, 'tsconfig.src.json')], { cwd: work, encoding: 'utf8' });
  });

  test('the JSON profile carries the metric and cites the source; coverage still counts the required metrics', () => {
    const profile = JSON.parse(body(`/api/markets/${AUSTIN}`)) as {
      profile: {
        metrics: Record<string, { value: number; sourceId: string; label: string; unit: string; illustrative?: true }>;
        coverage: { totalRequired: number };
      };
      sources: { sourceId: string; confidence: string }[];
      geographyScope: { boundaries: { level: string; metrics: string[] }[] };
    };
    assert.deepEqual(profile.profile.metrics['sampleFairMarketRent'], {
      id: 'sampleFairMarketRent',
      label: 'Sample fair market rent, two bedrooms',
      unit: 'USD/mo',
      value: 1760,
      asOf: 'FY2026',
      sourceId: 'hud-fmr-sample',
      // The test fixture's retrieval.json says its values are illustrative: the JSON says so, and the source claims low confidence.
      illustrative: true,
    });
    // The sources Austin cited in the newest archived snapshot, and the sample beside them, by id.
    assert.deepEqual(
      profile.sources.map((s) => [s.sourceId, s.confidence]),
      [...archivedAustin.sources.map((s) => [s.sourceId, s.confidence]), ['hud-fmr-sample', 'low']].sort(([a = ''], [b = '']) => a.localeCompare(b)),
    );
    assert.equal(profile.profile.coverage.totalRequired, archivedAustin.profile.coverage.totalRequired);
    assert.ok(
      profile.geographyScope.boundaries.some((b) => b.level === 'cbsa' && b.metrics.includes('sampleFairMarketRent')),
      "profile.geographyScope.boundaries.some((b) => b.level === 'cbsa' && b.metrics.includes('sampleFairMarketRent'))",
    );
  });

  test('a new snapshot of the day its files were retrieved, beside every archived one, each still served as it was', () => {
    const vintages = JSON.parse(body('/api/vintages')) as { vintages: { snapshotDate: string; current: boolean }[] };
    const archived = readdirSync(join(ROOT, 'archive')).filter((name) => /^\d{4}-\d{2}-\d{2}$/.test(name));
    assert.deepEqual(
      vintages.vintages.map((v) => [v.snapshotDate, v.current]),
      [
        [retrieved, true],
        ...archived
          .sort()
          .reverse()
          .map((date) => [date, false]),
      ],
    );
    for (const date of archived) {
      const path = `/api/vintages/${date}/markets/${AUSTIN}`;
      assert.equal(body(path), readFileSync(join(ROOT, 'archive', date, 'markets', `${AUSTIN}.json`), 'utf8').replaceAll('{base_url}', BASE), path);
    }
  });

  test('the market CSV and the bulk CSV have its rows, and every row fits the CSV descriptor', () => {
    const descriptor = JSON.parse(body('/api/schema/market-csv')) as { columns: { name: string; type: string; const?: string }[] };
    const rowsOf = (path: string): Record<string, string>[] => parse(body(path), { columns: true }) as Record<string, string>[];
    const austin = rowsOf(`/api/markets/${AUSTIN}/csv`).find((r) => r['metric_id'] === 'sampleFairMarketRent');
    assert.equal(austin?.['value'], '1760');
    assert.equal(austin?.['source_id'], 'hud-fmr-sample');
    const bulk = rowsOf('/api/markets/csv');
    const { count } = JSON.parse(body('/api/markets')) as { count: number };
    assert.equal(bulk.filter((r) => r['metric_id'] === 'sampleFairMarketRent').length, count, 'one row per market');
    for (const row of bulk) {
      assert.deepEqual(
        Object.keys(row),
        descriptor.columns.map((c) => c.name),
      );
      for (const c of descriptor.columns) {
        if (c.type === 'number') assert.ok(Number.isFinite(Number(row[c.name])), `${c.name} ${row[c.name]}`);
        if (c.const !== undefined) assert.equal(row[c.name], c.const);
      }
    }
  });

  test('the Data Package names its licence and dataset; the OpenAPI examples carry the metric', () => {
    const pkg = JSON.parse(body('/api/datapackage')) as { licenses: { name: string; path: string; title: string }[]; sources: { title: string }[] };
    assert.ok(
      pkg.licenses.some((l) => l.name === 'other-pd' && l.path === 'https://www.huduser.gov/portal/datasets/fmr.html' && /Fair Market Rents/.test(l.title)),
      "pkg.licenses.some((l) => l.name === 'other-pd' && l.path === 'https://www.huduser.gov/portal/datasets/fmr.html' && /Fair Market Rents/.test(l.title))",
    );
    assert.ok(
      pkg.sources.some((s) => s.title === 'U.S. Department of Housing and Urban Development, Fair Market Rents, metro areas, FY2026'),
      "pkg.sources.some((s) => s.title === 'U.S. Department of Housing and Urban Development, Fair Market Rents, metro areas, FY2026')",
    );
    const openApi = body('/api/openapi');
    assert.match(openApi, /"sampleFairMarketRent"/);
    assert.match(openApi, /"hud-fmr-sample"/);
  });

  test('the pages show it: the market page, the methodology, the data sources and the home page', () => {
    const market = body(`/markets/${AUSTIN}`);
    assert.match(market, /Sample fair market rent, two bedrooms/);
    // In the table of every figure: the value, and the period its money is over.
    assert.match(market, /\$1,760<span class="per"> a month<\/span>/);
    assert.match(body('/methodology'), /id="metric-sampleFairMarketRent"/);
    const sources = body('/data-sources');
    assert.match(sources, /id="hud-fmr-sample"/);
    assert.match(sources, /HUD data are works of the U\.S\. Government/);
    assert.match(body('/'), /sample fair market rent \(HUD FMR, 2026\)/);
    assert.match(body('/data-status'), /HUD Fair Market Rents \(test sample\)/);
  });
});
