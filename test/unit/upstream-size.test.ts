// The sixteen profiles (their JSON and CSV as served) do not depend on how much of the country the upstream files hold: only the markets' rows, the committed trim, or national size.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { marketRowsOnly, nationalFiles } from '../support/upstream/index.ts';
import { PATHS } from '../../src/contract/paths.ts';
import { renderJson } from '../../src/contract/json.ts';
import { assembleSnapshot } from '../../src/methodology/snapshot.ts';
import { renderBulkCsv, renderMarketCsv } from '../../src/render/csv-documents.ts';
import { loadSources, type LoadedSources } from '../../src/sources/load.ts';
import { BASE_URL, FIXTURE_FILES } from '../support/data.ts';
import { WORLD_MARKETS, WORLD_MARKET_IDS, WORLD_SOURCES } from '../world/world.ts';

const readerOf = (files: ReadonlyMap<string, string>) => (path: string) => files.get(path) ?? assert.fail(`no fixture ${path}`);
const lines = (text: string | undefined): number => (text ?? '').split('\n').filter((l) => l.trim() !== '').length;

/** The documents under test, as served (the renderers the route table uses), from the snapshot these files assemble. */
function documents(data: LoadedSources): Map<string, string> {
  const snapshot = assembleSnapshot(WORLD_MARKETS, data, BASE_URL);
  const profiles = snapshot.markets.map((m) => m.profile);
  return new Map([
    ...profiles.flatMap((p): [string, string][] => [
      [PATHS.profile(p.market.id), renderJson(p)],
      [PATHS.marketCsv(p.market.id), renderMarketCsv(p)],
    ]),
    [PATHS.bulkCsv, renderBulkCsv(profiles)],
    [PATHS.index, renderJson(snapshot.index)],
  ]);
}

describe('profiles are the same whatever surrounds the markets in the upstream files', () => {
  const sizes = {
    'only the markets': marketRowsOnly(FIXTURE_FILES),
    'the committed fixtures': new Map(FIXTURE_FILES),
    'national size': nationalFiles(FIXTURE_FILES),
  };
  const loaded = Object.entries(sizes).map(([name, files]) => [name, loadSources(readerOf(files), WORLD_MARKETS, WORLD_SOURCES)] as const);
  const skipped = Object.fromEntries(loaded.map(([name, data]) => [name, data.loads.map((l) => l.skipped)]));
  test('the three inputs really differ: no other row, a few hundred, and every place of the country', () => {
    assert.deepEqual(skipped['only the markets'], [0, 0, 0]);
    assert.ok(
      (skipped['the committed fixtures'] ?? []).every((n) => n > 200),
      JSON.stringify(skipped),
    );
    const national = sizes['national size'];
    assert.ok(lines(national.get('fhfa-hpi/hpi_at_metro.csv')) >= 80_000, "lines(national.get('fhfa-hpi/hpi_at_metro.csv')) >= 80_000");
    for (const region of ['ne', 'mw', 'so', 'we']) assert.ok(lines(national.get(`census-bps/${region}2024a.txt`)) >= 20_000, region);
    assert.ok(
      (JSON.parse(national.get('census-acs-5yr/acs5-2024-detailed-place.json') ?? '[]') as unknown[]).length > 32_000,
      "(JSON.parse(national.get('census-acs-5yr/acs5-2024-detailed-place.json') ?? '[]') as unknown[]).length > 32_000",
    );
  });

  const built = loaded.map(([name, data]) => [name, documents(data)] as const);
  const [reference, ...others] = built;
  for (const [name, served] of others) {
    test(`${name}: every profile, market CSV and the bulk CSV byte-identical to the build from only the markets' rows`, () => {
      assert.ok(reference, 'reference');
      const paths = [...WORLD_MARKET_IDS.flatMap((id) => [PATHS.profile(id), PATHS.marketCsv(id)]), PATHS.bulkCsv, PATHS.index];
      for (const path of paths) {
        const a = reference[1].get(path);
        const b = served.get(path);
        assert.ok(a !== undefined && b !== undefined && a === b, `${path} differs`);
      }
    });
  }
});
