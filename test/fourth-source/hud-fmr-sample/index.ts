// A test-only extra source, written as a source module is: a sample in the layout of HUD's Fair Market Rents by metro area, one metric.
// test/integration/fourth-source.test.ts copies it into a copy of src/, adds it to the registry and builds: it must reach
// every output with no other edit. It type-checks there, not here (its imports are relative to src/sources/hud-fmr-sample/).
// Its ids are its own, so the real HUD source can be registered beside it.
import { FixtureError } from '../../contract/errors.ts';
import type { MarketDefinition } from '../../contract/markets.ts';
import { eachLine, loadedSource, numeric, readRetrieval, splitCsvLine, text } from '../parse.ts';
import { defineSource, type MissingValue, type Observation, type ReadFixture, type SourceLoad } from '../source.ts';

const SOURCE_ID = 'hud-fmr-sample';
const FILE = `${SOURCE_ID}/fy2026-fmr-metro.csv`;
const HEADER = 'cbsa_code,area_name,fmr_2br';
type FmrMetric = 'sampleFairMarketRent';

/** One row per metro area: its CBSA code, HUD's name for the area, and the two-bedroom Fair Market Rent. */
function readRows(source: string): Map<string, { name: string; rent: number; line: number }> {
  const rows = new Map<string, { name: string; rent: number; line: number }>();
  eachLine(source, (raw, line) => {
    if (line === 1) {
      if (raw !== HEADER) throw new FixtureError('bad_shape', { file: FILE, line }, `expected the header "${HEADER}"`);
      return;
    }
    const place = { file: FILE, line };
    const [code = '', name, rent] = splitCsvLine(raw, place);
    rows.set(code.trim(), { name: text(name, place, 'area_name'), rent: numeric(rent, place, 'fmr_2br'), line });
  });
  return rows;
}

export const hudFmrSample = defineSource({
  sourceId: SOURCE_ID,
  metrics: [
    {
      id: 'sampleFairMarketRent',
      noun: 'the sample two-bedroom fair market rent',
      label: 'Sample fair market rent, two bedrooms',
      shortLabel: 'Sample fair market rent',
      unit: 'USD/mo',
      decimals: 0,
      required: false,
      definition: "HUD's Fair Market Rent for a two-bedroom unit in the metro area: the 40th percentile of gross rents of standard-quality units.",
      margin: 'None: HUD publishes Fair Market Rents without a margin of error.',
    },
  ],
  attribution: {
    sourceName: 'HUD Fair Market Rents (test sample)',
    agency: 'U.S. Department of Housing and Urban Development',
    sourceUrl: 'https://www.huduser.gov/portal/datasets/fmr.html',
    confidence: 'low',
    updateFrequency: 'annually',
    provenance: 'fixture',
  },
  licence: {
    id: 'other-pd',
    terms:
      'HUD data are works of the U.S. Government, in the public domain; cite them as "U.S. Department of Housing and Urban Development, Fair Market Rents".',
  },
  files: [FILE, `${SOURCE_ID}/retrieval.json`],
  remote: [{ file: FILE, url: 'https://www.huduser.gov/portal/datasets/fmr/fmr2026/fy2026-fmr-metro.csv' }],
  origins: ['https://www.huduser.gov'],
  load(read: ReadFixture, markets: readonly MarketDefinition[]): SourceLoad<FmrMetric> {
    const retrieval = readRetrieval(read, SOURCE_ID);
    const rows = readRows(read(FILE));
    const observations: Observation<FmrMetric>[] = [];
    const missing: MissingValue<FmrMetric>[] = [];
    for (const market of markets) {
      const row = rows.get(market.cbsaCode);
      if (row === undefined) {
        missing.push({ marketId: market.id, metricId: 'sampleFairMarketRent', reason: `no row for CBSA ${market.cbsaCode}`, origin: { file: FILE } });
        continue;
      }
      observations.push({
        marketId: market.id,
        metricId: 'sampleFairMarketRent',
        value: row.rent,
        asOf: `FY${retrieval.vintage}`,
        sourceId: SOURCE_ID,
        boundary: { level: 'cbsa', name: row.name, codes: { cbsa: market.cbsaCode }, states: market.cbsaStates },
        origin: { file: FILE, line: row.line },
      });
    }
    const datasetName = `Fair Market Rents, metro areas, FY${retrieval.vintage}`;
    return loadedSource(hudFmrSample, datasetName, retrieval, { observations, missing, skipped: rows.size - observations.length, series: [], notes: [] });
  },
});
