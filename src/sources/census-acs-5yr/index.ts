// The Census ACS 5-year estimates as a source: the Data API's answers for every place and every state, its metrics (metrics.ts), attribution, terms and API key.
import type { MarketDefinition } from '../../contract/markets.ts';
import { loadedSource, readRetrieval } from '../parse.ts';
import type { ReadFixture, SourceLoad, SourceModule } from '../source.ts';
import { estimatesOf, readPlaceAnswers } from './adapter.ts';
import { DIR, SOURCE_ID, VINTAGE, queriesFor, remoteOf, tablesOf, type Estimate, type Queries } from './format.ts';
import { ACS_METRICS, type AcsMetricSpec, type Reading } from './metrics.ts';

/** The queries of a set of ACS metrics (by id): they ask for the variables those metrics read, and nothing else. */
export function acsQueries(metricIds: readonly string[]): Queries {
  const readings = ACS_METRICS.flatMap((m) => (m.reading === undefined || !metricIds.includes(m.id) ? [] : [m.reading]));
  const estimates = (of: readonly Reading[]): Estimate[] => of.flatMap(estimatesOf);
  return queriesFor(estimates(readings), estimates(readings.filter((r) => r.nation === true)), estimates(readings.filter((r) => r.earlier === true)));
}

/** The source reading these of its metrics. */
const acsSource = <M extends string>(metrics: readonly AcsMetricSpec<M>[]): SourceModule<typeof SOURCE_ID, M> => {
  const queries = acsQueries(metrics.map((m) => m.id));
  const remote = remoteOf(queries);
  const module: SourceModule<typeof SOURCE_ID, M> = {
    sourceId: SOURCE_ID,
    // The first 5-year estimates the Census Bureau released.
    firstPeriod: '2005-2009',
    metrics,
    attribution: {
      sourceName: 'American Community Survey 5-year estimates',
      agency: 'U.S. Census Bureau',
      sourceUrl: 'https://www.census.gov/programs-surveys/acs',
      confidence: 'high',
      updateFrequency: 'annually',
      provenance: 'fixture',
    },
    licence: {
      id: 'other-pd',
      terms:
        'Census Bureau data are in the public domain (works of the U.S. Government are not copyrighted) and may be reused freely; cite them as "U.S. Census Bureau, American Community Survey 5-Year Estimates". This product is not endorsed or certified by the Census Bureau.',
    },
    downloadNotice: 'This product uses the Census Bureau Data API but is not endorsed or certified by the Census Bureau.',
    files: [...remote.map((r) => r.file), `${DIR}/retrieval.json`],
    remote,
    origins: ['https://api.census.gov'],
    credential: {
      env: 'CENSUS_API_KEY',
      query: 'key',
      help: 'Census Data API key, sent with the ACS requests; never written to a file or a message.',
      signup: 'a key is free at https://api.census.gov/data/key_signup.html',
    },
    /** The API's answer carries no vintage of its own: it is the one the queries ask for. */
    vintageOf: () => VINTAGE,
    load(read: ReadFixture, markets: readonly MarketDefinition[]): SourceLoad<M> {
      const retrieval = readRetrieval(read, DIR);
      const values = readPlaceAnswers(read, markets, retrieval.vintage, metrics, queries);
      return loadedSource(module, tablesOf(queries, retrieval.vintage), retrieval, values);
    },
    forMetrics: (chosen) => acsSource(metrics.filter((m) => chosen.some((c) => c.id === m.id))),
  };
  return module;
};

export const censusAcs5yr = acsSource(ACS_METRICS);
