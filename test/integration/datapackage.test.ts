// /api/datapackage: a tabular Data Package that Frictionless Data's own JavaScript library loads, validates and reads, whose byte counts and hashes are those of the files served.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeBuild } from '../../src/artifact/write.ts';
import { CSV_COLUMNS, type MarketProfile } from '../../src/contract/schemas.ts';
import { CSV_DIALECT } from '../../src/describe/datapackage.ts';
import { SITE_DIR, fileFor } from '../../src/artifact/manifest.ts';
import { SERIES_CSV_COLUMNS } from '../../src/contract/series.ts';
import { PATHS } from '../../src/contract/paths.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { BASE_URL, body, buildTable } from '../support/data.ts';
import { startEmbedded } from '../support/embedded.ts';
import { frictionless, type FrictionlessPackage } from '../support/frictionless.ts';
import { WORLD_MARKET_IDS, buildWorld, worldArchive } from '../world/world.ts';

interface Resource {
  name: string;
  description: string;
  path: string;
  bytes: number;
  hash: string;
  dialect: Record<string, unknown>;
  schema: { fields: { name: string; type: string; constraints: Record<string, unknown> }[]; primaryKey: string[] };
}

const table = buildTable();
const pkg = JSON.parse(body(table, PATHS.dataPackage)) as { profile: string; resources: Resource[]; licenses: unknown[]; sources: unknown[] };
/** The world with its archived snapshots, served as vintages. */
const archived = buildWorld({ baseUrl: BASE_URL, archive: worldArchive() });
const archivedPkg = JSON.parse(body(archived, PATHS.dataPackage)) as typeof pkg;
const sha256 = (bytes: Buffer): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describe('the Data Package, as built', () => {
  const ids = [...WORLD_MARKET_IDS].sort();
  const profiles = pkg.resources.slice(0, 1 + ids.length);
  const series = pkg.resources.slice(1 + ids.length, 2 * (1 + ids.length));
  test('the bulk CSV and each market CSV, by absolute URL, with the CSV dialect and the primary key market_id + metric_id', () => {
    assert.equal(pkg.profile, 'tabular-data-package');
    assert.deepEqual(
      profiles.map((r) => r.path),
      [BASE_URL + PATHS.bulkCsv, ...ids.map((id) => BASE_URL + PATHS.marketCsv(id))],
    );
    for (const r of profiles) {
      assert.deepEqual(r.dialect, CSV_DIALECT);
      assert.deepEqual(
        r.schema.fields.map((f) => f.name),
        CSV_COLUMNS.map((c) => c.name),
      );
      assert.deepEqual(r.schema.primaryKey, ['market_id', 'metric_id']);
      assert.ok(
        r.schema.fields.every((f) => f.constraints.required === true),
        'r.schema.fields.every((f) => f.constraints.required === true)',
      );
    }
    const austin = pkg.resources.find((r) => r.name === 'us-tx-austin-housing');
    assert.deepEqual(austin?.schema.fields.find((f) => f.name === 'market_id')?.constraints.enum, ['us-tx-austin']);
    assert.ok(pkg.licenses.length > 0 && pkg.sources.length > 0, 'pkg.licenses.length > 0 && pkg.sources.length > 0');
  });

  test('then the bulk series CSV and each market series CSV, typed (dates, numbers, booleans), keyed by market, metric, area and period', () => {
    assert.deepEqual(
      series.map((r) => r.path),
      [BASE_URL + PATHS.bulkSeriesCsv, ...ids.map((id) => BASE_URL + PATHS.seriesCsv(id))],
    );
    for (const r of series) {
      assert.deepEqual(r.dialect, CSV_DIALECT);
      assert.deepEqual(
        r.schema.fields.map((f) => f.name),
        SERIES_CSV_COLUMNS.map((c) => c.name),
      );
      // The area too: a market's row and its state's and the nation's share a market, a metric and a period.
      assert.deepEqual(r.schema.primaryKey, ['market_id', 'metric_id', 'geography_code', 'period']);
      const type = (name: string): unknown => (r.schema.fields.find((f) => f.name === name) as { type?: string } | undefined)?.type;
      assert.deepEqual(['period_start', 'value', 'margin_of_error', 'illustrative', 'geography_code'].map(type), [
        'date',
        'number',
        'number',
        'boolean',
        'string',
      ]);
      assert.equal(r.schema.fields.find((f) => f.name === 'margin_of_error')?.constraints.required, false, 'the margin may be empty');
    }
  });

  test("then every CSV of every snapshot /api/vintages lists, newest first, its bulk CSV before its markets' CSVs, typed as the market CSVs", () => {
    const pkg = archivedPkg;
    const table = archived;
    const vintages = pkg.resources.slice(2 * (1 + ids.length));
    const listed = (JSON.parse(body(table, PATHS.vintages)) as { vintages: { links: { bulkCsv: string; markets: Record<string, { csv: string }> } }[] })
      .vintages;
    assert.deepEqual(
      vintages.map((r) => r.path),
      listed.flatMap((v) => [v.links.bulkCsv, ...Object.values(v.links.markets).map((m) => m.csv)]),
    );
    for (const r of vintages) {
      assert.deepEqual(
        r.schema.fields.map((f) => f.name),
        CSV_COLUMNS.map((c) => c.name),
        r.name,
      );
      assert.ok(table.routes.has(r.path.slice(BASE_URL.length)), r.path);
    }
    // Every CSV the table serves is a resource, and nothing else is.
    assert.deepEqual(
      pkg.resources.map((r) => r.path.slice(BASE_URL.length)).sort(),
      [...table.routes.values()]
        .filter((r) => r.kind === 'csv')
        .map((r) => r.path)
        .sort(),
    );
  });

  test("an archived snapshot's CSVs say which of their rows its JSON marks illustrative: the 2026-11-24 snapshot's 4 metrics in 16 markets", () => {
    const table = archived;
    const vintages = archivedPkg.resources.slice(2 * (1 + ids.length));
    const older = vintages.filter((r) => r.name.endsWith('-2026-11-24'));
    const newer = vintages.filter((r) => r.name.endsWith('-2026-11-29'));
    assert.equal(older.length, 17, 'its bulk CSV and 16 markets');
    const said =
      ' The rows of metric_id medianRenterIncome, ownerCostBurden, rentBurden, rentalVacancyRate hold illustrative values, not the agency\'s published figures (the JSON profiles of the same snapshot mark them "illustrative": true).';
    for (const r of older) assert.ok(r.description.endsWith(said), r.name);
    for (const r of newer) assert.doesNotMatch(r.description, /illustrative/, r.name);
    // The rows those words name are the values the archived JSON marks: 64 of each.
    const named = new Set(['medianRenterIncome', 'ownerCostBurden', 'rentBurden', 'rentalVacancyRate']);
    const rows = body(table, PATHS.vintageBulkCsv('2026-11-24'))
      .split('\r\n')
      .slice(1, -1)
      .filter((line) => named.has(line.split(',')[3] ?? ''));
    const marked = Object.keys(
      (JSON.parse(body(table, PATHS.vintages)) as { vintages: { snapshotDate: string; links: { markets: Record<string, unknown> } }[] }).vintages.find(
        (v) => v.snapshotDate === '2026-11-24',
      )?.links.markets ?? {},
    ).flatMap((id) =>
      Object.values((JSON.parse(body(table, PATHS.vintageProfile('2026-11-24', id))) as MarketProfile).profile.metrics).filter((m) => m?.illustrative === true),
    );
    assert.equal(rows.length, 64);
    assert.equal(marked.length, 64);
  });

  test('one type per column everywhere: the contract descriptor, the series descriptor and every Table Schema agree', () => {
    const contract = new Map<string, string>(CSV_COLUMNS.map((c) => [c.name, c.type]));
    const seriesTypes = new Map<string, string>(SERIES_CSV_COLUMNS.map((c) => [c.name, c.type]));
    for (const [name, type] of seriesTypes) if (contract.has(name)) assert.equal(type, contract.get(name), `${name}: series descriptor vs contract`);
    assert.equal(seriesTypes.get('live_data'), 'string', 'live_data is the text "false", as the contract fixes it');
    for (const r of profiles) for (const f of r.schema.fields) assert.equal(f.type, contract.get(f.name), `${r.name} ${f.name}`);
    for (const r of series) for (const f of r.schema.fields) assert.equal(f.type, seriesTypes.get(f.name), `${r.name} ${f.name}`);
    for (const r of pkg.resources) assert.deepEqual(r.schema.fields.find((f) => f.name === 'live_data')?.constraints.enum, ['false'], r.name);
  });

  test("each resource's bytes and hash are those of the file dist/ serves for it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mp-datapackage-'));
    try {
      await writeBuild(table, join(dir, 'dist'));
      for (const r of pkg.resources) {
        const route = table.routes.get(r.path.slice(BASE_URL.length));
        assert.ok(route, r.path);
        const file = readFileSync(join(dir, 'dist', SITE_DIR, fileFor(route)));
        assert.equal(r.bytes, file.length, r.path);
        assert.equal(r.hash, sha256(file), r.path);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Frictionless Data's library (datapackage) against the running server", () => {
  let served: { baseUrl: string; table: RouteTable; stop: () => Promise<void> };
  let loaded: FrictionlessPackage;
  before(async () => {
    const { running, baseUrl } = await startEmbedded();
    served = { baseUrl, table: running.table, stop: () => running.close() };
    loaded = await frictionless().Package.load(`${baseUrl}${PATHS.dataPackage}`);
  });
  after(() => served.stop());

  test('loads /api/datapackage as a valid tabular Data Package', () => {
    assert.deepEqual(
      loaded.errors.map((e) => e.message),
      [],
    );
    assert.equal(loaded.valid, true);
    // Every CSV it serves: the current ones and each snapshot's under /api/vintages (this server's: the current one).
    assert.equal(loaded.resources.length, [...served.table.routes.values()].filter((r) => r.kind === 'csv').length);
    assert.ok(loaded.resources.length > 2 * (1 + WORLD_MARKET_IDS.length), 'the vintages among them');
    for (const r of loaded.resources) assert.ok(r.valid && r.tabular, r.name);
  });

  test('reads every resource over HTTP and casts every row to its Table Schema: numbers, dates, the constant "false"', async () => {
    let rows = 0;
    for (const r of loaded.resources) {
      const records = await r.read({ keyed: true });
      const path = String(r.descriptor.path).slice(served.baseUrl.length);
      assert.equal(records.length, body(table, path).split('\r\n').length - 2, r.name);
      const isSeries = path.includes('/series/');
      for (const record of records) {
        assert.equal(typeof record.value, 'number');
        assert.equal(record.live_data, 'false');
        assert.equal(record.production_mode, 'static-fixture');
        assert.match(String(record.updated_date), /^\d{4}-\d{2}-\d{2}$/);
        if (isSeries) {
          assert.ok(record.period_start instanceof Date && record.period_end instanceof Date, r.name);
          assert.equal(typeof record.illustrative, 'boolean', r.name);
          assert.ok(record.margin_of_error === null || typeof record.margin_of_error === 'number', r.name);
        }
      }
      rows += records.length;
    }
    const lines = (path: string): number => body(table, path).split('\r\n').length - 2;
    // Each bulk CSV holds its markets' rows once more: the current two, and each snapshot's.
    const bulks = [
      PATHS.bulkCsv,
      PATHS.bulkSeriesCsv,
      ...loaded.resources.map((r) => String(r.descriptor.path).slice(served.baseUrl.length)).filter((p) => /^\/api\/vintages\/[^/]+\/markets\/csv$/.test(p)),
    ];
    assert.equal(rows, 2 * bulks.reduce((sum, path) => sum + lines(path), 0));
  });

  test("the hashes and byte counts equal what the server sends for each resource's URL", async () => {
    for (const r of loaded.resources) {
      const res = await fetch(String(r.descriptor.path), { headers: { 'Accept-Encoding': 'identity' } });
      const bytes = Buffer.from(await res.arrayBuffer());
      assert.equal(r.descriptor.bytes, bytes.length, r.name);
      assert.equal(r.descriptor.hash, sha256(bytes), r.name);
    }
  });

  test('the library is not a formality: a constraint the data break fails the read, a field without a name fails the descriptor', async () => {
    // The package as served: the running server's own route table, built for its URL.
    const descriptor = JSON.parse(body(served.table, PATHS.dataPackage)) as { resources: Resource[] };
    const [first] = descriptor.resources;
    assert.ok(first, 'first');
    const wrongIds = structuredClone(first);
    const marketId = wrongIds.schema.fields.find((f) => f.name === 'market_id');
    if (marketId) marketId.constraints.enum = ['us-zz-nowhere'];
    const strict = await frictionless().Package.load({ resources: [wrongIds] } as never);
    await assert.rejects(() => strict.resources[0]?.read() ?? Promise.resolve([]));
    const nameless = structuredClone(first) as unknown as { schema: { fields: Record<string, unknown>[] } };
    delete nameless.schema.fields[0]?.name;
    const invalid = await frictionless().Package.load({ resources: [nameless] } as never);
    assert.equal(invalid.valid, false);
  });
});
