// Truth: every value served is the figure its agency published, read from the place the fixture's README names, or says "illustrative": true.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { MarketProfile } from '../../src/contract/schemas.ts';
import { MARKET_IDS } from '../../src/contract/markets.ts';
import { scoreDependencies } from '../../src/methodology/scores.ts';
import { FIXTURES_DIR, buildTable, servedProfiles } from '../support/data.ts';

/**
 * The published figures, one row per market, typed in by hand from the sources (never from our fixtures):
 * - rent, income, value, units: the Census Bureau's ACS 2020-2024 5-year estimates of B25064_001, B19013_001, B25077_001 and
 *   B25001_001 with their 90 % margins of error, from the table-based summary files (acsdt5y2024-<table>.dat) as quoted in
 *   the public repository cwhisman21/mortgage-website-platform-plan, mock-data/location-news/<the file named>, commit 09b767cc.
 * - permits: new housing units authorized in 2024 (the four unit groups with imputation) in the BPS 2024 annual place files
 *   as published (read from dylanmatthews/census-permit-data; so2024a.txt has the Census Bureau's SHA-256), New York the sum of its five boroughs.
 * - hpi: FHFA's all-transactions index of the market's series (fixtures/fhfa-hpi/README.md) for 2025 Q4 and 2024 Q4.
 */
const PUBLISHED: readonly [
  string,
  { rent: [number, number]; income: [number, number]; value: [number, number]; units: [number, number]; permits: number; hpi: [number, number] },
  string,
][] = [
  [
    'us-tx-austin',
    { rent: [1729, 14], income: [93658, 1670], value: [555300, 8017], units: [483071, 2022], permits: 9444, hpi: [505.7, 503.8] },
    'texas/austin.json',
  ],
  [
    'us-fl-miami',
    { rent: [1758, 26], income: [62462, 1757], value: [518100, 19775], units: [223826, 2313], permits: 6023, hpi: [657.5, 647.55] },
    'florida/miami.json',
  ],
  [
    'us-az-phoenix',
    { rent: [1582, 14], income: [81332, 986], value: [420700, 3431], units: [653065, 3179], permits: 8997, hpi: [516.83, 510.55] },
    'arizona/phoenix.json',
  ],
  [
    'us-wa-seattle',
    { rent: [2030, 22], income: [123860, 2244], value: [938600, 8494], units: [393918, 2085], permits: 5895, hpi: [554.94, 543.42] },
    'washington/seattle.json',
  ],
  [
    'us-co-denver',
    { rent: [1831, 17], income: [94718, 1644], value: [616000, 6700], units: [359581, 203], permits: 3994, hpi: [498.42, 494.51] },
    'colorado/denver.json',
  ],
  [
    'us-tn-nashville',
    { rent: [1586, 18], income: [77371, 1378], value: [413600, 5848], units: [344794, 475], permits: 6799, hpi: [482.24, 471.59] },
    'tennessee/nashville.json',
  ],
  [
    'us-tx-dallas',
    { rent: [1472, 9], income: [70518, 817], value: [320700, 5461], units: [590237, 2921], permits: 6038, hpi: [425.92, 427.38] },
    'texas/dallas.json',
  ],
  [
    'us-fl-tampa',
    { rent: [1701, 27], income: [75475, 1872], value: [420400, 8438], units: [182425, 1500], permits: 2546, hpi: [512.52, 509.87] },
    'florida/tampa.json',
  ],
  [
    'us-ca-los-angeles',
    { rent: [1933, 9], income: [81939, 742], value: [921200, 4782], units: [1554332, 4168], permits: 10488, hpi: [557.42, 546.86] },
    'california/los-angeles.json',
  ],
  [
    'us-ca-san-diego',
    { rent: [2313, 18], income: [108077, 1463], value: [906700, 6879], units: [568668, 2466], permits: 6615, hpi: [570.03, 561.53] },
    'california/san-diego.json',
  ],
  [
    'us-ca-san-francisco',
    { rent: [2476, 30], income: [140970, 2593], value: [1394500, 20642], units: [414602, 403], permits: 770, hpi: [515.73, 507.55] },
    'california/san-francisco.json',
  ],
  [
    'us-ny-new-york',
    { rent: [1821, 7], income: [80483, 601], value: [777600, 4889], units: [3678486, 1496], permits: 27241, hpi: [437.42, 412.6] },
    'new-york/new-york.json',
  ],
  [
    'us-ma-boston',
    { rent: [2147, 25], income: [97344, 1837], value: [731700, 9717], units: [310625, 875], permits: 1789, hpi: [495.77, 474.94] },
    'massachusetts/boston.json',
  ],
  [
    'us-il-chicago',
    { rent: [1440, 10], income: [77902, 907], value: [334100, 2424], units: [1277054, 3651], permits: 4371, hpi: [284.93, 267.54] },
    'illinois/chicago.json',
  ],
  [
    'us-ga-atlanta',
    { rent: [1711, 22], income: [85652, 1846], value: [439600, 10668], units: [265899, 2133], permits: 8109, hpi: [375.43, 367.24] },
    'georgia/atlanta.json',
  ],
  [
    'us-dc-washington',
    { rent: [1954, 26], income: [109870, 1937], value: [737100, 10625], units: [361014, 148], permits: 1737, hpi: [397.64, 386.32] },
    'district-of-columbia/washington.json',
  ],
];

/** The metrics no public copy of the agency's 2020-2024 estimates was found for: served, and marked illustrative. */
const ILLUSTRATIVE = ['medianRenterIncome', 'rentBurden', 'ownerCostBurden', 'rentalVacancyRate'];

/** The published figure of each (market, metric) as the profile should serve it, with its margin of error where there is one. */
function expected(row: (typeof PUBLISHED)[number][1]): Record<string, { value: number; marginOfError?: number }> {
  const [latest, yearBefore] = row.hpi;
  return {
    medianGrossRent: { value: row.rent[0], marginOfError: row.rent[1] },
    medianHouseholdIncome: { value: row.income[0], marginOfError: row.income[1] },
    medianHomeValue: { value: row.value[0], marginOfError: row.value[1] },
    housingUnits: { value: row.units[0], marginOfError: row.units[1] },
    permits: { value: row.permits },
    homePriceIndex: { value: latest },
    // FHFA publishes the index; the change over four quarters is computed from two published values, to one decimal.
    homePriceChange: { value: Math.round((latest / yearBefore - 1) * 1000) / 10 },
  };
}

const profiles = servedProfiles(buildTable());
const byId = new Map(profiles.map((p) => [p.market.id, p]));
const readme = (source: string): string => readFileSync(join(FIXTURES_DIR, source, 'README.md'), 'utf8');
const README = { 'census-acs-5yr': readme('census-acs-5yr'), 'census-bps': readme('census-bps'), 'fhfa-hpi': readme('fhfa-hpi') } as Record<string, string>;
/** The README's row of a value: `| us-tx-austin | medianGrossRent | 1729 | 14 | published | …`. */
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const readmeRow = (marketId: string, metricId: string, cells: readonly (string | number)[], where = ''): RegExp =>
  new RegExp(`^\\| ${marketId} \\| ${metricId} \\| ${cells.map((c) => escape(String(c))).join(' \\| ')} \\|[^\\n]*${escape(where)}`, 'm');

describe('published values', () => {
  test('the table covers the sixteen markets, each once', () => {
    assert.deepEqual(PUBLISHED.map(([id]) => id).sort(), [...MARKET_IDS].sort());
  });

  for (const [marketId, row] of PUBLISHED) {
    test(`${marketId}: each of the 7 published values is the agency's figure, with its margin; the other 4 say "illustrative": true`, () => {
      const profile = byId.get(marketId) ?? assert.fail(`no profile of ${marketId}`);
      const metrics = profile.profile.metrics;
      const want = expected(row);
      for (const [metricId, figure] of Object.entries(want)) {
        const served = metrics[metricId] ?? assert.fail(`${marketId} serves no ${metricId}`);
        assert.deepEqual(
          { value: served.value, marginOfError: served.marginOfError, illustrative: served.illustrative },
          { value: figure.value, marginOfError: figure.marginOfError, illustrative: undefined },
          `${marketId} ${metricId}`,
        );
      }
      for (const metricId of ILLUSTRATIVE) {
        const served = metrics[metricId] ?? assert.fail(`${marketId} serves no ${metricId}`);
        assert.equal(served.illustrative, true, `${marketId} ${metricId}`);
        assert.equal(served.marginOfError, undefined, `${marketId} ${metricId}: no agency published a margin for it`);
      }
      assert.deepEqual(Object.keys(metrics).sort(), [...Object.keys(want), ...ILLUSTRATIVE].sort(), 'no other metric is served');
    });
  }

  test("each fixture README has the value's row: market, metric, value, margin, published or illustrative", () => {
    for (const [marketId, row, acsFile] of PUBLISHED) {
      const want = expected(row);
      for (const metricId of ['medianGrossRent', 'medianHouseholdIncome', 'medianHomeValue', 'housingUnits'])
        assert.match(
          README['census-acs-5yr'] ?? '',
          readmeRow(marketId, metricId, [want[metricId]?.value ?? '', want[metricId]?.marginOfError ?? '', 'published'], `location-news/${acsFile}`),
        );
      for (const metricId of ILLUSTRATIVE) {
        const served = byId.get(marketId)?.profile.metrics[metricId]?.value ?? '';
        assert.match(README['census-acs-5yr'] ?? '', readmeRow(marketId, metricId, [served, '—', 'illustrative']));
      }
      assert.match(README['census-bps'] ?? '', readmeRow(marketId, 'permits', [row.permits, '—', 'published']));
      assert.match(README['fhfa-hpi'] ?? '', readmeRow(marketId, 'homePriceIndex', [row.hpi[0], '—', 'published']));
      assert.match(README['fhfa-hpi'] ?? '', readmeRow(marketId, 'homePriceChange', [want['homePriceChange']?.value ?? '', '—', 'published']));
    }
  });

  test('176 values: 112 published, 64 illustrative, and the scores that read an illustrative value list themselves', () => {
    const values = profiles.flatMap((p) => Object.values(p.profile.metrics));
    assert.equal(values.length, 176);
    assert.equal(values.filter((m) => m.illustrative === true).length, 64);
    const dependencies = scoreDependencies();
    for (const p of profiles) {
      const reads = Object.entries(dependencies)
        .filter(
          ([key, inputs]) => (p.profile.scores as Record<string, number | undefined>)[key] !== undefined && inputs.some((id) => ILLUSTRATIVE.includes(id)),
        )
        .map(([key]) => key);
      assert.deepEqual([...(p.profile.illustrativeScores ?? [])].sort(), reads.sort(), p.market.id);
    }
  });

  test('a source with illustrative values does not claim "high" confidence; the others keep theirs', () => {
    for (const p of profiles as MarketProfile[]) {
      assert.deepEqual(
        p.sources.map((s) => [s.sourceId, s.confidence]),
        [
          ['census-acs-5yr', 'medium'],
          ['census-bps', 'high'],
          ['fhfa-hpi', 'high'],
        ],
        p.market.id,
      );
    }
  });
});
