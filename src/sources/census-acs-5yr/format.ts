// The Census Data API's ACS 5-year answers this source reads: the queries, the files they are written to, and the annotation values, for the adapter and the generator.
import { listWords } from '../../contract/words.ts';
import type { RemoteFile } from '../source.ts';

/** The source's id, which names its fixtures folder too. */
export const SOURCE_ID = 'census-acs-5yr';
export const DIR = SOURCE_ID;
/** Every place of every state (`for=place:*&in=state:*`): the markets' rows. */
export const PLACES = `${DIR}/acs5-2024-detailed-place.json`;
/** Every state, DC and Puerto Rico (`for=state:*`): the figures each market's is compared with. */
export const STATES = `${DIR}/acs5-2024-detailed-state.json`;
/** The nation (`for=us:1`), for the estimates a public copy of its figure is held of. */
export const NATION = `${DIR}/acs5-2024-detailed-us.json`;
/** The places and states of the last 5-year period that does not overlap the current one, for the estimates compared over time. */
export const PLACES_EARLIER = `${DIR}/acs5-2019-detailed-place.json`;
export const STATES_EARLIER = `${DIR}/acs5-2019-detailed-state.json`;

/** The ACS year the queries ask for; a 5-year vintage is named by its five survey years. */
export const YEAR = 2024;
export const VINTAGE = `${YEAR - 4}-${YEAR}`;
/** The last year of the latest 5-year period that shares no year with the current one: 2015-2019 beside 2020-2024. */
export const EARLIER_YEAR = YEAR - 5;
export const EARLIER_VINTAGE = `${EARLIER_YEAR - 4}-${EARLIER_YEAR}`;
const api = (year: number): string => `https://api.census.gov/data/${year}/acs/acs5`;

/**
 * The estimates the current queries ask for, each a published detailed-table cell: median gross rent, median household
 * income, median home value, median owner costs of units with a mortgage, housing units, occupied and vacant units
 * (B25002) and owner-occupied units (B25003; its total is B25002's occupied units, so the renters' row is not asked for).
 */
export const ESTIMATES = ['B25064_001E', 'B19013_001E', 'B25077_001E', 'B25088_002E', 'B25001_001E', 'B25002_002E', 'B25002_003E', 'B25003_002E'] as const;

export type Estimate = (typeof ESTIMATES)[number];
/** The variable of an estimate's 90 % margin of error: B25064_001E's is B25064_001M. */
export type MarginOf<E extends string> = E extends `${infer Stem}E` ? `${Stem}M` : never;
export const marginOf = <E extends Estimate>(estimate: E): MarginOf<E> => `${estimate.slice(0, -1)}M` as MarginOf<E>;

/** Each estimate followed by its margin of error, in the order of `get=`, as an analyst asks for both. */
export const fieldsOf = (estimates: readonly Estimate[]): (Estimate | MarginOf<Estimate>)[] => estimates.flatMap((e) => [e, marginOf(e)]);
export const FIELDS = fieldsOf(ESTIMATES);

/** The geography columns an answer ends with: a place answer's, a state answer's, the nation's. */
export const PLACE_GEOGRAPHY = ['state', 'place'] as const;
export const STATE_GEOGRAPHY = ['state'] as const;
export const NATION_GEOGRAPHY = ['us'] as const;

/** An answer's header row: NAME, the requested variables in the order of `get=`, then the geography columns. */
export const answerHeader = (fields: readonly string[], geography: readonly string[] = PLACE_GEOGRAPHY): string[] => ['NAME', ...fields, ...geography];

/** One query of the Data API and the file its answer is written to: what it asks for, so the answer's header can be held to it. */
export interface Query {
  file: string;
  /** The ACS year asked for (the last of the five) and the period it names. */
  year: number;
  vintage: string;
  estimates: readonly Estimate[];
  fields: readonly string[];
  geography: readonly string[];
  url: string;
}

/** The API's address; written already form-encoded, so fetch adding `&key=` leaves the rest as it is. */
const queryOf = (file: string, year: number, estimates: readonly Estimate[], geography: readonly string[], where: Record<string, string>): Query => {
  const fields = fieldsOf(estimates);
  return {
    file,
    year,
    vintage: `${year - 4}-${year}`,
    estimates,
    fields,
    geography,
    url: `${api(year)}?${new URLSearchParams({ get: ['NAME', ...fields].join(','), ...where }).toString()}`,
  };
};

/** The five queries: the places' and the states' ask for the estimates a metric set reads, the nation's and the earlier period's for those its metrics are compared with there; each in the order of ESTIMATES. */
export interface Queries {
  places: Query;
  states: Query;
  nation: Query;
  earlierPlaces: Query;
  earlierStates: Query;
}

/**
 * The queries for a metric set: the estimates it reads, those it compares with the nation's and those it compares with
 * the earlier period's. A set without a variable asks for none of its columns, so its files need not hold them.
 */
export function queriesFor(read: readonly Estimate[], nation: readonly Estimate[], earlier: readonly Estimate[]): Queries {
  const asked = (estimates: readonly Estimate[]): Estimate[] => ESTIMATES.filter((e) => estimates.includes(e));
  return {
    places: queryOf(PLACES, YEAR, asked(read), PLACE_GEOGRAPHY, { for: 'place:*', in: 'state:*' }),
    states: queryOf(STATES, YEAR, asked(read), STATE_GEOGRAPHY, { for: 'state:*' }),
    nation: queryOf(NATION, YEAR, asked(nation), NATION_GEOGRAPHY, { for: 'us:1' }),
    earlierPlaces: queryOf(PLACES_EARLIER, EARLIER_YEAR, asked(earlier), PLACE_GEOGRAPHY, { for: 'place:*', in: 'state:*' }),
    earlierStates: queryOf(STATES_EARLIER, EARLIER_YEAR, asked(earlier), STATE_GEOGRAPHY, { for: 'state:*' }),
  };
}

/** What `fetch` downloads for these queries. */
export const remoteOf = (queries: Queries): RemoteFile[] => Object.values(queries).map((q) => ({ file: q.file, url: q.url }));

/** The tables the queries read, as the dataset's name says them: "tables B25064, …; the nation's B19013; 2015-2019 B25077 of the places and states". */
export function tablesOf(queries: Queries, vintage: string): string {
  const tables = (q: Query): string[] => [...new Set(q.estimates.map((e) => e.slice(0, e.indexOf('_'))))];
  const current = tables(queries.places);
  const nation = tables(queries.nation);
  const earlier = tables(queries.earlierPlaces);
  return [
    `ACS 5-year estimates ${vintage}, places and states: ${current.length === 1 ? 'table' : 'tables'} ${listWords(current)}`,
    ...(nation.length === 0 ? [] : [`the nation's ${listWords(nation)}`]),
    ...(earlier.length === 0 ? [] : [`${queries.earlierPlaces.vintage} ${listWords(earlier)} of the places and states`]),
  ].join('; ');
}

/** The API's layout: the header row opens the array on the first line, one row per line, `]]` closing the last. */
export const apiResponse = (rows: readonly (readonly (string | null)[])[]): string => `[${rows.map((r) => JSON.stringify(r)).join(',\n')}]`;

/**
 * The numeric annotation values ("jam values") the Census API writes in place of an estimate or a margin of error,
 * as the Census Bureau's "Notes on ACS Estimate and Annotation Values" lists them. The last three are documented
 * for margins of error; should one appear in an estimate column, the estimate is just as absent.
 */
export const ANNOTATIONS: ReadonlyMap<string, string> = new Map([
  ['-666666666', 'the estimate could not be computed (too few sample observations, or a median in an open-ended interval)'],
  ['-999999999', 'the estimate cannot be displayed (too few sample cases in this area)'],
  ['-888888888', 'the estimate is not applicable or not available'],
  ['-222222222', 'too few sample observations (a margin-of-error code)'],
  ['-333333333', 'the median falls in an open-ended interval (a margin-of-error code)'],
  ['-555555555', 'the estimate is controlled (a margin-of-error code, not an estimate)'],
]);
