// The load's rules (src/sources/checks.ts) on the world's fixtures edited in memory: each refusal with its code and whole message, naming the file and line or the market and the rule.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadSources } from '../../src/sources/load.ts';
import type { SourceModule } from '../../src/sources/source.ts';
import { FIXTURE_FILES, fixtureReader } from '../support/data.ts';
import { assertFixtureError } from '../support/refused.ts';
import { WORLD_MARKETS, WORLD_SOURCES } from '../world/world.ts';

const FHFA = 'fhfa-hpi/hpi_at_metro.csv';
const PLACES = 'census-acs-5yr/acs5-2024-detailed-place.json';
const WEST = 'census-bps/we2024a.txt';

const load = (edits: Record<string, (text: string) => string>) => loadSources(fixtureReader(edits), WORLD_MARKETS, WORLD_SOURCES);
const lines = (text: string): string[] => text.split('\n');
/** The text without its line `n` (1-based). */
const withoutLine = (n: number) => (text: string) =>
  lines(text)
    .filter((_, i) => i !== n - 1)
    .join('\n');
const retrieval = (vintage: string, release: string, retrieved: string) => () =>
  JSON.stringify({ vintage, latestReleaseDate: release, latestRetrievedAt: retrieved });

describe('the load: every market has every metric each source must give it', () => {
  test("a market's row gone from the ACS answer is refused, naming the market, the metric and the file: not 7 metrics in coverage.missing", () => {
    assertFixtureError(
      () => load({ [PLACES]: withoutLine(287) }),
      'missing_row',
      `${PLACES}, column medianGrossRent, market us-tx-austin: the places answer has no row for state 48 place 05000 (Austin city, Texas): a market's value missing without the file saying so is refused, never published as missing`,
    );
  });
  test("a market's row gone from the BPS files is refused, naming the four files it was looked for in", () => {
    assertFixtureError(
      () => load({ [WEST]: withoutLine(7) }),
      'missing_row',
      "census-bps/ne2024a.txt, census-bps/mw2024a.txt, census-bps/so2024a.txt, census-bps/we2024a.txt, column permits, market us-az-phoenix: none of the four BPS place files has a row for state 04 place 55000 (Phoenix city, Arizona): a market's value missing without the file saying so is refused, never published as missing",
    );
  });
  test("a value the file says is absent (the Census API's annotation) is published as missing, not refused", () => {
    const loaded = load({ [PLACES]: (t) => t.replace('["Austin city, Texas","1729"', '["Austin city, Texas","-666666666"') });
    const acs = loaded.loads.find((l) => l.source.sourceId === 'census-acs-5yr');
    assert.deepEqual(
      acs?.missing.map((m) => [m.marketId, m.metricId, m.origin.line]),
      [['us-tx-austin', 'medianGrossRent', 287]],
    );
  });
});

describe('the load: one latest period per source, its vintage', () => {
  test("Denver's latest FHFA row deleted: refused, naming Denver's last line, its quarter and the vintage, not served a quarter behind", () => {
    assertFixtureError(
      () => load({ [FHFA]: withoutLine(2060) }),
      'out_of_range',
      `${FHFA}:2059, column homePriceIndex, market us-co-denver: homePriceIndex is as of 2026 Q1, but the source's vintage (retrieval.json) is 2026 Q2, as 15 other markets' homePriceIndex is: every market's latest period of a source is the same (its vintage, where written alike), so none is served an older one`,
    );
  });
  test("the FHFA file cut within Washington's series (the last series of a market): refused, naming Washington", () => {
    assertFixtureError(
      () => load({ [FHFA]: (t) => `${lines(t).slice(0, 6380).join('\n')}\n` }),
      'out_of_range',
      `${FHFA}:6380, column homePriceIndex, market us-dc-washington: homePriceIndex is as of 2024 Q4, but the source's vintage (retrieval.json) is 2026 Q2, as 15 other markets' homePriceIndex is: every market's latest period of a source is the same (its vintage, where written alike), so none is served an older one`,
    );
  });
  test("every market a period behind retrieval.json's vintage: refused at the first market", () => {
    assertFixtureError(
      () => load({ 'census-bps/retrieval.json': retrieval('2025', '2026-05-01', '2026-11-24') }),
      'out_of_range',
      `${WEST}:7, column permits, market us-az-phoenix: permits is as of 2024, but the source's vintage (retrieval.json) is 2025: every market's latest period of a source is the same (its vintage, where written alike), so none is served an older one`,
    );
  });
  test('a vintage written otherwise than the periods ("2024" beside "FY2024"): every market\'s latest is still the same, or refused', () => {
    const withPeriods = (asOf: (marketId: string) => string): SourceModule[] =>
      WORLD_SOURCES.map((s) =>
        s.sourceId !== 'census-bps'
          ? s
          : {
              ...s,
              load: (read, markets) => ({
                ...s.load(read, markets),
                observations: s.load(read, markets).observations.map((o) => ({ ...o, asOf: asOf(o.marketId) })),
              }),
            },
      );
    const bps = (sources: SourceModule[]) => loadSources(fixtureReader(), WORLD_MARKETS, sources).loads.find((l) => l.source.sourceId === 'census-bps');
    assert.equal(bps(withPeriods(() => 'FY2024'))?.observations[0]?.asOf, 'FY2024');
    // Written otherwise, the vintage is still a period: a year typed 99999 is refused, not served as a name.
    assertFixtureError(
      () =>
        loadSources(
          fixtureReader({ 'census-bps/retrieval.json': retrieval('99999', '2025-05-01', '2026-11-24') }),
          WORLD_MARKETS,
          withPeriods(() => 'FY2024'),
        ),
      'out_of_range',
      'census-bps/retrieval.json:1, at /vintage: the vintage "99999" is not a period (a year, a span of years, a quarter or a fiscal year)',
    );
    assertFixtureError(
      () => bps(withPeriods((id) => (id === 'us-tx-austin' ? 'FY2023' : 'FY2024'))),
      'out_of_range',
      "census-bps/so2024a.txt:59, column permits, market us-tx-austin: permits is as of FY2023, but the latest period of permits is FY2024, as 15 other markets' permits is: every market's latest period of a source is the same (its vintage, where written alike), so none is served an older one",
    );
  });
  test("Los Angeles' first row (1975 Q1, a value) deleted: its series would begin a quarter later than the others', refused", () => {
    const first = lines(FIXTURE_FILES.get(FHFA) ?? '').findIndex((l) => l.startsWith('"Los Angeles-Long Beach-Glendale, CA (MSAD)",31084,1975,1,')) + 1;
    assertFixtureError(
      () => load({ [FHFA]: withoutLine(first) }),
      'missing_row',
      /^fhfa-hpi\/hpi_at_metro\.csv:\d+, column homePriceIndex, market us-ca-los-angeles: the series of homePriceIndex begins in 1975 Q2, where the other markets' begin in 1975 Q1: the agency writes every series from one period on, so a row was lost$/,
    );
  });
  test("a row lost inside a market's series (Denver's 2000 Q1) is refused, not served as a gap", () => {
    assertFixtureError(
      () => load({ [FHFA]: withoutLine(1955) }),
      'missing_row',
      /^fhfa-hpi\/hpi_at_metro\.csv:2059, column homePriceIndex, market us-co-denver: the series of homePriceIndex has no row for 2000 Q1, though it runs from \d{4} Q\d to 2026 Q2: the agency writes every period of a series \(FHFA "-" where it has no value\), so a row was lost$/,
    );
  });
});

describe("the load: periods within the source's coverage, not after the retrieval date", () => {
  test('a vintage ending after the retrieval date is refused, at retrieval.json', () => {
    assertFixtureError(
      () => load({ 'census-acs-5yr/retrieval.json': retrieval('2020-2205', '2026-01-29', '2026-11-29') }),
      'out_of_range',
      'census-acs-5yr/retrieval.json:1, at /vintage: the vintage 2020-2205 ends on 2205-12-31, after the retrieval date: census-acs-5yr publishes 2005-2009 onwards, and these files were retrieved on 2026-11-29',
    );
  });
  test('a vintage beginning before the first the agency published is refused', () => {
    assertFixtureError(
      () => load({ 'census-acs-5yr/retrieval.json': retrieval('0999-1003', '2026-01-29', '2026-11-29') }),
      'out_of_range',
      'census-acs-5yr/retrieval.json:1, at /vintage: the vintage 0999-1003 begins before 2005-2009: census-acs-5yr publishes 2005-2009 onwards, and these files were retrieved on 2026-11-29',
    );
  });
  test('a vintage that is no period is refused, not an internal error later', () => {
    assertFixtureError(
      () => load({ 'census-acs-5yr/retrieval.json': retrieval('2020-20\u00a024', '2026-01-29', '2026-11-29') }),
      'bad_encoding',
      "census-acs-5yr/retrieval.json:1: the invisible character U+00A0 at column 20, which the agency's files do not have and a reader would not see; remove it",
    );
    assertFixtureError(
      () => load({ 'census-acs-5yr/retrieval.json': retrieval('latest', '2026-01-29', '2026-11-29') }),
      'out_of_range',
      'census-acs-5yr/retrieval.json:1, at /vintage: the vintage "latest" is not a period (a year, a span of years, a quarter or a fiscal year)',
    );
  });
  test('a year of 2205 in a market row is refused with its file and line', () => {
    assertFixtureError(
      () => load({ [FHFA]: (t) => t.replace('"Denver-Aurora-Centennial, CO",19740,2000,1,', '"Denver-Aurora-Centennial, CO",19740,2205,1,') }),
      'out_of_range',
      `${FHFA}:1955, column year: year "2205" is not a year from 1975 to 2026: FHFA's indexes begin in 1975, and these files were retrieved on 2026-11-29`,
    );
  });
});

describe('the load: numbers finite and in range, no invisible character taken as data', () => {
  test("a count past the metric's range is refused at the market's line", () => {
    assertFixtureError(
      () => load({ [WEST]: (t) => t.replace(/^(2024,04,257000,(?:[^,]*,){15})[^,]*/m, '$120000000') }),
      'out_of_range',
      /^census-bps\/we2024a\.txt:7, column permits, market us-az-phoenix: permits is 200\d{5}, outside the metric's range \(from 0 to 1000000 units\)$/,
    );
  });
  test('a U+FEFF before a row inside the file is refused with its line, whatever row it is', () => {
    assertFixtureError(
      () =>
        load({
          [FHFA]: (t) =>
            lines(t)
              .map((l, i) => (i === 1999 ? `\uFEFF${l}` : l))
              .join('\n'),
        }),
      'bad_encoding',
      `${FHFA}:2000: the invisible character U+FEFF at column 1, which the agency's files do not have and a reader would not see; remove it`,
    );
  });
  test('a zero-width space and a control character are refused the same way', () => {
    for (const [char, name] of [
      ['\u200B', 'U\\+200B'],
      ['\u0007', 'U\\+0007'],
    ]) {
      assertFixtureError(
        () => load({ [WEST]: (t) => t.replace('Phoenix', `Pho${char}enix`) }),
        'bad_encoding',
        new RegExp(`^census-bps/we2024a\\.txt:7: the invisible character ${name} at column \\d+, `),
      );
    }
  });
});
