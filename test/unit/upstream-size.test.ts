// The sixteen profiles do not depend on how much of the country the upstream files hold: only the markets' rows, the committed trim, or national size.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { marketRowsOnly, nationalFiles } from '../../src/sources/synthetic.ts';
import { MARKET_IDS } from '../../src/contract/markets.ts';
import { PATHS } from '../../src/contract/paths.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { loadSources } from '../../src/sources/load.ts';
import { SOURCES } from '../../src/sources/registry.ts';
import { MARKETS } from '../../src/contract/markets.ts';
import { FIXTURE_FILES, buildTable } from '../support/data.ts';

const readerOf = (files: ReadonlyMap<string, string>) => (path: string) => files.get(path) ?? assert.fail(`no fixture ${path}`);
const lines = (text: string | undefined): number => (text ?? '').split('\n').filter((l) => l.trim() !== '').length;

describe('profiles are the same whatever surrounds the markets in the upstream files', () => {
  const sizes = {
    'only the markets': marketRowsOnly(FIXTURE_FILES),
    'the committed fixtures': new Map(FIXTURE_FILES),
    'national size': nationalFiles(FIXTURE_FILES),
  };
  const skipped = Object.fromEntries(
    Object.entries(sizes).map(([name, files]) => [name, loadSources(readerOf(files), MARKETS, SOURCES).loads.map((l) => l.skipped)]),
  );
  test('the three inputs really differ: no other row, a few hundred, and every place of the country', () => {
    assert.deepEqual(skipped['only the markets'], [0, 0, 0]);
    assert.ok(
      (skipped['the committed fixtures'] ?? []).every((n) => n > 200),
      JSON.stringify(skipped),
    );
    const national = sizes['national size'];
    assert.ok(lines(national.get('fhfa-hpi/hpi_at_metro.csv')) >= 80_000);
    for (const region of ['ne', 'mw', 'so', 'we']) assert.ok(lines(national.get(`census-bps/${region}2024a.txt`)) >= 20_000, region);
    assert.ok((JSON.parse(national.get('census-acs-5yr/acs5-2024-detailed-place.json') ?? '[]') as unknown[]).length > 32_000);
  });

  const tables: [string, RouteTable][] = Object.entries(sizes).map(([name, files]) => [name, buildTable(undefined, readerOf(files))]);
  const [reference, ...others] = tables;
  for (const [name, table] of others) {
    test(`${name}: every profile, market CSV and the bulk CSV byte-identical to the build from only the markets' rows`, () => {
      assert.ok(reference);
      const paths = [...MARKET_IDS.flatMap((id) => [PATHS.profile(id), PATHS.marketCsv(id)]), PATHS.bulkCsv, PATHS.index];
      for (const path of paths) {
        const a = reference[1].routes.get(path)?.identity.body;
        const b = table.routes.get(path)?.identity.body;
        assert.ok(a !== undefined && b !== undefined && a.equals(b), `${path} differs`);
      }
    });
  }
});
