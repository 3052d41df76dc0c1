// The suggested citation is one text: CITATION.cff states it for the repository, the data sources page and the download's README cite the snapshot with it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { PATHS } from '../../src/contract/paths.ts';
import { CITATION, citationCff, citationText } from '../../src/render/citation.ts';
import { SOURCES } from '../../src/sources/registry.ts';
import { BASE_URL, body, buildTable } from '../support/data.ts';
import { WORLD_SNAPSHOT_DATE } from '../world/world.ts';

const root = (file: string): string => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('the suggested citation', () => {
  test('names the author, the year and date of the snapshot, its address that never changes, and each source', () => {
    assert.equal(
      citationText({
        snapshotDate: '2026-11-29',
        address: 'https://data.example.org/api/vintages/2026-11-29/markets',
        sources: [{ agency: 'Federal Housing Finance Agency', sourceName: 'FHFA House Price Index', sourceUrl: 'https://www.fhfa.gov/data/hpi' }],
      }),
      'Market profiles contributors (2026). Housing market profiles, snapshot of 2026-11-29 [Data set]. https://data.example.org/api/vintages/2026-11-29/markets. Compiled from Federal Housing Finance Agency, FHFA House Price Index.',
    );
    assert.match(
      citationText({ sources: [] }),
      /^Market profiles contributors \(<year>\)\. Housing market profiles, snapshot of <date> \[Data set\]\. <base-url>\/api\/vintages\/<date>\/markets\./,
    );
  });

  test("CITATION.cff is what citationCff makes of the registry's sources, under package.json's licence", () => {
    const cff = root('CITATION.cff');
    assert.ok(
      cff === citationCff(SOURCES.map((s) => s.attribution)),
      'CITATION.cff: write it again from citationCff(SOURCES.map((s) => s.attribution)) in src/render/citation.ts',
    );
    assert.match(cff, /^cff-version: 1\.2\.0$/m);
    assert.match(cff, /^type: dataset$/m);
    assert.equal((JSON.parse(root('package.json')) as { license: string }).license, CITATION.licence);
  });

  test('the data sources page cites the snapshot it shows, at its vintage address', () => {
    const table = buildTable();
    const sources = (JSON.parse(body(table, PATHS.profile('us-tx-austin'))) as { sources: { agency: string; sourceName: string; sourceUrl: string }[] })
      .sources;
    const text = citationText({ snapshotDate: WORLD_SNAPSHOT_DATE, address: `${BASE_URL}${PATHS.vintageIndex(WORLD_SNAPSHOT_DATE)}`, sources });
    assert.ok(body(table, PATHS.dataSources).includes(`<h2 id="cite">Suggested citation</h2><p>${text.replaceAll('&', '&amp;')}</p>`), text);
  });
});
