// The FHFA House Price Index as a source: the metro and division all-transactions indexes of hpi_at_metro.csv beside the states' and the nation's of the master file, its metrics (metrics.ts), attribution and terms.
import type { MarketDefinition } from '../../contract/markets.ts';
import { loadedSource, readRetrieval } from '../parse.ts';
import { defineSource, type ReadFixture, type SourceLoad } from '../source.ts';
import { FIRST_YEAR, latestQuarterOf, quartersBySeries, readSeriesFile } from './adapter.ts';
import { METRICS, type FhfaMetric } from './metrics.ts';
import { DIR, FILE, MASTER, SOURCE_ID, URL_MASTER, URL_METRO } from './format.ts';
import { masterPeriodsBySeries } from './master.ts';

export const fhfaHpi = defineSource({
  sourceId: SOURCE_ID,
  firstPeriod: `${FIRST_YEAR} Q1`,
  metrics: METRICS,
  attribution: {
    sourceName: 'FHFA House Price Index',
    agency: 'Federal Housing Finance Agency',
    sourceUrl: 'https://www.fhfa.gov/data/hpi',
    confidence: 'high',
    updateFrequency: 'quarterly',
    provenance: 'fixture',
  },
  licence: {
    id: 'other-at',
    terms:
      'FHFA data are public information and free to use with attribution to the Federal Housing Finance Agency, for example "Source: FHFA House Price Index".',
  },
  files: [FILE, MASTER, `${DIR}/retrieval.json`],
  remote: [
    { file: FILE, url: URL_METRO },
    { file: MASTER, url: URL_MASTER },
  ],
  origins: ['https://www.fhfa.gov'],
  vintageOf: (read: ReadFixture) => latestQuarterOf(read(FILE)),
  seriesPeriods: (read: ReadFixture) => new Map([...quartersBySeries(read(FILE)), ...masterPeriodsBySeries(read(MASTER))]),
  load(read: ReadFixture, markets: readonly MarketDefinition[]): SourceLoad<FhfaMetric> {
    const retrieval = readRetrieval(read, DIR);
    const { kinds, through, ...values } = readSeriesFile(read(FILE), read(MASTER), markets, retrieval.latestRetrievedAt);
    const datasetName = `House Price Index, ${kinds}, state and US all-transactions indexes, quarterly, not seasonally adjusted (through ${through ?? retrieval.vintage})`;
    return loadedSource(fhfaHpi, datasetName, retrieval, { ...values, notes: [] });
  },
});
