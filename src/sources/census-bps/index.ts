// The Census Building Permits Survey as a source: the four regional annual place files, its one metric, attribution and terms.
import type { MarketDefinition } from '../../contract/markets.ts';
import { loadedSource, readRetrieval } from '../parse.ts';
import { defineSource, type ReadFixture, type SourceLoad } from '../source.ts';
import { fileSurvey, readPlaceFiles } from './adapter.ts';
import { METRICS, type BpsMetric } from './metrics.ts';
import { DIR, FILES, REMOTE, SOURCE_ID, fileOf } from './format.ts';

export const censusBps = defineSource({
  sourceId: SOURCE_ID,
  // The first year of the annual place files the Census Bureau publishes.
  firstPeriod: '1980',
  metrics: METRICS,
  attribution: {
    sourceName: 'Building Permits Survey',
    agency: 'U.S. Census Bureau',
    sourceUrl: 'https://www.census.gov/construction/bps/',
    confidence: 'high',
    updateFrequency: 'annually',
    provenance: 'fixture',
  },
  licence: {
    id: 'other-pd',
    terms: 'Census Bureau data are in the public domain and may be reused freely; cite them as "U.S. Census Bureau, Building Permits Survey".',
  },
  files: [...FILES, `${DIR}/retrieval.json`],
  remote: REMOTE,
  origins: ['https://www2.census.gov', 'https://www.census.gov'],
  vintageOf: (read: ReadFixture) => fileSurvey(read(fileOf('ne')), fileOf('ne')),
  load(read: ReadFixture, markets: readonly MarketDefinition[]): SourceLoad<BpsMetric> {
    const retrieval = readRetrieval(read, DIR);
    const { survey: _survey, ...values } = readPlaceFiles(read, markets);
    const datasetName = `Building Permits Survey, annual place files, new privately-owned housing units authorized (${retrieval.vintage})`;
    return loadedSource(censusBps, datasetName, retrieval, { ...values, series: [] });
  },
});
