// Truth: every value served is the figure its agency published, or a share computed from published figures, read from the place the fixture's README names; none is illustrative.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { MarketProfile } from '../../src/contract/schemas.ts';
import type { MarketSeries } from '../../src/contract/series.ts';
import { MARKETS, MARKET_IDS } from '../../src/contract/markets.ts';
import { TODAY_FIXTURES, buildToday, todaysProfiles } from '../support/today.ts';

/** An estimate and its 90 % margin of error; null where the agency publishes a code instead of a margin. */
type Published = [number, number | null];
interface Acs {
  rent: Published;
  income: Published;
  value: Published;
  ownerCosts: Published;
  units: Published;
  occupied: Published;
  vacant: Published;
  owners: Published;
}

/**
 * The published figures, one row per market, typed from the sources (never from our fixtures):
 * - ACS: the Census Bureau's 2020-2024 5-year estimates of B25064_001 (rent), B19013_001 (income), B25077_001 (value),
 *   B25088_002 (owner costs with a mortgage), B25001_001 (units), B25002_002 and _003 (occupied, vacant) and B25003_002
 *   (owner-occupied) with their 90 % margins, from the table-based summary files (acsdt5y2024-<table>.dat) as quoted in the
 *   public repository cwhisman21/mortgage-website-platform-plan, mock-data/location-news/<the file named>, commit af2315db.
 *   San Francisco's owner costs are the top-coded "4,000+", written 4001, with the margin code -333333333.
 * - permits: new housing units authorized in 2024 (the four unit groups with imputation) in the BPS 2024 annual place files
 *   as published (read from dylanmatthews/census-permit-data; so2024a.txt has the Census Bureau's SHA-256), New York the sum of its five boroughs.
 * - hpi: FHFA's all-transactions index of the market's series, 2026 Q2 release (xhencall/rent-buy-ohio
 *   data/raw/hpi_at_metro.csv at commit 7f0653a8), for 2026 Q2 and 2025 Q2.
 */
// prettier-ignore
const PUBLISHED: readonly [string, Acs & { permits: number; hpi: [number, number] }, string][] = [
['us-az-phoenix', { rent: [1582, 14], income: [81332, 986], value: [420700, 3431], ownerCosts: [1847, 17], units: [653065, 3179], occupied: [610442, 3318], vacant: [42623, 1812], owners: [350001, 3974], permits: 8997, hpi: [517.12, 512.77] }, 'arizona/phoenix.json'],
  ['us-ca-los-angeles', { rent: [1933, 9], income: [81939, 742], value: [921200, 4782], ownerCosts: [3497, 23], units: [1554332, 4168], occupied: [1439097, 4027], vacant: [115235, 3053], owners: [518423, 4594], permits: 10488, hpi: [557.38, 550.77] }, 'california/los-angeles.json'],
  ['us-ca-san-diego', { rent: [2313, 18], income: [108077, 1463], value: [906700, 6879], ownerCosts: [3252, 30], units: [568668, 2466], occupied: [530412, 2344], vacant: [38256, 1783], owners: [251100, 3064], permits: 6615, hpi: [578.75, 564.68] }, 'california/san-diego.json'],
  ['us-ca-san-francisco', { rent: [2476, 30], income: [140970, 2593], value: [1394500, 20642], ownerCosts: [4001, null], units: [414602, 403], occupied: [363970, 1953], vacant: [50632, 2063], owners: [139057, 2183], permits: 770, hpi: [506.53, 507.95] }, 'california/san-francisco.json'],
  ['us-co-denver', { rent: [1831, 17], income: [94718, 1644], value: [616000, 6700], ownerCosts: [2466, 32], units: [359581, 203], occupied: [335428, 1490], vacant: [24153, 1523], owners: [163555, 2609], permits: 3994, hpi: [492.5, 494.77] }, 'colorado/denver.json'],
  ['us-dc-washington', { rent: [1954, 26], income: [109870, 1937], value: [737100, 10625], ownerCosts: [3128, 53], units: [361014, 148], occupied: [324491, 1816], vacant: [36523, 1791], owners: [134683, 2554], permits: 1737, hpi: [388.86, 387.03] }, 'district-of-columbia/washington.json'],
  ['us-fl-miami', { rent: [1758, 26], income: [62462, 1757], value: [518100, 19775], ownerCosts: [2863, 92], units: [223826, 2313], occupied: [194821, 2343], vacant: [29005, 1460], owners: [60068, 1696], permits: 6023, hpi: [666.21, 657.88] }, 'florida/miami.json'],
  ['us-fl-tampa', { rent: [1701, 27], income: [75475, 1872], value: [420400, 8438], ownerCosts: [2179, 54], units: [182425, 1500], occupied: [166278, 1491], vacant: [16147, 1000], owners: [83683, 1944], permits: 2546, hpi: [516.64, 511.17] }, 'florida/tampa.json'],
  ['us-ga-atlanta', { rent: [1711, 22], income: [85652, 1846], value: [439600, 10668], ownerCosts: [2423, 45], units: [265899, 2133], occupied: [236468, 2330], vacant: [29431, 1322], owners: [109792, 2262], permits: 8109, hpi: [374.52, 370.67] }, 'georgia/atlanta.json'],
  ['us-il-chicago', { rent: [1440, 10], income: [77902, 907], value: [334100, 2424], ownerCosts: [2339, 17], units: [1277054, 3651], occupied: [1160205, 3944], vacant: [116849, 2703], owners: [534012, 5262], permits: 4371, hpi: [296.21, 278.91] }, 'illinois/chicago.json'],
  ['us-ma-boston', { rent: [2147, 25], income: [97344, 1837], value: [731700, 9717], ownerCosts: [2986, 57], units: [310625, 875], occupied: [283374, 1403], vacant: [27251, 1241], owners: [101166, 2226], permits: 1789, hpi: [502.13, 486.54] }, 'massachusetts/boston.json'],
  ['us-ny-new-york', { rent: [1821, 7], income: [80483, 601], value: [777600, 4889], ownerCosts: [3293, 21], units: [3678486, 1496], occupied: [3334088, 7060], vacant: [344398, 6931], owners: [1093056, 9624], permits: 27241, hpi: [454.16, 429.58] }, 'new-york/new-york.json'],
  ['us-tn-nashville', { rent: [1586, 18], income: [77371, 1378], value: [413600, 5848], ownerCosts: [1898, 29], units: [344794, 475], occupied: [313513, 1710], vacant: [31281, 1639], owners: [164334, 2634], permits: 6799, hpi: [485.29, 477.48] }, 'tennessee/nashville.json'],
  ['us-tx-austin', { rent: [1729, 14], income: [93658, 1670], value: [555300, 8017], ownerCosts: [2679, 39], units: [483071, 2022], occupied: [456113, 2401], vacant: [26958, 1621], owners: [198180, 3375], permits: 9444, hpi: [506.31, 504.61] }, 'texas/austin.json'],
  ['us-tx-dallas', { rent: [1472, 9], income: [70518, 817], value: [320700, 5461], ownerCosts: [2316, 33], units: [590237, 2921], occupied: [533915, 3299], vacant: [56322, 2140], owners: [226615, 3293], permits: 6038, hpi: [426.45, 424.22] }, 'texas/dallas.json'],
  ['us-wa-seattle', { rent: [2030, 22], income: [123860, 2244], value: [938600, 8494], ownerCosts: [3505, 48], units: [393918, 2085], occupied: [363466, 2041], vacant: [30452, 1676], owners: [158945, 2000], permits: 5895, hpi: [554.91, 553.11] }, 'washington/seattle.json'],
];

/** The same ACS figures for the twelve states (the District of Columbia among them), by FIPS code, from the same files. */
// prettier-ignore
const STATES: Readonly<Record<string, Acs & { name: string }>> = {
  '04': { name: 'Arizona', rent: [1543, 7], income: [79964, 407], value: [394500, 1474], ownerCosts: [1803, 7], units: [3192839, 631], occupied: [2856081, 6374], vacant: [336758, 6061], owners: [1924098, 9729] },
  '06': { name: 'California', rent: [2036, 5], income: [99122, 310], value: [734700, 1307], ownerCosts: [2946, 5], units: [14644735, 1665], occupied: [13548091, 17724], vacant: [1096644, 18928], owners: [7567568, 37334] },
  '08': { name: 'Colorado', rent: [1761, 7], income: [95470, 578], value: [539400, 2069], ownerCosts: [2326, 9], units: [2589053, 653], occupied: [2374218, 4232], vacant: [214835, 4248], owners: [1571735, 8198] },
  '11': { name: 'District of Columbia', rent: [1954, 26], income: [109870, 1937], value: [737100, 10625], ownerCosts: [3128, 53], units: [361014, 148], occupied: [324491, 1816], vacant: [36523, 1791], owners: [134683, 2554] },
  '12': { name: 'Florida', rent: [1669, 5], income: [74568, 284], value: [359000, 930], ownerCosts: [1959, 5], units: [10256470, 942], occupied: [8752810, 20285], vacant: [1503660, 20826], owners: [5918647, 31594] },
  '13': { name: 'Georgia', rent: [1393, 6], income: [77353, 407], value: [303300, 1171], ownerCosts: [1783, 8], units: [4541835, 1384], occupied: [4074366, 9635], vacant: [467469, 8617], owners: [2676357, 16436] },
  '17': { name: 'Illinois', rent: [1274, 5], income: [83390, 362], value: [263300, 797], ownerCosts: [1987, 6], units: [5457452, 471], occupied: [5036449, 8009], vacant: [421003, 7877], owners: [3378910, 14728] },
  '25': { name: 'Massachusetts', rent: [1762, 9], income: [103960, 527], value: [562100, 2169], ownerCosts: [2726, 10], units: [3030406, 453], occupied: [2785042, 5182], vacant: [245364, 5351], owners: [1741158, 8598] },
  '36': { name: 'New York', rent: [1621, 7], income: [85974, 402], value: [423800, 1627], ownerCosts: [2555, 9], units: [8585241, 652], occupied: [7722646, 12717], vacant: [862595, 12628], owners: [4196985, 19607] },
  '47': { name: 'Tennessee', rent: [1189, 7], income: [69595, 429], value: [286700, 1492], ownerCosts: [1566, 8], units: [3143670, 903], occupied: [2824277, 6378], vacant: [319393, 6990], owners: [1890569, 10295] },
  '48': { name: 'Texas', rent: [1403, 4], income: [78476, 263], value: [283800, 738], ownerCosts: [2106, 6], units: [12128515, 1574], occupied: [10992816, 15813], vacant: [1135699, 15068], owners: [6879255, 32101] },
  '53': { name: 'Washington', rent: [1760, 7], income: [98141, 414], value: [564600, 1940], ownerCosts: [2445, 8], units: [3306620, 517], occupied: [3064820, 5874], vacant: [241800, 5686], owners: [1954777, 10007] },
};

/**
 * FHFA's all-transactions index of each state and of the United States, 2026 Q2 and 2025 Q2, from HPI_master.csv of the
 * 2026 Q2 release as the public repository JordynF-design/SC-GA-Future-Cost-Predictor holds it (hpi_master.csv, commit
 * c2a8131e), read line by line twice: [postal code, name, 2026 Q2, 2025 Q2].
 */
// prettier-ignore
const FHFA_STATES: Readonly<Record<string, readonly [string, string, number, number]>> = {
  '04': ['AZ', 'Arizona', 731.21, 724.44], '06': ['CA', 'California', 974.97, 966.27], '08': ['CO', 'Colorado', 853.19, 851.46],
  '11': ['DC', 'District of Columbia', 1037.72, 1043.93], '12': ['FL', 'Florida', 825.7, 814.29], '13': ['GA', 'Georgia', 662.08, 649.55],
  '17': ['IL', 'Illinois', 565.87, 533.9], '25': ['MA', 'Massachusetts', 1326.94, 1286.11], '36': ['NY', 'New York', 1184.26, 1124.56],
  '47': ['TN', 'Tennessee', 705.37, 687.53], '48': ['TX', 'Texas', 531.31, 523.1], '53': ['WA', 'Washington', 1033.33, 1022.64],
};
const FHFA_NATION = [719.87, 698.69] as const;
/** The United States' 2020-2024 median household income and its margin: data.census.gov table ACSDT5Y2024.B19013, first row (harikrish13/cash-flow-landlords-reit-analysis, commit bbde3f7f). */
const NATION_INCOME: Published = [80734, 166];
/**
 * The 2015-2019 median home value (B25077_001) with its margin, of each market and each state, from the 2019 summary files
 * (acsdt5y2019-b25077.dat) as quoted in cwhisman21/mortgage-website-platform-plan, commit af2315db.
 */
// prettier-ignore
const VALUE_2019: Readonly<Record<string, Published>> = {
  'us-az-phoenix': [235400, 1793], 'us-ca-los-angeles': [636900, 2165], 'us-ca-san-diego': [602600, 4036], 'us-ca-san-francisco': [1097800, 9894],
  'us-co-denver': [390600, 3946], 'us-dc-washington': [601500, 6902], 'us-fl-miami': [317700, 8981], 'us-fl-tampa': [238900, 4851],
  'us-ga-atlanta': [290400, 7767], 'us-il-chicago': [258000, 1726], 'us-ma-boston': [532700, 7453], 'us-ny-new-york': [606000, 2391],
  'us-tn-nashville': [239000, 2576], 'us-tx-austin': [337400, 3146], 'us-tx-dallas': [188100, 3723], 'us-wa-seattle': [663100, 5618],
  '04': [225500, 662], '06': [505000, 1147], '08': [343300, 911], '11': [601500, 6902], '12': [215300, 548], '13': [176000, 800],
  '17': [194500, 546], '25': [381600, 975], '36': [313700, 1000], '47': [167200, 579], '48': [172500, 355], '53': [339000, 970],
};

const round1 = (x: number): number => Math.round(x * 10) / 10;
/**
 * A share of two published counts, %, one decimal, and its margin by the Census Bureau's approximation for a derived
 * proportion (ACS General Handbook, chapter 8): √(mx² − p²·my²) / y, the ratio form √(mx² + p²·my²) / y where the first is negative.
 */
function share([x, mx]: Published, [y, my]: Published): { value: number; marginOfError?: number } {
  const p = x / y;
  if (mx === null || my === null) return { value: round1(p * 100) };
  const under = mx ** 2 - p ** 2 * my ** 2;
  return { value: round1(p * 100), marginOfError: round1((Math.sqrt(under >= 0 ? under : mx ** 2 + p ** 2 * my ** 2) / y) * 100) };
}
const estimate = ([value, marginOfError]: Published): { value: number; marginOfError?: number } =>
  marginOfError === null ? { value } : { value, marginOfError };

/** Each ACS metric as the profile should serve it, from a row of the tables above: a published estimate, or a share of two. */
const acs = (row: Acs): Record<string, { value: number; marginOfError?: number }> => ({
  medianGrossRent: estimate(row.rent),
  medianHouseholdIncome: estimate(row.income),
  medianHomeValue: estimate(row.value),
  medianOwnerCostsWithMortgage: estimate(row.ownerCosts),
  homeownershipRate: share(row.owners, row.occupied),
  vacancyRate: share(row.vacant, row.units),
  housingUnits: estimate(row.units),
});

/** The published figure of each (market, metric) as the profile should serve it, with its margin of error where there is one. */
function expected(row: (typeof PUBLISHED)[number][1]): Record<string, { value: number; marginOfError?: number }> {
  const [latest, yearBefore] = row.hpi;
  return {
    ...acs(row),
    permits: { value: row.permits },
    homePriceIndex: { value: latest },
    // FHFA publishes the index; the change over four quarters is computed from two published values, to one decimal.
    homePriceChange: { value: Math.round((latest / yearBefore - 1) * 1000) / 10 },
  };
}

const profiles = todaysProfiles(buildToday());
const byId = new Map(profiles.map((p) => [p.market.id, p]));
const readme = (source: string): string => readFileSync(join(TODAY_FIXTURES, source, 'README.md'), 'utf8');
const README = { 'census-acs-5yr': readme('census-acs-5yr'), 'census-bps': readme('census-bps'), 'fhfa-hpi': readme('fhfa-hpi') } as Record<string, string>;
/** The README's row of a value: `| us-tx-austin | medianGrossRent | 1729 | 14 | published | …`. */
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const readmeRow = (first: string, metricId: string, cells: readonly (string | number)[], where = ''): RegExp =>
  new RegExp(`^\\| ${first} \\| ${metricId} \\| ${cells.map((c) => escape(String(c))).join(' \\| ')} \\|[^\\n]*${escape(where)}`, 'm');
const ACS_METRICS = [
  'medianGrossRent',
  'medianHouseholdIncome',
  'medianHomeValue',
  'medianOwnerCostsWithMortgage',
  'homeownershipRate',
  'vacancyRate',
  'housingUnits',
];
const SHARES = ['homeownershipRate', 'vacancyRate'];

describe('published values', () => {
  test('the table covers the sixteen markets, each once, and the states they lie in', () => {
    assert.deepEqual(PUBLISHED.map(([id]) => id).sort(), [...MARKET_IDS].sort());
    assert.deepEqual(Object.keys(STATES).sort(), [...new Set(MARKETS.map((m) => m.placeGeoid.state))].sort());
  });

  for (const [marketId, row] of PUBLISHED) {
    test(`${marketId}: each of the 10 values is the agency's figure or a share of its figures, with its margin, and none is illustrative`, () => {
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
      assert.deepEqual(Object.keys(metrics).sort(), Object.keys(want).sort(), 'no other metric is served');
    });
    test(`${marketId}: each ACS value is served beside its state's published figure, or the share of its state's figures, and the income beside the nation's`, () => {
      const profile = byId.get(marketId) ?? assert.fail(`no profile of ${marketId}`);
      const fips = MARKETS.find((m) => m.id === marketId)?.placeGeoid.state ?? '';
      const state = STATES[fips] ?? assert.fail(`no state ${fips}`);
      for (const [metricId, figure] of Object.entries(acs(state))) {
        assert.deepEqual(
          profile.profile.metrics[metricId]?.comparisons,
          [
            { level: 'state', code: fips, name: state.name, ...figure, asOf: '2020-2024' },
            ...(metricId === 'medianHouseholdIncome'
              ? [{ level: 'nation', code: '1', name: 'United States', ...estimate(NATION_INCOME), asOf: '2020-2024' }]
              : []),
          ],
          `${marketId} ${metricId}`,
        );
      }
      for (const metricId of ['permits', 'homePriceIndex'])
        assert.equal(profile.profile.metrics[metricId]?.comparisons, undefined, `${marketId} ${metricId}: no state figure is served`);
    });
    test(`${marketId}: the house price change beside its state's and the nation's over the same quarters, from FHFA's published indexes`, () => {
      const profile = byId.get(marketId) ?? assert.fail(`no profile of ${marketId}`);
      const fips = MARKETS.find((m) => m.id === marketId)?.placeGeoid.state ?? '';
      const [code, name, latest, yearBefore] = FHFA_STATES[fips] ?? assert.fail(`no FHFA state ${fips}`);
      const change = (a: number, b: number): number => Math.round((a / b - 1) * 1000) / 10;
      assert.deepEqual(profile.profile.metrics['homePriceChange']?.comparisons, [
        { level: 'state', code, name, value: change(latest, yearBefore), asOf: '2025 Q2 to 2026 Q2' },
        { level: 'nation', code: 'USA', name: 'United States', value: change(...FHFA_NATION), asOf: '2025 Q2 to 2026 Q2' },
      ]);
    });
    test(`${marketId}: the home value beside its 2015-2019 figure, the change with the Census Bureau's margin and verdict, in each period's dollars`, () => {
      const profile = byId.get(marketId) ?? assert.fail(`no profile of ${marketId}`);
      const [then, thenMargin] = VALUE_2019[marketId] ?? assert.fail();
      const [now, nowMargin] = row.value;
      const margin = Math.round(Math.hypot(nowMargin ?? NaN, thenMargin ?? NaN));
      assert.deepEqual(profile.profile.metrics['medianHomeValue']?.change, {
        from: { asOf: '2015-2019', value: then, marginOfError: thenMargin, dollarYear: 2019 },
        value: now - then,
        marginOfError: margin,
        percent: round1(((now - then) / then) * 100),
        significant: Math.abs(now - then) > Math.hypot(nowMargin ?? NaN, thenMargin ?? NaN),
        dollars: 'nominal',
      });
      assert.equal(profile.profile.metrics['medianHomeValue']?.dollarYear, 2024);
    });
  }

  test("each market's series holds the 2015-2019 home value of the market and its state, with their margins", () => {
    const today = buildToday();
    for (const [marketId] of PUBLISHED) {
      const fips = MARKETS.find((m) => m.id === marketId)?.placeGeoid.state ?? '';
      const doc = JSON.parse(today.routes.get(`/api/markets/${marketId}/series`)?.identity.body.toString('utf8') ?? '{}') as MarketSeries;
      const metric = doc.metrics['medianHomeValue'] ?? assert.fail(`${marketId} has no home value series`);
      const of = (o: { period: string; value: number; marginOfError?: number }) => [o.period, o.value, o.marginOfError];
      assert.deepEqual(of(metric.observations[0] ?? assert.fail()), ['2015-2019', ...(VALUE_2019[marketId] ?? [])], marketId);
      const state = metric.comparisons?.find((c) => c.geography.level === 'state') ?? assert.fail(`${marketId}: no state series`);
      assert.deepEqual(of(state.observations[0] ?? assert.fail()), ['2015-2019', ...(VALUE_2019[fips] ?? [])], marketId);
    }
  });

  test("San Francisco's owner costs: the API's 4001 served as the Census Bureau's \"4,000+\", and the scores that read it as their bounds", () => {
    const sf = byId.get('us-ca-san-francisco') ?? assert.fail();
    assert.deepEqual(sf.profile.metrics['medianOwnerCostsWithMortgage']?.qualifier, { kind: 'open-ended', publishedAs: '4,000+', edge: 4000, bound: 'lower' });
    // Owner costs of 4,000 a month or more: owner affordability at most 11 (0 with costs unbounded), and the two scores that combine it.
    assert.deepEqual(sf.profile.scoreBounds, {
      ownerAffordability: { bound: 'upper', low: 0, high: 11, metrics: ['medianOwnerCostsWithMortgage'] },
      affordability: { bound: 'upper', low: 30, high: 35, metrics: ['medianOwnerCostsWithMortgage'] },
      overall: { bound: 'upper', low: 26, high: 29, metrics: ['medianOwnerCostsWithMortgage'] },
    });
    for (const p of profiles) if (p.market.id !== sf.market.id) assert.equal(p.profile.scoreBounds, undefined, p.market.id);
  });

  test("each fixture README has the value's row: market, metric, value, margin, published or computed, and where it was read", () => {
    for (const [marketId, row, acsFile] of PUBLISHED) {
      const want = expected(row);
      for (const metricId of ACS_METRICS)
        assert.match(
          README['census-acs-5yr'] ?? '',
          readmeRow(
            marketId,
            metricId,
            [want[metricId]?.value ?? '', want[metricId]?.marginOfError ?? '—', SHARES.includes(metricId) ? 'computed' : 'published'],
            `location-news/${acsFile}`,
          ),
          `${marketId} ${metricId}`,
        );
      assert.match(README['census-bps'] ?? '', readmeRow(marketId, 'permits', [row.permits, '—', 'published']));
      assert.match(README['fhfa-hpi'] ?? '', readmeRow(marketId, 'homePriceIndex', [row.hpi[0], '—', 'published']));
      assert.match(README['fhfa-hpi'] ?? '', readmeRow(marketId, 'homePriceChange', [want['homePriceChange']?.value ?? '', '—', 'computed']));
    }
    for (const [fips, state] of Object.entries(STATES)) {
      const want = acs(state);
      for (const metricId of ACS_METRICS)
        assert.match(
          README['census-acs-5yr'] ?? '',
          readmeRow(
            `${fips} ${state.name}`,
            metricId,
            [want[metricId]?.value ?? '', want[metricId]?.marginOfError ?? '—', SHARES.includes(metricId) ? 'computed' : 'published'],
            'location-news/',
          ),
          `${state.name} ${metricId}`,
        );
    }
  });

  test('160 values, none illustrative, and no score listed as illustrative', () => {
    const values = profiles.flatMap((p) => Object.values(p.profile.metrics));
    assert.equal(values.length, 160);
    assert.equal(values.filter((m) => m.illustrative === true).length, 0);
    for (const p of profiles) {
      assert.equal(p.profile.illustrativeScores, undefined, p.market.id);
      assert.equal(Object.keys(p.profile.scores).length, 5, `${p.market.id}: every score computed`);
    }
  });

  test('every source claims "high" confidence: all its values are published', () => {
    for (const p of profiles as MarketProfile[]) {
      assert.deepEqual(
        p.sources.map((s) => [s.sourceId, s.confidence]),
        [
          ['census-acs-5yr', 'high'],
          ['census-bps', 'high'],
          ['fhfa-hpi', 'high'],
        ],
        p.market.id,
      );
    }
  });
});
