// Assembly: a profile's dates, freshness and provenance follow its sources (not the fixtures' happy case), and every refusal has its code.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildRouteTable } from '../src/build.ts';
import type { MarketIndex, MarketProfile } from '../src/contract.ts';
import { DataError } from '../src/errors.ts';
import { PATHS } from '../src/paths.ts';
import { ADAPTERS } from '../src/sources/index.ts';
import type { SourceAdapter, SourceLoad } from '../src/sources/types.ts';
import { fixtureReader } from './support/data.ts';

const BASE = 'http://localhost:3000';
/** A retrieval.json with these dates (and the fixture's vintage). */
const retrieval = (vintage: string, release: string | undefined, retrieved: string): string =>
  JSON.stringify({ vintage, ...(release === undefined ? {} : { latestReleaseDate: release }), latestRetrievedAt: retrieved });

function profilesWith(edits: Record<string, string>, adapters: readonly SourceAdapter[] = ADAPTERS): { austin: MarketProfile; index: MarketIndex } {
  const table = buildRouteTable({ baseUrl: BASE, read: fixtureReader(Object.fromEntries(Object.entries(edits).map(([k, v]) => [k, () => v]))), adapters });
  const json = (path: string): unknown => JSON.parse(table.routes.get(path)?.identity.body.toString() ?? 'null');
  return { austin: json(PATHS.profile('us-tx-austin')) as MarketProfile, index: json(PATHS.index) as MarketIndex };
}

describe('dates follow the sources', () => {
  test('retrieved on different days: the snapshot is the latest retrieval, retrievedAt the oldest of the cited sources', () => {
    const { austin } = profilesWith({
      'census-acs-5yr/retrieval.json': retrieval('2020-2024', '2026-01-29', '2026-05-01'),
      'census-bps/retrieval.json': retrieval('2025', '2026-05-01', '2026-05-20'),
      'fhfa-hpi/retrieval.json': retrieval('2025 Q4', '2026-02-24', '2026-05-10'),
    });
    assert.equal(austin.generatedAt, '2026-05-20');
    assert.equal(austin.profile.updatedDate, '2026-05-20');
    assert.equal(austin.profile.freshness.retrievedAt, '2026-05-01');
    assert.deepEqual(
      austin.sources.map((s) => [s.sourceId, s.latestRetrievedAt]),
      [
        ['census-acs-5yr', '2026-05-01'],
        ['census-bps', '2026-05-20'],
        ['fhfa-hpi', '2026-05-10'],
      ],
    );
  });
  test('an aging source makes the profile aging: FHFA released 130 days before the snapshot (quarterly: 93 to 184 days)', () => {
    const { austin, index } = profilesWith({ 'fhfa-hpi/retrieval.json': retrieval('2025 Q4', '2026-01-10', '2026-05-20') });
    assert.equal(austin.profile.freshness.freshness, 'aging');
    assert.match(austin.profile.freshness.note, /fhfa-hpi \(quarterly\) released 2026-01-10, 130 days before the snapshot: aging/);
    assert.match(austin.profile.freshness.note, /census-acs-5yr \(annually\) released 2026-01-29, 111 days before the snapshot: fresh/);
    assert.equal(index.markets.find((m) => m.id === 'us-tx-austin')?.freshness, 'aging');
  });
  test('the least fresh source wins: an aging FHFA and a stale BPS (released 870 days before) make the profile stale', () => {
    const { austin } = profilesWith({
      'fhfa-hpi/retrieval.json': retrieval('2025 Q4', '2026-01-10', '2026-05-20'),
      'census-bps/retrieval.json': retrieval('2025', '2024-01-01', '2026-05-20'),
    });
    assert.equal(austin.profile.freshness.freshness, 'stale');
    assert.match(austin.profile.freshness.note, /census-bps \(annually\) released 2024-01-01, 870 days before the snapshot: stale/);
  });
  test('a source with no release date is stale, and the note says the date is unknown', () => {
    const { austin } = profilesWith({ 'census-bps/retrieval.json': retrieval('2025', undefined, '2026-05-20') });
    assert.equal(austin.profile.freshness.freshness, 'stale');
    assert.match(austin.profile.freshness.note, /census-bps \(annually\) release date unknown: stale/);
    assert.equal(austin.sources.find((s) => s.sourceId === 'census-bps')?.latestReleaseDate, undefined);
  });
});

/** The adapters with one source's load changed. */
const changed = (sourceId: string, change: (load: SourceLoad) => void): SourceAdapter[] =>
  ADAPTERS.map((a) =>
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

describe('refusals at assembly, each with its code and place', () => {
  const refused = (adapters: SourceAdapter[], code: string, message: RegExp): void => {
    assert.throws(
      () => buildRouteTable({ baseUrl: BASE, read: fixtureReader(), adapters }),
      (e: unknown) => e instanceof DataError && e.code === code && e.place.marketId === 'us-tx-austin' && message.test(e.message),
    );
  };
  test('a metric the methodology does not define: unknown_metric', () => {
    refused(
      changed('census-bps', (l) => {
        const o = l.observations.find((x) => x.marketId === 'us-tx-austin');
        assert.ok(o);
        o.metricId = 'demolitions';
      }),
      'unknown_metric',
      /census-bps\/so2025a\.txt:\d+, market us-tx-austin: source census-bps produced metric "demolitions", which methodology v2\.0 does not define/,
    );
  });
  test('one metric from two sources: duplicate_metric, naming both', () => {
    refused(
      changed('census-bps', (l) => {
        const o = l.observations.find((x) => x.marketId === 'us-tx-austin');
        assert.ok(o);
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
        assert.ok(o);
        o.value = Number.POSITIVE_INFINITY;
      }),
      'not_numeric',
      /source census-bps produced Infinity for "permits"; values must be finite numbers/,
    );
  });
});
