// The one list of sources: the build, fetch, the pages and the descriptions reach every source through it, and nothing else names a source id.
import { censusAcs5yr } from './census-acs-5yr/index.ts';
import { censusBps } from './census-bps/index.ts';
import { fhfaHpi } from './fhfa-hpi/index.ts';
import type { SourceModule } from './source.ts';

const REGISTERED = [censusAcs5yr, fhfaHpi, censusBps] as const;

type Registered = (typeof REGISTERED)[number];
export type SourceId = Registered['sourceId'];
/** Every metric id any source provides: a misspelled one does not compile. */
export type MetricId = Registered['metrics'][number]['id'];

/** Every source, in the order the pages list their metrics. */
export const SOURCES: readonly SourceModule<SourceId, MetricId>[] = REGISTERED;
