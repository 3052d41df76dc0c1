// Assembly: a profile's dates, freshness and provenance follow its sources (not the fixtures' happy case), and every refusal has its code.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findMarket, type MarketDefinition } from '../../src/contract/markets.ts';
import { renderJson } from '../../src/contract/json.ts';
import { assembleSnapshot } from '../../src/methodology/snapshot.ts';
import { loadSources, type LoadedSources } from '../../src/sources/load.ts';
import { assembleProfile, assembleProfiles } from '../../src/methodology/profiles.ts';
import type { MarketIndex, MarketProfile } from '../../src/contract/schemas.ts';
import { DataError } from '../../src/contract/errors.ts';
import type { Observation, ReadFixture, SourceModule, SourceLoad } from '../../src/sources/source.ts';
import { fixtureReader } from '../support/data.ts';
import { WORLD_MARKETS, WORLD_METRIC_IDS, WORLD_SOURCES } from '../world/world.ts';

const BASE = 'http://localhost:3000';
/** A retrieval.json with these dates (and the fixture's vintage). */
const retrieval = (vintage: string, release: string | undefined, retrieved: string): string =>
  JSON.stringify({ vintage, ...(release === undefined ? {} : { latestReleaseDate: release }), latestRetrievedAt: retrieved });

/**
 * The profiles and the index as served (their JSON), assembled from these fixtures: what this file tests is assembly,
 * so the rest of the site (pages, series, compression, validation) is not built.
 */
function assembled(read: ReadFixture, sources: readonly SourceModule[] = WORLD_SOURCES): { profile: (id: string) => MarketProfile; index: MarketIndex } {
  const snapshot = assembleSnapshot(WORLD_MARKETS, loadSources(read, WORLD_MARKETS, sources), BASE);
  const served = <T>(value: unknown): T => JSON.parse(renderJson(value)) as T;
  return {
    profile: (id) => served(snapshot.markets.find((m) => m.profile.market.id === id)?.profile ?? assert.fail(`no profile ${id}`)),
    index: served(snapshot.index),
  };
}

function profilesWith(edits: Record<string, string>, adapters: readonly SourceModule[] = WORLD_SOURCES): { austin: MarketProfile; index: MarketIndex } {
  const { profile, index } = assembled(fixtureReader(Object.fromEntries(Object.entries(edits).map(([k, v]) => [k, () => v]))), adapters);
  return { austin: profile('us-tx-austin'), index };
}

describe('dates follow the sources', () => {
  test('retrieved on different days: the snapshot is the latest retrieval, retrievedAt the oldest of the cited sources', () => {
    // The oldest is the last source by id, so the order of the sources cannot stand in for the order of the dates.
    const { austin } = profilesWith({
      'census-acs-5yr/retrieval.json': retrieval('2020-2024', '2027-01-29', '2027-05-15'),
      'census-bps/retrieval.json': retrieval('2024', '2027-05-01', '2027-05-20'),
      'fhfa-hpi/retrieval.json': retrieval('2026 Q2', '2027-02-24', '2027-05-01'),
    });
    assert.equal(austin.generatedAt, '2027-05-20');
    assert.equal(austin.profile.updatedDate, '2027-05-20');
    assert.equal(austin.profile.freshness.retrievedAt, '2027-05-01');
    assert.deepEqual(
      austin.sources.map((s) => [s.sourceId, s.latestRetrievedAt]),
      [
        ['census-acs-5yr', '2027-05-15'],
        ['census-bps', '2027-05-20'],
        ['fhfa-hpi', '2027-05-01'],
      ],
    );
  });
  test("a source that backs none of a market's metrics is not among its sources: Phoenix's permits stated missing", () => {
    // A row missing outright is refused by the load (src/sources/checks.ts); a value the file says is absent is published as missing.
    const sources = changed('census-bps', (l) => {
      l.observations = l.observations.filter((o) => o.marketId !== 'us-az-phoenix');
      l.missing.push({ marketId: 'us-az-phoenix', metricId: 'permits', reason: 'not reported', origin: { file: 'census-bps/we2024a.txt', line: 7 } });
    });
    const phoenix = assembled(fixtureReader(), sources).profile('us-az-phoenix');
    assert.deepEqual(
      phoenix.sources.map((s) => s.sourceId),
      ['census-acs-5yr', 'fhfa-hpi'],
    );
    assert.deepEqual(phoenix.profile.coverage.missing, ['permits']);
  });
  test('sources are listed by id whatever order the adapters run in', () => {
    const austin = assembled(fixtureReader(), [...WORLD_SOURCES].reverse()).profile('us-tx-austin');
    assert.deepEqual(
      austin.sources.map((s) => s.sourceId),
      ['census-acs-5yr', 'census-bps', 'fhfa-hpi'],
    );
  });
  test('an aging source makes the profile aging: FHFA released 130 days before the snapshot (quarterly: 93 to 184 days)', () => {
    const { austin, index } = profilesWith({
      'census-acs-5yr/retrieval.json': retrieval('2020-2024', '2027-01-29', '2027-05-20'),
      'census-bps/retrieval.json': retrieval('2024', '2026-05-01', '2027-05-20'),
      'fhfa-hpi/retrieval.json': retrieval('2026 Q2', '2027-01-10', '2027-05-20'),
    });
    assert.equal(austin.profile.freshness.freshness, 'aging');
    assert.match(austin.profile.freshness.note, /fhfa-hpi \(quarterly\) released 2027-01-10, 130 days before the snapshot: aging/);
    assert.match(austin.profile.freshness.note, /census-acs-5yr \(annually\) released 2027-01-29, 111 days before the snapshot: fresh/);
    assert.equal(index.markets.find((m) => m.id === 'us-tx-austin')?.freshness, 'aging');
  });
  test('the least fresh source wins: an aging FHFA and a stale BPS (released 870 days before) make the profile stale', () => {
    const { austin } = profilesWith({
      'census-acs-5yr/retrieval.json': retrieval('2020-2024', '2027-01-29', '2027-05-20'),
      'fhfa-hpi/retrieval.json': retrieval('2026 Q2', '2027-01-10', '2027-05-20'),
      'census-bps/retrieval.json': retrieval('2024', '2024-12-31', '2027-05-20'),
    });
    assert.equal(austin.profile.freshness.freshness, 'stale');
    assert.match(austin.profile.freshness.note, /census-bps \(annually\) released 2024-12-31, 870 days before the snapshot: stale/);
  });
  test('a source with no release date is stale, and the note says the date is unknown', () => {
    const { austin } = profilesWith({ 'census-bps/retrieval.json': retrieval('2024', undefined, '2026-05-20') });
    assert.equal(austin.profile.freshness.freshness, 'stale');
    assert.match(austin.profile.freshness.note, /census-bps \(annually\) release date unknown: stale/);
    assert.equal(austin.sources.find((s) => s.sourceId === 'census-bps')?.latestReleaseDate, undefined);
  });
});

/** The adapters with one source's load changed. */
const changed = (sourceId: string, change: (load: SourceLoad) => void): SourceModule[] =>
  WORLD_SOURCES.map((a) =>
    a.sourceId !== sourceId
      ? a
      : {
          ...a,
          load: (read, markets) => {
            const load = a.load(read, markets);
            change(load);
            return load;
          },
        },
  );

describe('provenance', () => {
  test('fixture while every cited source is a fixture; live as soon as one is live', () => {
    assert.equal(profilesWith({}).austin.profile.freshness.provenance, 'fixture');
    const mixed = profilesWith(
      {},
      changed('fhfa-hpi', (l) => {
        l.source.provenance = 'live';
      }),
    );
    assert.equal(mixed.austin.profile.freshness.provenance, 'live');
    assert.equal(mixed.austin.sources.find((s) => s.sourceId === 'fhfa-hpi')?.provenance, 'live');
  });
});

describe('illustrative scores', () => {
  test('a score left out for a missing input is not listed, though another of its inputs is illustrative', () => {
    // Austin's vacancy rate marked illustrative and its rent taken away: renter affordability (and the two scores built on
    // it, overall among them, which reads the vacancy rate) cannot be computed and are not listed; supply reads the
    // illustrative value and is listed; the owner part reads neither.
    const { austin } = profilesWith(
      {},
      changed('census-acs-5yr', (l) => {
        l.observations = l.observations
          .filter((o) => !(o.marketId === 'us-tx-austin' && o.metricId === 'medianGrossRent'))
          .map((o) => (o.marketId === 'us-tx-austin' && o.metricId === 'vacancyRate' ? { ...o, illustrative: true as const } : o));
        // Missing as the file says so (an annotation value on its line): a value missing without a word is refused at load.
        l.missing.push({
          marketId: 'us-tx-austin',
          metricId: 'medianGrossRent',
          reason: 'an annotation',
          origin: { file: 'census-acs-5yr/acs5-2024-detailed-place.json', line: 2 },
        });
      }),
    );
    assert.deepEqual(Object.keys(austin.profile.scores).sort(), ['ownerAffordability', 'supply']);
    assert.deepEqual(austin.profile.illustrativeScores, ['supply']);
  });
});

describe('refusals at assembly, each with its code and place', () => {
  // The loads straight from the adapters, past the load's own rules (src/sources/checks.ts, which refuse most of these
  // first): assembly refuses them as well, whatever loads it is given.
  const refused = (adapters: SourceModule[], code: string, message: RegExp): void => {
    const read = fixtureReader();
    const loads = adapters.map((a) => a.load(read, WORLD_MARKETS));
    assert.throws(
      () => assembleSnapshot(WORLD_MARKETS, { loads, files: new Map(), snapshotDate: '2026-11-29', metricIds: WORLD_METRIC_IDS }, BASE),
      (e: unknown) => e instanceof DataError && e.code === code && e.place.marketId === 'us-tx-austin' && message.test(e.message),
    );
  };
  test('a metric the methodology does not define: unknown_metric', () => {
    refused(
      changed('census-bps', (l) => {
        const o = l.observations.find((x) => x.marketId === 'us-tx-austin');
        assert.ok(o, 'o');
        o.metricId = 'demolitions';
      }),
      'unknown_metric',
      /census-bps\/so2024a\.txt:\d+, market us-tx-austin: source census-bps produced metric "demolitions", which methodology v\d+\.\d+ does not define/,
    );
  });
  test('one metric from two sources: duplicate_metric, naming both', () => {
    refused(
      changed('census-bps', (l) => {
        const o = l.observations.find((x) => x.marketId === 'us-tx-austin');
        assert.ok(o, 'o');
        l.observations.push({ ...o, metricId: 'housingUnits' });
      }),
      'duplicate_metric',
      /metric "housingUnits" is provided twice \(by census-acs-5yr and census-bps\)/,
    );
  });
  test('a value that is not finite: not_numeric', () => {
    refused(
      changed('census-bps', (l) => {
        const o = l.observations.find((x) => x.marketId === 'us-tx-austin');
        assert.ok(o, 'o');
        o.value = Number.POSITIVE_INFINITY;
      }),
      'not_numeric',
      /source census-bps produced Infinity for "permits"; values must be finite numbers/,
    );
  });
  for (const margin of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
    test(`a margin of error of ${margin}: not_numeric (a margin is finite, 0 or more)`, () => {
      refused(
        changed('census-acs-5yr', (l) => {
          const o = l.observations.find((x) => x.marketId === 'us-tx-austin' && x.metricId === 'medianGrossRent');
          assert.ok(o, 'o');
          o.marginOfError = margin;
        }),
        'not_numeric',
        new RegExp(`source census-acs-5yr produced the margin of error ${margin} for "medianGrossRent"; a margin is a finite number, 0 or more`),
      );
    });
  }
  test('a margin of error of 0 is a margin: kept as published, not refused', () => {
    const { austin } = profilesWith(
      {},
      changed('census-acs-5yr', (l) => {
        const o = l.observations.find((x) => x.marketId === 'us-tx-austin' && x.metricId === 'medianGrossRent');
        assert.ok(o, 'o');
        o.marginOfError = 0;
      }),
    );
    assert.equal(austin.profile.metrics['medianGrossRent']?.marginOfError, 0);
  });
});

describe('geographyScope, assembled from hand-made observations', () => {
  const market: MarketDefinition = { ...(findMarket('us-ny-new-york') ?? assert.fail('no New York')), cbsaName: undefined };
  const data: LoadedSources = { loads: [], files: new Map(), snapshotDate: '2026-05-20', metricIds: [] };
  const observation = (metricId: string, boundary: Observation['boundary']): Observation => ({
    marketId: market.id,
    metricId,
    value: 1,
    asOf: '2025',
    sourceId: 'census-acs-5yr',
    boundary,
    origin: { file: 'f', line: 1 },
  });
  const place = { level: 'place' as const, name: 'New York city, New York', codes: { stateFips: '36', placeFips: '51000' }, states: ['NY'] };
  const county = { level: 'county' as const, name: 'Kings County, New York', codes: { stateFips: '36', countyFips: '047' }, states: ['NY'] };
  const division = {
    level: 'division' as const,
    name: 'New York-Jersey City-White Plains, NY-NJ',
    codes: { cbsa: '35620', division: '35614' },
    states: ['NY', 'NJ'],
  };

  test('boundaries by level (place, county, division, metro) and metrics in the methodology order, whatever order they arrive in', () => {
    const scope = assembleProfile(market, data, BASE, [
      observation('homePriceIndex', division),
      observation('permits', county),
      observation('medianGrossRent', place),
      observation('housingUnits', place),
    ]).geographyScope;
    assert.deepEqual(
      scope?.boundaries.map((b) => [b.level, b.metrics]),
      [
        ['place', ['housingUnits', 'medianGrossRent']],
        ['county', ['permits']],
        ['division', ['homePriceIndex']],
      ],
    );
    assert.equal(
      scope?.note,
      'Median gross rent and housing units describe New York city, New York (Census place 3651000); building permits describe Kings County, New York (county 36047); the house price index describes the New York-Jersey City-White Plains, NY-NJ metropolitan division (35614), which spans NY and NJ.',
    );
  });
  test('a metro area comes after the city it holds', () => {
    const cbsa = { level: 'cbsa' as const, name: 'Austin-Round Rock-San Marcos, TX', codes: { cbsa: '12420' }, states: ['TX'] };
    const scope = assembleProfile(market, data, BASE, [observation('homePriceIndex', cbsa), observation('medianGrossRent', place)]).geographyScope;
    assert.deepEqual(
      scope?.boundaries.map((b) => b.level),
      ['place', 'cbsa'],
    );
  });
  test('one boundary only: no geographyScope key at all (the contract asks for two or more)', () => {
    const profile = assembleProfile(market, data, BASE, [observation('medianGrossRent', place), observation('housingUnits', place)]);
    assert.equal(Object.hasOwn(profile, 'geographyScope'), false);
  });
  test('a market with no observation at all assembles an empty profile: no metric, no source, nothing covered', () => {
    const [empty] = assembleProfiles([market], data, BASE);
    assert.deepEqual(empty?.profile.metrics, {});
    assert.deepEqual(empty?.sources, []);
    assert.equal(empty?.profile.coverage.totalProvided, 0);
    assert.equal(empty?.geographyScope, undefined);
  });
});

describe('optional fields are left out, not set to undefined', () => {
  const newYork = findMarket('us-ny-new-york') ?? assert.fail('no New York');
  const bare: LoadedSources = {
    snapshotDate: '2026-05-20',
    files: new Map(),
    metricIds: ['medianGrossRent'],
    loads: [
      {
        vintage: '2020-2024',
        source: {
          sourceId: 'census-acs-5yr',
          sourceName: 'ACS',
          agency: 'U.S. Census Bureau',
          datasetName: 'ACS 5-year',
          sourceUrl: 'https://www.census.gov/',
          confidence: 'high',
          updateFrequency: 'annually',
          provenance: 'fixture',
        },
        licence: { id: 'other-pd', terms: 'Public domain.' },
        observations: [],
        missing: [],
        skipped: 0,
        series: [],
        notes: [],
      },
    ],
  };
  const profile = assembleProfile({ ...newYork, cbsaName: undefined }, bare, BASE, [
    {
      marketId: newYork.id,
      metricId: 'medianGrossRent',
      value: 1,
      asOf: '2024',
      sourceId: 'census-acs-5yr',
      boundary: { level: 'place', name: 'New York city, New York', codes: { stateFips: '36', placeFips: '51000' }, states: ['NY'] },
      origin: { file: 'f', line: 1 },
    },
  ]);
  test('a source without release or retrieval dates has no such keys', () => {
    const [source] = profile.sources;
    assert.ok(source !== undefined, 'source !== undefined');
    assert.equal(Object.hasOwn(source, 'latestReleaseDate'), false);
    assert.equal(Object.hasOwn(source, 'latestRetrievedAt'), false);
    assert.equal(profile.profile.freshness.retrievedAt, '2026-05-20');
  });
  test('a market without a county or a metro name has no such keys', () => {
    assert.equal(newYork.countyName, undefined);
    assert.equal(Object.hasOwn(profile.market, 'countyName'), false);
    assert.equal(Object.hasOwn(profile.market, 'cbsaName'), false);
  });
});
