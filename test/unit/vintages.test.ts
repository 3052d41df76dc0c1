// The vintage index (/api/vintages): each snapshot's sources with their files as hashed, the next release and whether it was overdue at that snapshot's date, and its links.
import assert from 'node:assert/strict';
import { METHODOLOGY_VERSION } from '../../src/methodology/version.ts';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type MarketDefinition } from '../../src/contract/markets.ts';
import { PATHS } from '../../src/contract/paths.ts';
import type { MarketProfile } from '../../src/contract/schemas.ts';
import type { VintageIndex } from '../../src/contract/vintages.ts';
import type { PastSnapshot } from '../../src/methodology/series.ts';
import { assembleSnapshot, type Snapshot } from '../../src/methodology/snapshot.ts';
import { buildVintageIndex } from '../../src/methodology/vintages.ts';
import { loadSources } from '../../src/sources/load.ts';
import type { ReadFixture, SourceModule } from '../../src/sources/source.ts';
import { BASE_URL, FIXTURES_DIR, body, buildTable, fixtureReader } from '../support/data.ts';
import { WORLD_MARKETS, WORLD_MARKET_IDS, WORLD_SOURCES } from '../world/world.ts';

const AUSTIN = 'us-tx-austin';
const SNAPSHOT = '2026-11-29';
const PAST = '2025-11-20';

/** A committed fixture file as the index should list it, read and hashed here without the loader. */
const fileOf = (file: string): { file: string; bytes: number; sha256: string } => {
  const bytes = readFileSync(join(FIXTURES_DIR, file));
  return { file, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
};

const table = buildTable();
const profileOf = (id: string): MarketProfile => JSON.parse(body(table, PATHS.profile(id))) as MarketProfile;

/** An archived snapshot of some markets (their profiles as built today), recorded with one source released 2024-12-12 (next due 2025-12-12). */
const past = (snapshotDate: string, marketIds: readonly string[], methodologyVersion = 'v2.0'): PastSnapshot => ({
  snapshotDate,
  methodologyVersion,
  sources: [
    {
      sourceId: 'census-acs-5yr',
      vintage: '2019-2023',
      updateFrequency: 'annually',
      latestReleaseDate: '2024-12-12',
      latestRetrievedAt: '2025-11-20',
      files: [{ file: 'census-acs-5yr/old.json', bytes: 3, sha256: '0'.repeat(64) }],
    },
  ],
  profiles: new Map(marketIds.map((id) => [id, profileOf(id)])),
  documents: new Map(),
});

/** The snapshot the build assembles from the committed fixtures, with these archived snapshots (and these sources). */
const snapshotWith = (archive: readonly PastSnapshot[], sources: readonly SourceModule[] = WORLD_SOURCES): Snapshot =>
  assembleSnapshot(WORLD_MARKETS, loadSources(fixtureReader(), WORLD_MARKETS, sources), BASE_URL, archive);

describe('the vintage index', () => {
  test('the current snapshot: each cited source with its vintage, dates and files as committed, due and overdue judged at 2026-11-29', () => {
    const index = JSON.parse(body(table, PATHS.vintages)) as VintageIndex;
    assert.equal(index.count, 1);
    const [current] = index.vintages;
    assert.equal(current?.snapshotDate, SNAPSHOT);
    assert.equal(current?.current, true);
    assert.equal(current?.methodologyVersion, METHODOLOGY_VERSION);
    assert.deepEqual(current?.sources, [
      {
        sourceId: 'census-acs-5yr',
        vintage: '2020-2024',
        updateFrequency: 'annually',
        latestReleaseDate: '2026-01-29',
        latestRetrievedAt: '2026-11-29',
        files: ['2019-detailed-place', '2019-detailed-state', '2024-detailed-place', '2024-detailed-state', '2024-detailed-us'].map((f) =>
          fileOf(`census-acs-5yr/acs5-${f}.json`),
        ),
        // 2026-01-29 and a year: not yet due at the snapshot.
        nextExpectedRelease: '2027-01-29',
        overdue: false,
      },
      {
        sourceId: 'census-bps',
        vintage: '2024',
        updateFrequency: 'annually',
        latestReleaseDate: '2025-05-01',
        latestRetrievedAt: '2026-11-24',
        files: ['mw', 'ne', 'so', 'we'].map((region) => fileOf(`census-bps/${region}2024a.txt`)),
        nextExpectedRelease: '2026-05-01',
        overdue: true,
      },
      {
        sourceId: 'fhfa-hpi',
        vintage: '2026 Q2',
        updateFrequency: 'quarterly',
        latestReleaseDate: '2026-08-25',
        latestRetrievedAt: '2026-11-29',
        files: [fileOf('fhfa-hpi/hpi_at_metro.csv'), fileOf('fhfa-hpi/hpi_master.csv')],
        // 2026-08-25 and a quarter: due four days before the snapshot, and not in it.
        nextExpectedRelease: '2026-11-25',
        overdue: true,
      },
    ]);
    assert.deepEqual(Object.keys(current?.links.markets ?? {}), [...WORLD_MARKET_IDS].sort());
    assert.deepEqual(current?.links.markets[AUSTIN], {
      json: `${BASE_URL}/api/vintages/${SNAPSHOT}/markets/${AUSTIN}`,
      csv: `${BASE_URL}/api/vintages/${SNAPSHOT}/markets/${AUSTIN}/csv`,
    });
    assert.equal(current?.links.index, `${BASE_URL}/api/vintages/${SNAPSHOT}/markets`);
    assert.equal(current?.links.bulkCsv, `${BASE_URL}/api/vintages/${SNAPSHOT}/markets/csv`);
    assert.deepEqual(index.links, { self: `${BASE_URL}/api/vintages`, schema: `${BASE_URL}/api/schema/vintages` });
  });

  test('an archived snapshot: its sources as recorded, overdue judged at its own date, links to its own markets only', () => {
    const index = buildVintageIndex(snapshotWith([past(PAST, [AUSTIN])]), BASE_URL);
    assert.deepEqual(
      index.vintages.map((v) => [v.snapshotDate, v.current]),
      [
        [SNAPSHOT, true],
        [PAST, false],
      ],
    );
    assert.equal(index.count, 2);
    const old = index.vintages[1];
    assert.deepEqual(old?.sources, [
      {
        ...past(PAST, [AUSTIN]).sources[0],
        // Due 2025-12-12: after 2025-11-20, so not overdue then, although it would be at today's snapshot.
        nextExpectedRelease: '2025-12-12',
        overdue: false,
      },
    ]);
    assert.deepEqual(Object.keys(old?.links.markets ?? {}), [AUSTIN]);
    assert.equal(old?.links.index, `${BASE_URL}/api/vintages/${PAST}/markets`);
    // The current entry is still today's, not the archived record's.
    assert.deepEqual(
      index.vintages[0]?.sources.map((s) => s.vintage),
      ['2020-2024', '2024', '2026 Q2'],
    );
  });

  test("an archived source without a release date: no next release and no overdue; an archive's markets listed by id", () => {
    const record = past(PAST, [AUSTIN, 'us-ny-new-york', 'us-az-phoenix']);
    const { latestReleaseDate: _dropped, ...undated } = record.sources[0] ?? assert.fail();
    const index = buildVintageIndex(snapshotWith([{ ...record, sources: [undated] }]), BASE_URL);
    const old = index.vintages[1];
    assert.deepEqual(old?.sources, [undated]);
    assert.equal('overdue' in (old?.sources[0] ?? {}), false);
    assert.deepEqual(Object.keys(old?.links.markets ?? {}), ['us-az-phoenix', 'us-ny-new-york', AUSTIN]);
  });

  test('a source no market cites is not listed', () => {
    const sources = WORLD_SOURCES.map((m) =>
      m.sourceId !== 'fhfa-hpi'
        ? m
        : {
            ...m,
            // Every value stated missing by the file (FHFA's "-"), so the load's rules let the source through with nothing to cite.
            load: (read: ReadFixture, markets: readonly MarketDefinition[]) => ({
              ...m.load(read, markets),
              observations: [],
              series: [],
              missing: markets.flatMap((market) =>
                m.metrics.map((metric) => ({
                  marketId: market.id,
                  metricId: metric.id,
                  reason: 'FHFA writes "-"',
                  origin: { file: 'fhfa-hpi/hpi_at_metro.csv', line: 1 },
                })),
              ),
            }),
          },
    );
    assert.deepEqual(
      buildVintageIndex(snapshotWith([], sources), BASE_URL).vintages[0]?.sources.map((s) => s.sourceId),
      ['census-acs-5yr', 'census-bps'],
    );
  });

  test("an archived snapshot's illustrative values by market, and what the current snapshot says of its figures that its bytes do not", () => {
    const SF = 'us-ca-san-francisco';
    // The archive as published before qualifiers: San Francisco's owner costs plain 4001, its rent illustrative; a release date without its basis.
    const old = structuredClone(profileOf(SF));
    const costs = old.profile.metrics['medianOwnerCostsWithMortgage'] ?? assert.fail();
    delete costs.qualifier;
    Object.assign(old.profile.metrics['medianGrossRent'] ?? assert.fail(), { illustrative: true });
    const record: PastSnapshot = {
      ...past(PAST, []),
      sources: [{ sourceId: 'fhfa-hpi', vintage: '2026 Q2', updateFrequency: 'quarterly', latestReleaseDate: '2026-08-25', files: [] }],
      profiles: new Map([[SF, old]]),
    };
    const inferred = fixtureReader({
      'fhfa-hpi/retrieval.json': (t) =>
        t.replace('"latestReleaseDate": "2026-08-25"', '"latestReleaseDate": "2026-08-25", "latestReleaseDateBasis": "inferred"'),
    });
    const snapshot = assembleSnapshot(WORLD_MARKETS, loadSources(inferred, WORLD_MARKETS, WORLD_SOURCES), BASE_URL, [record]);
    const index = buildVintageIndex(snapshot, BASE_URL);
    const archived = index.vintages[1] ?? assert.fail();
    assert.deepEqual(archived.illustrative, { [SF]: ['medianGrossRent'] });
    assert.deepEqual(archived.laterNotes, [
      `${SF} medianOwnerCostsWithMortgage 4001 (2020-2024) is the agency's "4,000+": an open-ended interval's edge, not an exact figure, and without a margin of error (said from the snapshot of ${SNAPSHOT} on).`,
      `fhfa-hpi's release date 2026-08-25 is inferred from the agency's release calendar; the release itself was not seen (said from the snapshot of ${SNAPSHOT} on).`,
    ]);
    // The current snapshot says nothing of itself: every value published, nothing corrected.
    assert.equal('illustrative' in (index.vintages[0] ?? {}), false);
    assert.equal('laterNotes' in (index.vintages[0] ?? {}), false);
  });

  test('the current snapshot once archived: listed once, with the methodology, sources and markets its record holds', () => {
    const index = buildVintageIndex(snapshotWith([past(SNAPSHOT, [AUSTIN], 'v1.9')]), BASE_URL);
    assert.equal(index.count, 1);
    const [current] = index.vintages;
    assert.equal(current?.current, true);
    assert.equal(current?.methodologyVersion, 'v1.9');
    assert.deepEqual(
      current?.sources.map((s) => [s.sourceId, s.vintage, s.nextExpectedRelease, s.overdue]),
      [['census-acs-5yr', '2019-2023', '2025-12-12', true]],
    );
    assert.deepEqual(Object.keys(current?.links.markets ?? {}), [AUSTIN]);
  });
});
