// The Census Data API's ACS 5-year answers this source reads: the queries, the files they are written to, and the annotation values, for the adapter and the generator.
import type { RemoteFile } from '../source.ts';

/** The source's id, which names its fixtures folder too. */
export const SOURCE_ID = 'census-acs-5yr';
export const DIR = SOURCE_ID;
export const DETAILED = `${DIR}/acs5-2024-detailed-place.json`;
export const PROFILE = `${DIR}/acs5-2024-profile-place.json`;

/** The ACS year the queries ask for; a 5-year vintage is named by its five survey years. */
export const YEAR = 2024;
export const VINTAGE = `${YEAR - 4}-${YEAR}`;
const API = `https://api.census.gov/data/${YEAR}/acs/acs5`;

export const RENT_BURDEN_FIELDS = ['B25070_001E', 'B25070_007E', 'B25070_008E', 'B25070_009E', 'B25070_010E', 'B25070_011E'] as const;
/** Owners with a mortgage (row 2), those at 30-34.9, 35-39.9, 40-49.9 and 50 % or more (rows 8 to 11), and those not computed (row 12). */
export const OWNER_BURDEN_FIELDS = ['B25091_002E', 'B25091_008E', 'B25091_009E', 'B25091_010E', 'B25091_011E', 'B25091_012E'] as const;
/** The estimates the detailed-table query asks for. */
export const DETAILED_ESTIMATES = [
  'B25064_001E',
  'B19013_001E',
  'B25119_003E',
  'B25077_001E',
  'B25001_001E',
  ...RENT_BURDEN_FIELDS,
  ...OWNER_BURDEN_FIELDS,
] as const;
export const PROFILE_ESTIMATES = ['DP04_0005E'] as const;

type Estimate = (typeof DETAILED_ESTIMATES)[number] | (typeof PROFILE_ESTIMATES)[number];
/** The variable of an estimate's 90 % margin of error: B25064_001E's is B25064_001M. */
export type MarginOf<E extends string> = E extends `${infer Stem}E` ? `${Stem}M` : never;
export const marginOf = <E extends Estimate>(estimate: E): MarginOf<E> => `${estimate.slice(0, -1)}M` as MarginOf<E>;

/** Each estimate followed by its margin of error, in the order of `get=`, as an analyst asks for both. */
const withMargins = <E extends Estimate>(estimates: readonly E[]): (E | MarginOf<E>)[] => estimates.flatMap((e) => [e, marginOf(e)]);
export const DETAILED_FIELDS = withMargins(DETAILED_ESTIMATES);
export const PROFILE_FIELDS = withMargins(PROFILE_ESTIMATES);

/** An answer's header row: NAME, the requested variables in the order of `get=`, then the geography columns. */
export const headerOf = (fields: readonly string[]): string[] => ['NAME', ...fields, 'state', 'place'];

/** The API's address for every place of every state; written already form-encoded, so fetch adding `&key=` leaves the rest as it is. */
const query = (path: string, fields: readonly string[]): string =>
  `${API}${path}?${new URLSearchParams({ get: ['NAME', ...fields].join(','), for: 'place:*', in: 'state:*' }).toString()}`;

export const REMOTE: RemoteFile[] = [
  { file: DETAILED, url: query('', DETAILED_FIELDS) },
  { file: PROFILE, url: query('/profile', PROFILE_FIELDS) },
];

/** The API's layout: the header row opens the array on the first line, one place per line, `]]` closing the last. */
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
