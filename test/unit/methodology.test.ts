// Methodology v3.0: each formula and threshold on hand-computed examples, scores omitted when an input is missing, face validity on the fixtures, freshness and coverage.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Source as SourceRecord } from '../../src/contract/schemas.ts';
import { isOverdue, nextExpectedRelease, sourceFreshness, worstFreshness } from '../../src/methodology/freshness.ts';
import { computeCoverage } from '../../src/methodology/metrics.ts';
import {
  SCORE_KEYS,
  THRESHOLDS,
  THRESHOLD_BASIS,
  WEIGHTS,
  boundedScores,
  computeScores,
  scale,
  scoreDependencies,
  scoreInputs,
  workScores,
} from '../../src/methodology/scores.ts';
import { METHODOLOGY_CHANGES, METHODOLOGY_VERSION } from '../../src/methodology/version.ts';
import { servedProfiles, buildTable } from '../support/data.ts';
import { WORLD_METRICS } from '../world/world.ts';

/**
 * A market worked by hand:
 * - rent to income 1250 × 12 / 75000 = 20 % → (20 − 30) / (15 − 30) = 66.7; renter affordability 67.
 * - price to income 320000 / 75000 = 4.27 → (4.27 − 7) / (3 − 7) = 68.3; owner costs to income 1875 × 12 / 75000 = 30 %
 *   → (30 − 45) / (15 − 45) = 50; owner affordability 0.7 × 68.3 + 0.3 × 50 = 62.8 → 63.
 * - affordability 0.5 × 67 + 0.5 × 63 = 65.
 * - permits per 1,000 homes 6000 / 400000 × 1000 = 15 → (15 − 2) / (20 − 2) = 72.2…; vacancy 9 % → (9 − 5) / (15 − 5) = 40;
 *   supply 0.7 × 72.2… + 0.3 × 40 = 62.6 → 63.
 * - overall 0.5 × 65 + 0.5 × 63 = 64.
 */
const complete = {
  medianGrossRent: 1250,
  medianHouseholdIncome: 75000,
  medianHomeValue: 320000,
  medianOwnerCostsWithMortgage: 1875,
  permits: 6000,
  housingUnits: 400000,
  vacancyRate: 9,
};
const WORKED = { renterAffordability: 67, ownerAffordability: 63, affordability: 65, supply: 63, overall: 64 };

describe('scale', () => {
  test('is linear between the thresholds and clamped outside, whichever way the thresholds run', () => {
    assert.equal(scale(22.5, THRESHOLDS.rentToIncome), 50);
    assert.equal(scale(15, THRESHOLDS.rentToIncome), 100);
    assert.equal(scale(10, THRESHOLDS.rentToIncome), 100);
    assert.equal(scale(35, THRESHOLDS.rentToIncome), 0);
    assert.equal(scale(11, THRESHOLDS.permitsPerThousand), 50);
    assert.equal(scale(1, THRESHOLDS.permitsPerThousand), 0);
    assert.equal(scale(5, THRESHOLDS.priceToIncome), 50);
    assert.equal(scale(9.6, THRESHOLDS.priceToIncome), 0);
    assert.equal(scale(2.5, THRESHOLDS.priceToIncome), 100);
  });
});

describe('thresholds are fixed numbers, each with what it rests on', () => {
  test('the numbers', () => {
    assert.deepEqual(THRESHOLDS, {
      rentToIncome: { zeroAt: 30, fullAt: 15 },
      ownerCostsToIncome: { zeroAt: 45, fullAt: 15 },
      priceToIncome: { zeroAt: 7, fullAt: 3 },
      permitsPerThousand: { zeroAt: 2, fullAt: 20 },
      vacancyRate: { zeroAt: 5, fullAt: 15 },
    });
  });
  test("the lines the bases name: the median rent at 30 % of the median income scores 0, at 24 % (HUD's low-income line) 40; owners at 30 %, a median multiple of 5 and a tenth of homes vacant score 50", () => {
    assert.equal(scale(30, THRESHOLDS.rentToIncome), 0);
    assert.equal(Math.round(scale(24, THRESHOLDS.rentToIncome)), 40);
    assert.equal(scale(30, THRESHOLDS.ownerCostsToIncome), 50);
    assert.equal(scale(5, THRESHOLDS.priceToIncome), 50);
    assert.equal(scale(10, THRESHOLDS.vacancyRate), 50);
  });
  test('each basis names both of its thresholds and the convention it rests on', () => {
    const conventions: Record<keyof typeof THRESHOLDS, RegExp> = {
      rentToIncome: /HUD's income limits/,
      ownerCostsToIncome: /30 % cost-burden line/,
      priceToIncome: /Demographia/,
      permitsPerThousand: /national pace/,
      vacancyRate: /decennial census/,
    };
    for (const [key, t] of Object.entries(THRESHOLDS) as [keyof typeof THRESHOLDS, { zeroAt: number; fullAt: number }][]) {
      const basis = THRESHOLD_BASIS[key];
      for (const n of [t.zeroAt, t.fullAt]) assert.match(basis, new RegExp(`(^|[^\\d.])${n}(\\.0)?( %| per|\\b)`), `${key}: ${n}`);
      assert.match(basis, conventions[key], key);
    }
  });
});

describe('scores', () => {
  test('follow the documented formulas (worked by hand above)', () => {
    assert.deepEqual(computeScores(complete), WORKED);
  });
  test('the derived inputs: rent and owner costs to income in %, the median multiple, permits per 1,000 homes', () => {
    const inputs = scoreInputs(complete);
    assert.deepEqual(Object.keys(inputs), ['rentToIncome', 'ownerCostsToIncome', 'priceToIncome', 'permitsPerThousand']);
    const near = (a: number | undefined, b: number): void => assert.ok(a !== undefined && Math.abs(a - b) < 1e-9, `${a} is not ${b}`);
    near(inputs.rentToIncome, 20);
    near(inputs.ownerCostsToIncome, 30);
    near(inputs.priceToIncome, 320000 / 75000);
    near(inputs.permitsPerThousand, 15);
  });
  test('a derived input exists only when both its metrics are finite and its denominator positive: no NaN, no Infinity', () => {
    assert.deepEqual(scoreInputs({}), {});
    assert.deepEqual(scoreInputs({ medianGrossRent: 1000 }), {});
    assert.deepEqual(scoreInputs({ medianHouseholdIncome: 60000, housingUnits: 1000 }), {});
    assert.deepEqual(
      scoreInputs({ medianGrossRent: 1000, medianOwnerCostsWithMortgage: 1, medianHomeValue: 1, medianHouseholdIncome: -5, permits: 3, housingUnits: 0 }),
      {},
    );
    assert.deepEqual(scoreInputs({ medianGrossRent: Number.NaN, medianHomeValue: Number.POSITIVE_INFINITY, medianHouseholdIncome: 1 }), {});
    assert.deepEqual(scoreInputs({ medianGrossRent: 1, medianHouseholdIncome: Number.POSITIVE_INFINITY }), {});
    assert.deepEqual(scoreInputs({ permits: 0, housingUnits: 1000 }), { permitsPerThousand: 0 });
  });
  test('every score key, parts before the scores that combine them', () => {
    assert.deepEqual(SCORE_KEYS, ['renterAffordability', 'ownerAffordability', 'affordability', 'supply', 'overall']);
    for (const key of SCORE_KEYS) {
      const sum = Object.values(WEIGHTS[key] as Record<string, number>).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-12, `${key} weights sum to ${sum}`);
    }
  });
  test('are integers from 0 to 100 at the extremes', () => {
    const best = computeScores({ ...complete, medianGrossRent: 100, medianHomeValue: 1000, medianOwnerCostsWithMortgage: 10, permits: 1e6, vacancyRate: 50 });
    assert.deepEqual(best, { renterAffordability: 100, ownerAffordability: 100, affordability: 100, supply: 100, overall: 100 });
    const worst = computeScores({ ...complete, medianGrossRent: 1e6, medianHomeValue: 1e9, medianOwnerCostsWithMortgage: 1e6, permits: 0, vacancyRate: 0 });
    assert.deepEqual(worst, { renterAffordability: 0, ownerAffordability: 0, affordability: 0, supply: 0, overall: 0 });
  });
  test('a half rounds up: owner affordability 0.7 × 75 + 0.3 × 50 = 67.5 → 68', () => {
    // price 300000 / 75000 = 4 → 75; owner costs 30 % → 50: 0.7 × 75 + 0.3 × 50 = 67.5 → 68.
    assert.equal(computeScores({ ...complete, medianHomeValue: 300000 }).ownerAffordability, 68);
    // owner costs 1950 × 12 / 75000 = 31.2 % → 46: 0.7 × 75 + 0.3 × 46 = 66.3 → 66.
    assert.equal(computeScores({ ...complete, medianHomeValue: 300000, medianOwnerCostsWithMortgage: 1950 }).ownerAffordability, 66);
  });
  test('affordability and overall combine the published integer parts, so a reader can redo them', () => {
    const s = computeScores(complete);
    assert.equal(s.affordability, Math.round(0.5 * (s.renterAffordability ?? NaN) + 0.5 * (s.ownerAffordability ?? NaN)));
    assert.equal(s.overall, Math.round(0.5 * (s.affordability ?? NaN) + 0.5 * (s.supply ?? NaN)));
  });

  /** Each input missing on one side only: which scores survive, by hand. */
  const without = (key: keyof typeof complete, value?: number): Record<string, number> => ({ ...complete, [key]: value }) as Record<string, number>;
  const cases: [string, Record<string, number | undefined>, Record<string, number>][] = [
    ['rent missing', without('medianGrossRent'), { ownerAffordability: 63, supply: 63 }],
    ['household income missing: both affordability parts need it', without('medianHouseholdIncome'), { supply: 63 }],
    ['household income 0 (no division by zero)', without('medianHouseholdIncome', 0), { supply: 63 }],
    ['home value missing', without('medianHomeValue'), { renterAffordability: 67, supply: 63 }],
    ['owner costs missing', without('medianOwnerCostsWithMortgage'), { renterAffordability: 67, supply: 63 }],
    ['permits missing', without('permits'), { renterAffordability: 67, ownerAffordability: 63, affordability: 65 }],
    ['housing units 0', without('housingUnits', 0), { renterAffordability: 67, ownerAffordability: 63, affordability: 65 }],
    ['vacancy missing', without('vacancyRate'), { renterAffordability: 67, ownerAffordability: 63, affordability: 65 }],
    ['a value that is not a number (NaN)', without('medianOwnerCostsWithMortgage', Number.NaN), { renterAffordability: 67, supply: 63 }],
    ['an infinite value', without('medianHomeValue', Number.POSITIVE_INFINITY), { renterAffordability: 67, supply: 63 }],
    ['nothing at all', {}, {}],
  ];
  for (const [name, values, expected] of cases) {
    test(`${name}: the scores that need it are omitted, never 0, never NaN or null`, () => {
      const scores = computeScores(values);
      assert.deepEqual(scores, expected);
      for (const v of Object.values(scores)) assert.ok(Number.isInteger(v) && v >= 0 && v <= 100, 'Number.isInteger(v) && v >= 0 && v <= 100');
    });
  }
});

describe('scores that read an open-ended figure', () => {
  // San Francisco's published figures: rent 2,476, income 140,970, home value 1,394,500, owner costs "4,000+" (written 4001).
  const sf = { medianGrossRent: 2476, medianHouseholdIncome: 140970, medianHomeValue: 1394500, medianOwnerCostsWithMortgage: 4001 };
  const fourThousandPlus = { kind: 'open-ended', publishedAs: '4,000+', edge: 4000, bound: 'lower' } as const;
  test('are computed with the figure at its edge and served as the bound that is, with the range the true figure allows', () => {
    const { scores, bounds } = boundedScores(sf, new Map([['medianOwnerCostsWithMortgage', fourThousandPlus]]));
    // Owner costs of 4,000 a month over 140,970 a year: 34.05 %, scaled (45 − 34.05) / 30 = 36.5; the median multiple 9.9 scores 0;
    // 0.7 × 0 + 0.3 × 36.5 = 10.95, 11. With costs unbounded the costs term is 0, so the score is 0 to 11.
    assert.equal(scores.ownerAffordability, 11);
    assert.deepEqual(bounds.ownerAffordability, { bound: 'upper', low: 0, high: 11, metrics: ['medianOwnerCostsWithMortgage'] });
    // Rent alone makes renter affordability: the open figure cannot move it.
    assert.equal(bounds.renterAffordability, undefined);
    assert.equal(bounds.affordability?.low, Math.round(0.5 * (scores.renterAffordability ?? NaN)));
  });
  test('without an open-ended input every score is exact, as computeScores gives it', () => {
    const { scores, bounds } = boundedScores(sf, new Map());
    assert.deepEqual(scores, computeScores(sf));
    assert.deepEqual(bounds, {});
  });
});

describe('what each score reads', () => {
  test("each score's metrics: a ratio's two, a metric itself, and those of the scores it combines, in the methodology's order", () => {
    const affordability = ['medianGrossRent', 'medianHouseholdIncome', 'medianHomeValue', 'medianOwnerCostsWithMortgage'];
    const supply = ['vacancyRate', 'housingUnits', 'permits'];
    assert.deepEqual(scoreDependencies(), {
      renterAffordability: ['medianGrossRent', 'medianHouseholdIncome'],
      ownerAffordability: ['medianHouseholdIncome', 'medianHomeValue', 'medianOwnerCostsWithMortgage'],
      affordability,
      supply,
      overall: [...affordability, ...supply],
    });
  });
  test('the worked terms: thresholded inputs for the first scores, scores for those that combine them', () => {
    const terms = Object.fromEntries(workScores(complete).map((w) => [w.key, w.terms.map((t) => `${t.kind} ${t.key} ${t.weight}`)]));
    assert.deepEqual(terms, {
      renterAffordability: ['threshold rentToIncome 1'],
      ownerAffordability: ['threshold priceToIncome 0.7', 'threshold ownerCostsToIncome 0.3'],
      affordability: ['score renterAffordability 0.5', 'score ownerAffordability 0.5'],
      supply: ['threshold permitsPerThousand 0.7', 'threshold vacancyRate 0.3'],
      overall: ['score affordability 0.5', 'score supply 0.5'],
    });
  });
});

describe('face validity on the fixture data', () => {
  const profiles = servedProfiles(buildTable());
  const affordability = (id: string): number =>
    profiles.find((p) => p.market.id === id)?.profile.scores.affordability ?? assert.fail(`${id} has no affordability`);
  // A housing analyst expects the coastal cities where a home costs nine to eleven years of income to come out less
  // affordable than the Sun Belt and Midwest cities at four to five years.
  for (const costly of ['us-ca-san-francisco', 'us-ca-los-angeles', 'us-ny-new-york']) {
    for (const cheaper of ['us-az-phoenix', 'us-tx-dallas', 'us-il-chicago']) {
      test(`${costly} is less affordable than ${cheaper}`, () => {
        assert.ok(affordability(costly) < affordability(cheaper), `${costly} ${affordability(costly)} vs ${cheaper} ${affordability(cheaper)}`);
      });
    }
  }
  test('San Francisco is not among the most affordable: a high household income does not hide a home at ten years of income', () => {
    const sf = profiles.find((p) => p.market.id === 'us-ca-san-francisco')?.profile.scores;
    assert.ok((sf?.ownerAffordability ?? 100) < 25 && (sf?.affordability ?? 100) < 50, JSON.stringify(sf));
  });
});

describe('versions', () => {
  test('v3.1 is in service and the changelog says what changed and why, newest first, one point each', () => {
    assert.equal(METHODOLOGY_VERSION, 'v3.1');
    const points: Record<string, RegExp[]> = {
      'v3.1': [/"4,000\+".*scoreBounds/, /nation's.*80,734 ± 166/, /2015-2019.*nominal/, /Housing units.*no significance verdict/],
      'v3.0': [
        /no agency published/,
        /B25088.*B25003 and B25002.*B25002 and B25001/,
        /HUD's reading of the 30 % line/,
        /median multiple \(weight 0\.7/,
        /vacancy rate \(0\.3\)/,
        /comparisons/,
      ],
      'v2.0': [
        /renterAffordability and ownerAffordability/,
        /B25077.*B25119.*B25091/,
        /renter households' median income \(B25119\)/,
        /median multiple/,
        /Price momentum/,
        /fixed number/,
      ],
      'v1.1': [/sum of its five borough rows/, /four regional annual place files/],
      'v1.0': [/First methodology/],
    };
    assert.deepEqual(
      METHODOLOGY_CHANGES.map((c) => c.version),
      Object.keys(points),
    );
    for (const { version, changes } of METHODOLOGY_CHANGES) {
      const expected = points[version] ?? [];
      assert.equal(changes.length, expected.length, version);
      changes.forEach((change, i) => assert.match(change, expected[i] ?? /^$/, `${version} point ${i + 1}`));
    }
  });
});

describe('the metric set', () => {
  test('ids, labels, units, decimals, sources and the nouns sentences use: what the JSON, the CSV and the pages carry', () => {
    assert.deepEqual(
      WORLD_METRICS.map((m) => [m.id, m.label, m.unit, m.decimals, m.sourceId, m.noun]),
      [
        ['medianGrossRent', 'Median gross rent', 'USD/mo', 0, 'census-acs-5yr', 'median gross rent'],
        ['medianHouseholdIncome', 'Median household income', 'USD/yr', 0, 'census-acs-5yr', 'median household income'],
        ['medianHomeValue', 'Median home value, owner-occupied', 'USD', 0, 'census-acs-5yr', 'median home value'],
        [
          'medianOwnerCostsWithMortgage',
          'Median monthly owner costs, homes with a mortgage',
          'USD/mo',
          0,
          'census-acs-5yr',
          'median owner costs with a mortgage',
        ],
        ['homeownershipRate', 'Homeownership rate, owner-occupied share of occupied homes', '%', 1, 'census-acs-5yr', 'homeownership rate'],
        ['vacancyRate', 'Vacant homes, share of all housing units', '%', 1, 'census-acs-5yr', 'vacancy rate'],
        ['housingUnits', 'Housing units, total', 'units', 0, 'census-acs-5yr', 'housing units'],
        ['homePriceIndex', 'House price index, all transactions, 1995 Q1 = 100', 'index', 2, 'fhfa-hpi', 'the house price index'],
        ['homePriceChange', 'House price change, year over year', '%', 1, 'fhfa-hpi', 'the year-over-year house price change'],
        ['permits', 'Building permits, new housing units authorized', 'units', 0, 'census-bps', 'building permits'],
      ],
    );
  });
  test('each definition names the table it is read from', () => {
    const table: Record<string, RegExp> = {
      medianGrossRent: /B25064/,
      medianHouseholdIncome: /B19013/,
      medianHomeValue: /B25077/,
      medianOwnerCostsWithMortgage: /B25088, row 2/,
      homeownershipRate: /B25003 row 2 over table B25002 row 2/,
      vacancyRate: /B25002 row 3 over table B25001/,
      housingUnits: /B25001/,
      homePriceIndex: /FHFA all-transactions house price index/,
      homePriceChange: /a year earlier/,
      permits: /BPS annual place files/,
    };
    for (const m of WORLD_METRICS) assert.match(m.definition, table[m.id] ?? /^$/, m.id);
  });
});

describe('freshness', () => {
  const source = (updateFrequency: SourceRecord['updateFrequency'], latestReleaseDate?: string): SourceRecord => ({
    sourceId: 's',
    sourceName: 's',
    agency: 'a',
    datasetName: 'd',
    sourceUrl: 'https://x',
    confidence: 'high',
    updateFrequency,
    provenance: 'fixture',
    ...(latestReleaseDate === undefined ? {} : { latestReleaseDate }),
  });
  test('fresh within one expected interval, aging within two, stale beyond or when unknown', () => {
    assert.equal(sourceFreshness(source('quarterly', '2026-07-01'), '2026-09-28'), 'fresh');
    assert.equal(sourceFreshness(source('quarterly', '2026-05-01'), '2026-09-28'), 'aging');
    assert.equal(sourceFreshness(source('quarterly', '2025-12-01'), '2026-09-28'), 'stale');
    assert.equal(sourceFreshness(source('annually', '2025-09-28'), '2026-09-28'), 'fresh');
    assert.equal(sourceFreshness(source('annually', '2024-10-28'), '2026-09-28'), 'aging');
    assert.equal(sourceFreshness(source('annually'), '2026-09-28'), 'stale');
  });
  test('at the edges, with literal dates against the snapshot of 2026-05-20', () => {
    const at = (frequency: SourceRecord['updateFrequency'], release: string): string => sourceFreshness(source(frequency, release), '2026-05-20');
    // monthly: 31 days (2026-04-19) fresh, 32 aging, 62 (2026-03-19) aging, 63 stale
    assert.deepEqual(
      ['2026-04-19', '2026-04-18', '2026-03-19', '2026-03-18'].map((d) => at('monthly', d)),
      ['fresh', 'aging', 'aging', 'stale'],
    );
    // quarterly: 92 days (2026-02-17) fresh, 93 aging, 184 (2025-11-17) aging, 185 stale
    assert.deepEqual(
      ['2026-02-17', '2026-02-16', '2025-11-17', '2025-11-16'].map((d) => at('quarterly', d)),
      ['fresh', 'aging', 'aging', 'stale'],
    );
    // annually: 366 days (2025-05-19) fresh, 367 aging, 732 (2024-05-18) aging, 733 stale
    assert.deepEqual(
      ['2025-05-19', '2025-05-18', '2024-05-18', '2024-05-17'].map((d) => at('annually', d)),
      ['fresh', 'aging', 'aging', 'stale'],
    );
    // A release dated after the snapshot is fresh (age below zero).
    assert.equal(at('quarterly', '2026-06-01'), 'fresh');
  });
  test('the next release is due one update interval after the latest, on the last day of a shorter month', () => {
    const next = (frequency: SourceRecord['updateFrequency'], release?: string): string | undefined => nextExpectedRelease(source(frequency, release));
    assert.equal(next('monthly', '2026-03-15'), '2026-04-15');
    assert.equal(next('monthly', '2026-12-15'), '2027-01-15', 'into the next year');
    assert.equal(next('monthly', '2026-01-31'), '2026-02-28', 'no 31 February: its last day');
    assert.equal(next('monthly', '2024-01-31'), '2024-02-29', 'a leap year');
    assert.equal(next('monthly', '2026-03-31'), '2026-04-30');
    assert.equal(next('quarterly', '2026-02-25'), '2026-05-25');
    assert.equal(next('quarterly', '2026-11-30'), '2027-02-28', 'into the next year, on its last day');
    assert.equal(next('quarterly', '2026-10-01'), '2027-01-01');
    assert.equal(next('annually', '2025-05-01'), '2026-05-01');
    assert.equal(next('annually', '2024-02-29'), '2025-02-28', 'from a leap day');
    assert.equal(next('annually'), undefined, 'no release date, no next one');
  });
  test('overdue when the next release was due before the snapshot date, not on it', () => {
    const quarterly = source('quarterly', '2026-02-25'); // next due 2026-05-25
    assert.equal(isOverdue(quarterly, '2026-05-24'), false);
    assert.equal(isOverdue(quarterly, '2026-05-25'), false, 'due on the snapshot date itself');
    assert.equal(isOverdue(quarterly, '2026-05-26'), true);
    assert.equal(isOverdue(source('annually', '2025-05-01'), '2026-11-24'), true, "BPS's 2024 files at the fixtures' snapshot");
    assert.equal(isOverdue(source('annually'), '2026-11-24'), false, 'an unknown release is never overdue');
  });
  test('a profile is as fresh as its least fresh source', () => {
    assert.equal(worstFreshness(['fresh', 'aging', 'fresh']), 'aging');
    assert.equal(worstFreshness(['fresh', 'stale', 'aging']), 'stale');
    assert.equal(worstFreshness([]), 'fresh');
  });
});

test('coverage counts the ten required metrics and lists the missing ones', () => {
  const all = new Set(WORLD_METRICS.map((m) => m.id));
  assert.deepEqual(computeCoverage(all), { totalRequired: 10, totalProvided: 10, percent: 100, missing: [] });
  all.delete('permits');
  all.delete('vacancyRate');
  assert.deepEqual(computeCoverage(all), { totalRequired: 10, totalProvided: 8, percent: 80, missing: ['vacancyRate', 'permits'] });
  assert.equal(computeCoverage(new Set(['permits'])).percent, 10);
});

test("the metric set covers the contract's metrics and units, what the owners' and renters' scores read, and labels that need CSV quoting", () => {
  const ids = WORLD_METRICS.map((m) => m.id);
  for (const id of [
    'medianGrossRent',
    'homePriceIndex',
    'permits',
    'medianHomeValue',
    'medianOwnerCostsWithMortgage',
    'homeownershipRate',
    'vacancyRate',
  ] as const)
    assert.ok(ids.includes(id), id);
  for (const unit of ['USD/mo', 'USD/yr', 'USD', '%', 'index', 'units'])
    assert.ok(
      WORLD_METRICS.some((m) => m.unit === unit),
      unit,
    );
  assert.ok(
    WORLD_METRICS.some((m) => m.label.includes(',')),
    "WORLD_METRICS.some((m) => m.label.includes(','))",
  );
  assert.ok(!WORLD_METRICS.some((m) => m.label.includes('"')), 'no literal quotes in a label: the CSV would double them');
});
