// What fetch refuses beyond the build's checks, on loads made here: less data always, older data unless allowed, and which Last-Modified dates a release.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLOCK_SKEW_MS, cutMidLine, implausibleLastModified, regressions, seriesRegressions } from '../../src/commands/fetch-checks.ts';
import type { MissingValue, Observation, SourceLoad } from '../../src/sources/source.ts';

const FILE = 'fhfa-hpi/hpi_at_metro.csv';

const observation = (marketId: string, metricId: string, asOf: string, value = 1): Observation => ({
  marketId,
  metricId,
  value,
  asOf,
  sourceId: 'fhfa-hpi',
  boundary: { level: 'metro', code: '12420', name: 'Austin' } as unknown as Observation['boundary'],
  origin: { file: FILE, line: 1 },
});

const load = (vintage: string, observations: Observation[], missing: MissingValue[] = []): SourceLoad =>
  ({ vintage, observations, missing, skipped: 0, series: [], notes: [] }) as unknown as SourceLoad;

const FIXTURES = load('2026 Q2', [
  observation('us-a', 'homePriceIndex', '2026 Q2'),
  observation('us-a', 'homePriceChange', '2025 Q2 to 2026 Q2'),
  observation('us-b', 'homePriceIndex', '2026 Q2'),
  observation('us-b', 'homePriceChange', '2025 Q2 to 2026 Q2'),
]);

describe('regressions', () => {
  it('the same data, or newer, takes nothing away', () => {
    assert.deepEqual(regressions(FIXTURES, FIXTURES), { less: [], older: [] });
    const newer = load('2026 Q3', [
      observation('us-a', 'homePriceIndex', '2026 Q3'),
      observation('us-a', 'homePriceChange', '2025 Q3 to 2026 Q3'),
      observation('us-b', 'homePriceIndex', '2026 Q3'),
      observation('us-b', 'homePriceChange', '2025 Q3 to 2026 Q3'),
    ]);
    assert.deepEqual(regressions(FIXTURES, newer), { less: [], older: [] });
  });

  it('without fixtures that load there is nothing to compare with', () => {
    assert.deepEqual(regressions(undefined, load('2020 Q1', [])), { less: [], older: [] });
  });

  it('a market with no value left is named; so is a value with no row, but not one the file marks as not available', () => {
    const after = load(
      '2026 Q2',
      [observation('us-a', 'homePriceIndex', '2026 Q2')],
      [{ marketId: 'us-a', metricId: 'homePriceChange', reason: 'no series', origin: { file: FILE } }],
    );
    assert.deepEqual(regressions(FIXTURES, after).less, [
      '1 market has values in the fixtures and none in the download: us-b',
      '1 value of the fixtures has no row in the download: us-a homePriceChange',
    ]);
    const annotated = load(
      '2026 Q2',
      FIXTURES.observations.filter((o) => !(o.marketId === 'us-a' && o.metricId === 'homePriceChange')),
      [{ marketId: 'us-a', metricId: 'homePriceChange', reason: 'FHFA has no index ("-")', origin: { file: FILE, line: 7 } }],
    );
    assert.deepEqual(regressions(FIXTURES, annotated), { less: [], older: [] });
  });

  it('a series that starts later has lost its first periods', () => {
    const series = (marketId: string, periods: string[]): SourceLoad['series'][number] => ({
      marketId,
      metricId: 'homePriceIndex',
      perYear: 4,
      points: periods.map((period) => ({ period, value: 1 })),
    });
    const withSeries = (...s: SourceLoad['series']): SourceLoad => ({ ...FIXTURES, series: s });
    const before = withSeries(series('us-a', ['2025 Q1', '2025 Q2']), series('us-b', ['2025 Q1', '2025 Q2']));
    assert.deepEqual(regressions(before, withSeries(series('us-a', ['2024 Q4', '2025 Q1', '2025 Q2']), series('us-b', ['2025 Q1', '2025 Q2']))).less, []);
    assert.deepEqual(regressions(before, withSeries(series('us-a', ['2025 Q2']), series('us-b', ['2025 Q1', '2025 Q2']))).less, [
      '1 series loses its first periods: us-a homePriceIndex from 2025 Q1 → from 2025 Q2',
    ]);
  });

  it('an older vintage and each value that goes back a period are named; more than five names are counted', () => {
    const older = load('2026 Q1', [
      observation('us-a', 'homePriceIndex', '2026 Q1'),
      observation('us-a', 'homePriceChange', '2025 Q1 to 2026 Q1'),
      observation('us-b', 'homePriceIndex', '2026 Q2'),
      observation('us-b', 'homePriceChange', '2025 Q2 to 2026 Q2'),
    ]);
    assert.deepEqual(regressions(FIXTURES, older), {
      less: [],
      older: [
        "the download holds vintage 2026 Q1, older than the fixtures' 2026 Q2",
        '2 values go back to an earlier period: us-a homePriceChange 2025 Q2 to 2026 Q2 → 2025 Q1 to 2026 Q1, us-a homePriceIndex 2026 Q2 → 2026 Q1',
      ],
    });
    const many = (asOf: string): SourceLoad =>
      load(
        asOf,
        ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((m) => observation(`us-${m}`, 'permits', asOf)),
      );
    assert.deepEqual(regressions(many('2024'), many('2023')).older, [
      "the download holds vintage 2023, older than the fixtures' 2024",
      '7 values go back to an earlier period: us-a permits 2024 → 2023, us-b permits 2024 → 2023, us-c permits 2024 → 2023, us-d permits 2024 → 2023, us-e permits 2024 → 2023 and 2 more',
    ]);
  });

  it('a vintage that is not a period label is not compared', () => {
    assert.deepEqual(regressions(load('unknown', []), load('2026 Q1', [])), { less: [], older: [] });
  });
});

describe("seriesRegressions: every series of the files, a market's or not", () => {
  const quarters = (from: number, to: number, drop: readonly string[] = []): Set<string> =>
    new Set(Array.from({ length: to - from + 1 }, (_, i) => `2020 Q${from + i}`).filter((q) => !drop.includes(q)));
  const of = (entries: Record<string, Set<string>>): Map<string, Set<string>> => new Map(Object.entries(entries));
  const before = of({ '10180': quarters(1, 4), '12420': quarters(1, 4) });

  it('a series that keeps every period, and one that gains a period, are no regression', () => {
    assert.deepEqual(seriesRegressions(before, of({ '10180': quarters(1, 4), '12420': quarters(1, 4), '99999': quarters(1, 1) })), { less: [], older: [] });
  });
  it('a period lost at the start or among the others is less data', () => {
    assert.deepEqual(seriesRegressions(before, of({ '10180': quarters(2, 4), '12420': quarters(1, 4, ['2020 Q3']) })), {
      less: ['2 series of the files lose periods they had: 10180 (1 of 4 periods, 2020 Q1), 12420 (1 of 4 periods, 2020 Q3)'],
      older: [],
    });
  });
  it('a series that ends earlier, or is gone, is older data', () => {
    assert.deepEqual(seriesRegressions(before, of({ '10180': quarters(1, 2) })), {
      less: [],
      older: [
        '1 series of the files ends earlier than it did: 10180 (2 of 4 periods, 2020 Q3 to 2020 Q4)',
        '1 series of the files is not in the download: 12420',
      ],
    });
  });
  it('nothing to compare with (a first fetch): nothing refused', () => {
    assert.deepEqual(seriesRegressions(undefined, of({})), { less: [], older: [] });
  });
});

describe('cutMidLine', () => {
  it('a download whose last line has no line end, where the fixture ends with one, was cut', () => {
    assert.equal(
      cutMidLine('a,1\nb,2\n', Buffer.from('a,1\nb,')),
      'it ends mid-line (its last line, 2 bytes, has no line end, as every line of the fixture has)',
    );
  });
  it('a whole download, a fixture without a final line end (JSON), or no fixture: not cut', () => {
    assert.equal(cutMidLine('a,1\nb,2\n', Buffer.from('a,1\n')), undefined);
    assert.equal(cutMidLine('[["a"]]', Buffer.from('[["a"')), undefined);
    assert.equal(cutMidLine(undefined, Buffer.from('a,')), undefined);
  });
});

describe('implausibleLastModified', () => {
  const now = new Date('2026-12-01T09:00:00Z');
  it('a date between the end of the period and a day after the fetch is plausible', () => {
    assert.equal(implausibleLastModified('Wed, 30 Sep 2026 00:00:00 GMT', '2026 Q3', now), undefined);
    assert.equal(implausibleLastModified(new Date(now.getTime() + CLOCK_SKEW_MS).toUTCString(), '2026 Q3', now), undefined);
    assert.equal(implausibleLastModified('Thu, 29 Jan 2026 12:00:00 GMT', '2020-2024', now), undefined);
  });
  it('later than a day after the fetch, before the period ends, or not a date, it is not', () => {
    assert.match(implausibleLastModified(new Date(now.getTime() + CLOCK_SKEW_MS + 1000).toUTCString(), '2026 Q3', now) ?? '', /after the time of the fetch/);
    assert.match(implausibleLastModified('Thu, 01 Jan 2099 00:00:00 GMT', '2026 Q3', now) ?? '', /after the time of the fetch/);
    assert.equal(
      implausibleLastModified('Tue, 29 Sep 2026 23:59:59 GMT', '2026 Q3', now),
      'is before the end of the period the file covers (2026 Q3, ending 2026-09-30)',
    );
    assert.match(implausibleLastModified('Mon, 30 Dec 2024 00:00:00 GMT', '2020-2024', now) ?? '', /before the end of the period/);
    assert.equal(implausibleLastModified('soon', '2026 Q3', now), 'is not an HTTP date');
  });
  it('a vintage that is not a period label bounds only the future', () => {
    assert.equal(implausibleLastModified('Mon, 01 Jan 2001 00:00:00 GMT', 'unknown', now), undefined);
  });
});
