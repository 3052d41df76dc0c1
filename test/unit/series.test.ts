// Series: every observation the fixtures hold, per market and metric, with the period's span, the margin and the illustrative flag; the CSV in long format, typed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { ContractError, InvariantError } from '../../src/contract/errors.ts';
import { PATHS } from '../../src/contract/paths.ts';
import { comparePeriods, nextPeriod, periodRange } from '../../src/contract/periods.ts';
import { SERIES_CSV_COLUMNS, type MarketSeries } from '../../src/contract/series.ts';
import { assembleSeries, type PastSnapshot } from '../../src/methodology/series.ts';
import type { MetricId } from '../../src/methodology/metrics.ts';
import type { MetricSeries } from '../../src/sources/source.ts';
import { renderBulkSeriesCsv, seriesRows } from '../../src/render/csv-documents.ts';
import { assertSeriesCsvTies, assertSeriesRules } from '../../src/validate/series-checks.ts';
import { BASE_URL, FIXTURE_FILES, body, buildTable, fixtureReader, servedProfiles } from '../support/data.ts';
import { WORLD_MARKET_IDS, buildWorldSnapshot } from '../world/world.ts';

const table = buildTable();
const series = (id: string): MarketSeries => JSON.parse(body(table, PATHS.series(id))) as MarketSeries;

/** The committed FHFA file's index values of one series code, quarter by quarter, read here without the adapter. */
function fhfaRows(code: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of (FIXTURE_FILES.get('fhfa-hpi/hpi_at_metro.csv') ?? '').split('\n')) {
    const [, rest = ''] = line.split('",');
    const [c, year, quarter, index] = rest.split(',');
    if (c === code && index !== undefined && index !== '-') out.set(`${year} Q${quarter}`, Number(index));
  }
  return out;
}

describe('periods', () => {
  test('each label the sources write spans the calendar it names', () => {
    assert.deepEqual(periodRange('2024'), { start: '2024-01-01', end: '2024-12-31' });
    assert.deepEqual(periodRange('2020-2024'), { start: '2020-01-01', end: '2024-12-31' });
    assert.deepEqual(periodRange('2025 Q4'), { start: '2025-10-01', end: '2025-12-31' });
    assert.deepEqual(periodRange('2024 Q1'), { start: '2024-01-01', end: '2024-03-31' });
    assert.deepEqual(periodRange('2024 Q4 to 2025 Q4'), { start: '2024-10-01', end: '2025-12-31' });
    // A US federal fiscal year runs October to September.
    assert.deepEqual(periodRange('FY2026'), { start: '2025-10-01', end: '2026-09-30' });
  });
  test('a span of one year written as a range, and a change within a year', () => {
    assert.deepEqual(periodRange('2024-2024'), { start: '2024-01-01', end: '2024-12-31' });
    assert.deepEqual(periodRange('2024 Q2 to 2024 Q3'), { start: '2024-04-01', end: '2024-09-30' });
  });
  test('another form is a bug in a source module, said in one line', () => {
    const labels = ['2025-Q4', '2024 Q5', 'Q4 2025', '2025 to', 'to 2025', '2024 to 2025 to 2026', '2024-2020', '', ' 2024', '2024 ', 'x2024'];
    // Each form with something before or after it.
    labels.push('2024x', 'x2020-2024', '2020-2024x', 'x2025 Q4', '2025 Q4x', 'xFY2026', 'FY2026x', '2024 Q4 to 2025 Q4x');
    for (const label of labels) {
      assert.throws(
        () => periodRange(label),
        (e: unknown) =>
          e instanceof InvariantError &&
          e.message.includes(`the period "${label}" is not a year, a span of years, a quarter, a fiscal year, or "A to B" of those`),
        JSON.stringify(label),
      );
    }
  });
  test("the period a source's next release covers: the next year, span of years, quarter or fiscal year", () => {
    assert.equal(nextPeriod('2024'), '2025');
    assert.equal(nextPeriod('2020-2024'), '2021-2025');
    assert.equal(nextPeriod('2026 Q2'), '2026 Q3');
    assert.equal(nextPeriod('2026 Q4'), '2027 Q1');
    assert.equal(nextPeriod('FY2026'), 'FY2027');
    assert.equal(nextPeriod('2025 Q2 to 2026 Q2'), undefined);
  });
  test('periods sort by their end, then their start', () => {
    assert.deepEqual(['2024', '2020-2024', '2019-2023', '2025 Q1'].sort(comparePeriods), ['2019-2023', '2020-2024', '2024', '2025 Q1']);
    // The same end: the earlier start first, each way round; the same span: 0.
    const order = (a: string, b: string): number => Math.sign(comparePeriods(a, b));
    assert.deepEqual([order('2020-2024', '2024'), order('2024', '2020-2024')], [-1, 1]);
    assert.deepEqual([order('2024', '2024 Q4'), order('2024 Q4', '2024')], [-1, 1]);
    assert.deepEqual([order('2024 Q3', '2024'), order('2024', '2024 Q3')], [-1, 1]);
    assert.deepEqual([order('2024', '2024-2024'), order('2024 Q4', '2024 Q4')], [0, 0]);
  });
});

describe('the series of every market', () => {
  for (const id of WORLD_MARKET_IDS) {
    test(`${id}: FHFA's index every quarter of the fixture; every other metric its one vintage; each ending at the profile's value`, () => {
      const s = series(id);
      const profile = servedProfiles(table).find((p) => p.market.id === id) ?? assert.fail(id);
      assert.deepEqual(Object.keys(s.metrics), Object.keys(profile.profile.metrics), 'the same metrics as the profile');
      const index = s.metrics['homePriceIndex'] ?? assert.fail('no index series');
      const published = fhfaRows(index.geography.code);
      assert.deepEqual(
        index.observations.map((o) => [o.period, o.value]),
        [...published].map(([period, value]) => [period, value]),
        'quarter by quarter, the values of the file',
      );
      for (const [key, m] of Object.entries(profile.profile.metrics)) {
        const at = s.metrics[key]?.observations.find((o) => o.period === m.asOf) ?? assert.fail(`${key} has no ${m.asOf}`);
        assert.deepEqual([at.value, at.marginOfError, at.illustrative], [m.value, m.marginOfError, m.illustrative], key);
        assert.equal(s.metrics[key]?.observations.at(-1)?.period, m.asOf, `${key}: the profile's value is the latest`);
      }
      for (const key of ['medianGrossRent', 'permits', 'vacancyRate']) assert.equal(s.metrics[key]?.observations.length, 1, key);
      assert.equal(s.metrics['medianGrossRent']?.frequency, 'annually');
      assert.equal(index.frequency, 'quarterly');
      // Every illustrative metric is illustrative in each observation, and only there.
      for (const [key, m] of Object.entries(s.metrics))
        for (const o of m.observations) assert.equal(o.illustrative, profile.profile.metrics[key]?.illustrative, `${key} ${o.period}`);
    });
  }

  test("the area: the Census place's GEOID for city values, the CBSA or division code for the index", () => {
    const austin = series('us-tx-austin');
    assert.deepEqual(austin.metrics['medianGrossRent']?.geography, { level: 'place', code: '1600000US4805000', name: 'Austin city, Texas' });
    assert.deepEqual(austin.metrics['homePriceIndex']?.geography, { level: 'cbsa', code: '12420', name: 'Austin-Round Rock-San Marcos, TX' });
    assert.deepEqual(series('us-ny-new-york').metrics['homePriceIndex']?.geography.code, '35614');
  });

  test('the change series: the year-over-year change every quarter that has one, from the same published values', () => {
    const austin = series('us-tx-austin');
    const published = fhfaRows('12420');
    for (const o of austin.metrics['homePriceChange']?.observations ?? []) {
      const [before = '', after = ''] = o.period.split(' to ');
      const value = Math.round(((published.get(after) ?? NaN) / (published.get(before) ?? NaN) - 1) * 1000) / 10;
      assert.equal(o.value, Object.is(value, -0) ? 0 : value, o.period);
    }
  });
});

describe('the series CSVs', () => {
  const rows = (path: string): Record<string, string>[] => parse(body(table, path), { columns: true }) as Record<string, string>[];
  test('long format: one row per observation of the JSON, in the descriptor columns, every cell of its type', () => {
    for (const id of WORLD_MARKET_IDS) {
      const s = series(id);
      const csv = rows(PATHS.seriesCsv(id));
      // Each metric's own observations, then its state's and the nation's (the comparisons), each by period.
      const observations = Object.values(s.metrics).flatMap((m) => [
        ...m.observations.map((o) => ({ m, o, area: o.geography ?? m.geography })),
        ...(m.comparisons ?? []).flatMap((c) => c.observations.map((o) => ({ m, o, area: c.geography }))),
      ]);
      assert.equal(csv.length, observations.length, id);
      assert.deepEqual(
        Object.keys(csv[0] ?? {}),
        SERIES_CSV_COLUMNS.map((c) => c.name),
      );
      csv.forEach((r, i) => {
        const { m, o, area } = observations[i] ?? assert.fail('no observation');
        assert.deepEqual(
          [
            r['metric_id'],
            r['period'],
            Number(r['value']),
            r['margin_of_error'] === '' ? undefined : Number(r['margin_of_error']),
            r['illustrative'],
            r['geography_level'],
            r['geography_code'],
            r['published_as'] === '' ? undefined : r['published_as'],
            r['dollar_year'] === '' ? undefined : Number(r['dollar_year']),
          ],
          [m.id, o.period, o.value, o.marginOfError, String(o.illustrative === true), area.level, area.code, o.qualifier?.publishedAs, o.dollarYear],
        );
        assert.match(r['period_start'] ?? '', /^\d{4}-\d{2}-\d{2}$/);
        assert.match(r['period_end'] ?? '', /^\d{4}-\d{2}-\d{2}$/);
        assert.ok(['true', 'false'].includes(r['illustrative'] ?? ''), "['true', 'false'].includes(r['illustrative'] ?? '')");
        assert.equal(r['live_data'], 'false');
      });
    }
  });
  test('the bulk series CSV is every market series CSV, in market order, under one header', () => {
    const bulk = body(table, PATHS.bulkSeriesCsv);
    const [header, ...markets] = WORLD_MARKET_IDS.map((id) => body(table, PATHS.seriesCsv(id)));
    const headerLine = (header ?? '').split('\r\n')[0];
    const expected = `${headerLine}\r\n${[header, ...markets].map((text) => (text ?? '').split('\r\n').slice(1).join('\r\n')).join('')}`;
    assert.equal(bulk, expected);
  });
  test('rows in market id and metric id order, whatever order the documents and their metrics come in', () => {
    const all = WORLD_MARKET_IDS.map(series);
    const reversed = all.map((s) => ({ ...s, metrics: Object.fromEntries(Object.entries(s.metrics).reverse()) }) as MarketSeries).reverse();
    assert.equal(renderBulkSeriesCsv(reversed), renderBulkSeriesCsv(all));
    assert.equal(renderBulkSeriesCsv(reversed), body(table, PATHS.bulkSeriesCsv));
    const austin = reversed.find((s) => s.market.id === 'us-tx-austin') ?? assert.fail();
    const ids = seriesRows(austin).map((r) => r.metric_id);
    assert.deepEqual(ids, [...ids].sort(), 'metric ids sorted');
    assert.ok(new Set(ids).size > 1, 'new Set(ids).size > 1');
  });
});

describe('series across vintages', () => {
  const now = buildWorldSnapshot({ baseUrl: BASE_URL, read: fixtureReader() });
  type Profile = ReturnType<typeof servedProfiles>[number];
  const austinNow = now.snapshot.markets.find((m) => m.profile.market.id === 'us-tx-austin') ?? assert.fail();
  /** Austin's profile as built today, its rent of 2019-2023 (1,600), edited: an archived snapshot's profiles. */
  const archivedAustin = (edit: (old: Profile) => void): PastSnapshot['profiles'] => {
    const old = structuredClone(JSON.parse(body(now.table, PATHS.profile('us-tx-austin')))) as Profile;
    Object.assign(old.profile.metrics['medianGrossRent'] ?? assert.fail(), { value: 1600, asOf: '2019-2023' });
    edit(old);
    return new Map([['us-tx-austin', old]]);
  };
  /**
   * An archived snapshot of 2025-11-20 holding Austin's profile as built today, edited; its ACS vintage 2019-2023, in
   * which Austin's rent was 1,600 ± 20. Returns the series of Austin's metrics built with it.
   */
  const withArchivedAustin = (edit: (old: Profile) => void): MarketSeries['metrics'] => {
    const past: PastSnapshot = {
      snapshotDate: '2025-11-20',
      methodologyVersion: 'v2.0',
      sources: [{ sourceId: 'census-acs-5yr', vintage: '2019-2023', updateFrequency: 'annually', latestReleaseDate: '2024-12-12', files: [] }],
      profiles: archivedAustin((old) => {
        Object.assign(old.profile.metrics['medianGrossRent'] ?? assert.fail(), { marginOfError: 20 });
        edit(old);
      }),
      documents: new Map(),
    };
    const later = buildWorldSnapshot({ baseUrl: BASE_URL, read: fixtureReader(), archive: [past] });
    return later.snapshot.markets.find((m) => m.profile.market.id === 'us-tx-austin')?.seriesDocument.metrics ?? assert.fail();
  };
  test('a period the current files no longer hold comes from the newest archived snapshot that has it, naming that snapshot', () => {
    const austin = austinNow.profile;
    // Its permits were 2023's and its vacancy rate 2019-2023's, an illustrative value then; its FHFA quarter is one the
    // current file holds too: the current (revised) value wins.
    const metrics = withArchivedAustin((old) => {
      Object.assign(old.profile.metrics['permits'] ?? assert.fail(), { value: 9000, asOf: '2023' });
      const vacancy = old.profile.metrics['vacancyRate'] ?? assert.fail();
      Object.assign(vacancy, { value: 6.1, asOf: '2019-2023', illustrative: true });
      delete vacancy.marginOfError;
      Object.assign(old.profile.metrics['homePriceIndex'] ?? assert.fail(), { value: 1 });
    });
    assert.deepEqual(
      metrics['medianGrossRent']?.observations.map((o) => [o.period, o.value, o.marginOfError, o.snapshotDate]),
      [
        ['2019-2023', 1600, 20, '2025-11-20'],
        ['2020-2024', 1729, 14, austin.generatedAt],
      ],
    );
    assert.deepEqual(
      metrics['permits']?.observations.map((o) => [o.period, o.value, o.snapshotDate]),
      [
        ['2023', 9000, '2025-11-20'],
        ['2024', 9444, austin.generatedAt],
      ],
    );
    assert.equal(metrics['homePriceIndex']?.observations.find((o) => o.period === '2025 Q4')?.value, 502.62);
    // An archived value keeps its own flags: the published rent its margin, the illustrative vacancy rate of then its mark
    // and no margin; today's published vacancy rate its margin and no mark.
    const vacancyNow = austin.profile.metrics['vacancyRate'] ?? assert.fail();
    assert.deepEqual(
      metrics['vacancyRate']?.observations.map((o) => [o.period, o.value, o.illustrative, o.marginOfError, o.snapshotDate]),
      [
        ['2019-2023', 6.1, true, undefined, '2025-11-20'],
        ['2020-2024', vacancyNow.value, undefined, vacancyNow.marginOfError, austin.generatedAt],
      ],
    );
    assert.equal(
      metrics['medianGrossRent']?.observations.some((o) => 'illustrative' in o),
      false,
    );
    // The archived rent describes the same Census place as today's: no geography of its own.
    assert.equal(
      metrics['medianGrossRent']?.observations.some((o) => o.geography !== undefined),
      false,
    );
  });
  test('an archived value of another area names that area; the current values, the series area', () => {
    const rent =
      withArchivedAustin((old) => {
        const place = old.geographyScope?.boundaries.find((b) => b.metrics.includes('medianGrossRent')) ?? assert.fail();
        Object.assign(place, { name: 'Old Austin city, Texas', codes: { ...place.codes, placeFips: '05001' } });
      })['medianGrossRent'] ?? assert.fail();
    assert.deepEqual(rent.geography, { level: 'place', code: '1600000US4805000', name: 'Austin city, Texas' });
    assert.deepEqual(
      rent.observations.map((o) => [o.period, o.geography]),
      [
        ['2019-2023', { level: 'place', code: '1600000US4805001', name: 'Old Austin city, Texas' }],
        ['2020-2024', undefined],
      ],
    );
  });
  /** Austin's series assembled straight from today's data with one archived snapshot (no build: each case is one market). */
  const austinWith = (
    profiles: PastSnapshot['profiles'],
    history: ReadonlyMap<MetricId, MetricSeries> = austinNow.series,
    profile = austinNow.profile,
  ): MarketSeries['metrics'] =>
    assembleSeries({
      profile,
      series: history,
      boundaries: austinNow.boundaries,
      past: [{ snapshotDate: '2025-11-20', methodologyVersion: 'v2.0', sources: [], profiles, documents: new Map() }],
      baseUrl: BASE_URL,
    }).metrics;
  test('an archived profile that does not say its areas, or not for this metric: its value is taken as of the series area', () => {
    for (const [how, edit] of [
      ['no geographyScope', (old: Profile) => delete old.geographyScope],
      [
        'a scope without the metric',
        (old: Profile) => old.geographyScope?.boundaries.forEach((b) => (b.metrics = b.metrics.filter((m) => m !== 'medianGrossRent'))),
      ],
    ] as const) {
      const rent = austinWith(archivedAustin(edit))['medianGrossRent'] ?? assert.fail(how);
      assert.deepEqual(
        rent.observations.map((o) => [o.period, o.value, o.geography]),
        [
          ['2019-2023', 1600, undefined],
          ['2020-2024', 1729, undefined],
        ],
        how,
      );
    }
  });
  test('an archived profile without a metric, or without the market, adds no period to that series', () => {
    const current = austinNow.seriesDocument.metrics;
    const metrics = austinWith(
      archivedAustin((old) => {
        delete old.profile.metrics['permits'];
        delete old.profile.metrics['homePriceIndex'];
      }),
    );
    assert.deepEqual(metrics['permits'], current['permits']);
    assert.deepEqual(metrics['homePriceIndex'], current['homePriceIndex']);
    assert.equal(metrics['medianGrossRent']?.observations.length, 2, 'the metrics it has still count');
    assert.deepEqual(austinWith(new Map()), current, 'an archive without the market');
  });
  test('a history with a margin and an illustrative metric: the margin on the latest period only, the mark on every period', () => {
    // No source today has both a history and a margin or an illustrative value (the ACS gives one period, and none is
    // illustrative): a made-up history, and Austin's vacancy rate marked illustrative as a fixture could mark it.
    const rent = austinNow.profile.profile.metrics['medianGrossRent'] ?? assert.fail();
    const profile = structuredClone(austinNow.profile);
    const vacancy = profile.profile.metrics['vacancyRate'] ?? assert.fail();
    vacancy.illustrative = true;
    delete vacancy.marginOfError;
    assert.deepEqual([rent.asOf, rent.marginOfError, rent.illustrative, vacancy.asOf], ['2020-2024', 14, undefined, '2020-2024']);
    const history = (metricId: 'medianGrossRent' | 'vacancyRate', values: (number | undefined)[]): MetricSeries => ({
      marketId: 'us-tx-austin',
      metricId,
      perYear: 1,
      points: values.map((value, i) => ({ period: `${2017 + i}-${2021 + i}`, value })),
    });
    const metrics = austinWith(
      new Map(),
      new Map([
        ...austinNow.series,
        ['medianGrossRent', history('medianGrossRent', [1500, undefined, 1650, 9999])],
        ['vacancyRate', history('vacancyRate', [4, 4.1, 4.2, 4.3])],
      ]),
      profile,
    );
    // The period a history point has no value for is left out; the latest period is the profile's value, whatever the history says.
    assert.deepEqual(
      metrics['medianGrossRent']?.observations.map((o) => [o.period, o.value, o.marginOfError, 'illustrative' in o]),
      [
        ['2017-2021', 1500, undefined, false],
        ['2019-2023', 1650, undefined, false],
        ['2020-2024', 1729, 14, false],
      ],
    );
    assert.deepEqual(
      metrics['vacancyRate']?.observations.map((o) => [o.period, o.value, o.illustrative, 'marginOfError' in o]),
      [
        ['2017-2021', 4, true, false],
        ['2018-2022', 4.1, true, false],
        ['2019-2023', 4.2, true, false],
        ['2020-2024', vacancy.value, true, false],
      ],
    );
  });
});

describe('the series checks the build runs', () => {
  test('a CSV cell that does not tie to the JSON stops the build with the route, line and column', () => {
    const s = series('us-tx-austin');
    const csv = body(table, PATHS.seriesCsv('us-tx-austin'));
    const lines = csv.split('\r\n');
    const tampered = [lines[0], (lines[1] ?? '').replace(',18.1,', ',18.2,'), ...lines.slice(2)].join('\r\n');
    assert.throws(
      () => assertSeriesCsvTies(tampered, [s], PATHS.seriesCsv('us-tx-austin')),
      (e: unknown) => e instanceof ContractError && /line 2, column value.*CSV has "18\.2", the JSON has "18\.1"/.test(e.message),
    );
    assert.doesNotThrow(() => assertSeriesCsvTies(csv, [s], PATHS.seriesCsv('us-tx-austin')));
  });
  test('observations out of order, a period whose span is not its label, or an illustrative value with a margin are refused', () => {
    const broken = (edit: (s: MarketSeries) => void): MarketSeries => {
      const s = structuredClone(series('us-tx-austin'));
      edit(s);
      return s;
    };
    const index = (s: MarketSeries): MarketSeries['metrics'][string] => s.metrics['homePriceIndex'] ?? assert.fail();
    assert.throws(
      () =>
        assertSeriesRules(
          broken((s) => index(s).observations.reverse()),
          'r',
        ),
      /sorted by period end/,
    );
    assert.throws(
      () =>
        assertSeriesRules(
          broken((s) => Object.assign(index(s).observations[0] ?? {}, { periodEnd: '1977-06-29' })),
          'r',
        ),
      /runs 1977-04-01 to 1977-06-30, not 1977-04-01 to 1977-06-29/,
    );
    assert.throws(
      () =>
        assertSeriesRules(
          broken((s) => Object.assign(s.metrics['vacancyRate']?.observations[0] ?? {}, { illustrative: true })),
          'r',
        ),
      /an illustrative value has no margin of error/,
    );
  });
});
