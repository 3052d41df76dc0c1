// Census ACS files in the Census Data API's layout for synthetic markets and their states, and the other places of the country around them.
import type { MarketDefinition } from '../../../src/contract/markets.ts';
import type { SourceModule } from '../../../src/sources/source.ts';
import type { SyntheticFiles, SyntheticMarket } from './index.ts';
import {
  DIR,
  NATION,
  PLACES,
  PLACES_EARLIER,
  STATES as STATES_FILE,
  STATES_EARLIER,
  NATION_GEOGRAPHY,
  PLACE_GEOGRAPHY,
  STATE_GEOGRAPHY,
  apiResponse,
  answerHeader,
  fieldsOf,
  type Estimate,
  type Query,
} from '../../../src/sources/census-acs-5yr/format.ts';
import { acsQueries } from '../../../src/sources/census-acs-5yr/index.ts';

/**
 * The estimates this generator writes a value of, in the order of estimates() below. A source's queries may ask for
 * fewer (the files are cut to its columns) but not for another: a variable added to the query needs its value here.
 */
const WRITTEN = [
  'B25064_001E',
  'B19013_001E',
  'B25077_001E',
  'B25088_002E',
  'B25001_001E',
  'B25002_002E',
  'B25002_003E',
  'B25003_002E',
] as const satisfies readonly Estimate[];
const FIELDS = fieldsOf(WRITTEN);
const RETRIEVAL = `${DIR}/retrieval.json`;
const PLACE_HEADER = answerHeader(FIELDS);
const STATE_HEADER = answerHeader(FIELDS, STATE_GEOGRAPHY);
/** The nation's and the earlier period's answers: the median income of the one, the median home value of the other. */
const NATION_HEADER = answerHeader(fieldsOf(['B19013_001E']), NATION_GEOGRAPHY);
const EARLIER_PLACE_HEADER = answerHeader(fieldsOf(['B25077_001E']), PLACE_GEOGRAPHY);
const EARLIER_STATE_HEADER = answerHeader(fieldsOf(['B25077_001E']), STATE_GEOGRAPHY);
/** A national answer's size: about 32,000 places of every state, DC and Puerto Rico. */
const NATIONAL_PLACES = 32_000;

type Row = (string | null)[];

/**
 * An estimate's margin as the generator writes it: about 6 % of the estimate, at least 1; an annotation's is the API's
 * code for too few sample observations, a null's null.
 */
function marginCell(estimate: string | null): string | null {
  if (estimate === null) return null;
  const n = Number(estimate);
  if (n < 0) return '-222222222';
  return String(Math.max(1, Math.round(n * 0.06)));
}

/** A row of NAME, the estimates and the geography columns, with each estimate's margin after it, as the query asks for them. */
const withMargins = (row: Row, geography: number): Row => [
  row[0] ?? null,
  ...row.slice(1, row.length - geography).flatMap((e) => [e, marginCell(e)]),
  ...row.slice(row.length - geography),
];

/** Rows ordered as the API answers: by state code, then place code. */
const sorted = (header: readonly string[], rows: Row[]): Row[] => {
  const iState = header.indexOf('state');
  const iPlace = header.indexOf('place');
  const key = (r: Row): string => `${r[iState] ?? ''}${iPlace === -1 ? '' : (r[iPlace] ?? '')}`;
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
};

/**
 * The estimates of a geography with this many housing units and this median income, in the order of the query:
 * rent, income, home value, owner costs with a mortgage, housing units, occupied, vacant, owner-occupied.
 */
function estimates(units: number, income: number, k: number): string[] {
  const occupied = Math.floor(units * (0.85 + (k % 10) / 100));
  const owners = Math.floor(occupied * (0.3 + ((k * 31) % 45) / 100));
  return [
    String(650 + ((k * 37) % 1900)),
    String(income),
    String(Math.round((income * (2.4 + ((k * 29) % 50) / 10)) / 100) * 100),
    String(900 + ((k * 53) % 2600)),
    String(units),
    String(occupied),
    String(units - occupied),
    String(owners),
  ];
}

/**
 * The answers cut to a source's queries: each file's columns those its query asks for, in its order (a source reading
 * fewer metrics asks for fewer variables). A column the generator does not write is named.
 */
function asQueried(files: ReadonlyMap<string, string>, source: Pick<SourceModule, 'metrics'>): Map<string, string> {
  const out = new Map(files);
  for (const query of Object.values(acsQueries(source.metrics.map((m) => m.id))) as Query[]) {
    const [header = [], ...rows] = JSON.parse(files.get(query.file) ?? '[]') as Row[];
    const columns = answerHeader(query.fields, query.geography).map((name) => {
      const at = header.indexOf(name);
      if (at === -1) throw new Error(`the ACS generator writes no ${name} in ${query.file}: add its value to test/support/upstream/census-acs-5yr.ts`);
      return at;
    });
    out.set(query.file, apiResponse([columns.map((i) => header[i] ?? null), ...rows.map((r) => columns.map((i) => r[i] ?? null))]));
  }
  return out;
}

/** The ACS files for these markets and every state, keyed by fixture path, with the columns the source's queries ask for. */
function files(markets: readonly SyntheticMarket[], source: Pick<SourceModule, 'metrics'>): Map<string, string> {
  return asQueried(everyColumn(markets), source);
}

/** The ACS files for these markets and every state, with every column the generator writes. */
function everyColumn(markets: readonly SyntheticMarket[]): Map<string, string> {
  const places: Row[] = markets.map(({ i, market }) =>
    withMargins([market.placeName, ...estimates(9000 + (i % 3000) * 10, 60000 + (i % 5000) * 10, i), market.placeGeoid.state, market.placeGeoid.place], 2),
  );
  const states: Row[] = STATES.map(([fips, name], k) => withMargins([name, ...estimates(500_000 + k * 40_000, 62000 + k * 500, k), fips], 1));
  // The nation's median income, and the earlier period's median home value (three quarters of the current one) of every place and state.
  // The home value's cell in a row of NAME then each estimate with its margin.
  const valueAt = 1 + 2 * WRITTEN.indexOf('B25077_001E');
  const earlier = (row: Row, geography: number): Row => {
    const value = Math.round((Number(row[valueAt]) * 0.75) / 100) * 100;
    return withMargins([row[0] ?? null, String(value), ...row.slice(row.length - geography)], geography);
  };
  return new Map([
    [PLACES, apiResponse([PLACE_HEADER, ...sorted(PLACE_HEADER, places)])],
    [STATES_FILE, apiResponse([STATE_HEADER, ...states])],
    [NATION, apiResponse([NATION_HEADER, withMargins(['United States', '78538', '1'], 1)])],
    [
      PLACES_EARLIER,
      apiResponse([
        EARLIER_PLACE_HEADER,
        ...sorted(
          PLACE_HEADER,
          places.map((r) => earlier(r, 2)),
        ),
      ]),
    ],
    [STATES_EARLIER, apiResponse([EARLIER_STATE_HEADER, ...states.map((r) => earlier(r, 1))])],
    [RETRIEVAL, '{"vintage":"2020-2024","latestReleaseDate":"2026-01-29","latestRetrievedAt":"2026-09-28"}'],
  ]);
}

/** Every state (and DC and Puerto Rico) the API answers for, by FIPS code. */
const STATES: readonly (readonly [string, string])[] = [
  ['01', 'Alabama'],
  ['02', 'Alaska'],
  ['04', 'Arizona'],
  ['05', 'Arkansas'],
  ['06', 'California'],
  ['08', 'Colorado'],
  ['09', 'Connecticut'],
  ['10', 'Delaware'],
  ['11', 'District of Columbia'],
  ['12', 'Florida'],
  ['13', 'Georgia'],
  ['15', 'Hawaii'],
  ['16', 'Idaho'],
  ['17', 'Illinois'],
  ['18', 'Indiana'],
  ['19', 'Iowa'],
  ['20', 'Kansas'],
  ['21', 'Kentucky'],
  ['22', 'Louisiana'],
  ['23', 'Maine'],
  ['24', 'Maryland'],
  ['25', 'Massachusetts'],
  ['26', 'Michigan'],
  ['27', 'Minnesota'],
  ['28', 'Mississippi'],
  ['29', 'Missouri'],
  ['30', 'Montana'],
  ['31', 'Nebraska'],
  ['32', 'Nevada'],
  ['33', 'New Hampshire'],
  ['34', 'New Jersey'],
  ['35', 'New Mexico'],
  ['36', 'New York'],
  ['37', 'North Carolina'],
  ['38', 'North Dakota'],
  ['39', 'Ohio'],
  ['40', 'Oklahoma'],
  ['41', 'Oregon'],
  ['42', 'Pennsylvania'],
  ['44', 'Rhode Island'],
  ['45', 'South Carolina'],
  ['46', 'South Dakota'],
  ['47', 'Tennessee'],
  ['48', 'Texas'],
  ['49', 'Utah'],
  ['50', 'Vermont'],
  ['51', 'Virginia'],
  ['53', 'Washington'],
  ['54', 'West Virginia'],
  ['55', 'Wisconsin'],
  ['56', 'Wyoming'],
  ['72', 'Puerto Rico'],
];

const STEMS = [
  'Oak',
  'Cedar',
  'Pine',
  'Maple',
  'Fair',
  'Green',
  'Spring',
  'Red',
  'Lake',
  'River',
  'Elm',
  'Willow',
  'Clear',
  'Rock',
  'Mill',
  'Glen',
  'Silver',
  'Sand',
];
const ENDINGS = ['field', 'ville', 'wood', 'dale', 'ton', 'ford', 'port', 'view', 'burg', 'haven', 'ridge', 'land', 'brook', 'crest'];
const KINDS = ['city', 'town', 'CDP', 'village', 'CDP', 'city'];
const PR_KINDS = ['zona urbana', 'comunidad'];

/** The k-th other place: a name of the Census Bureau's form ("<name> <kind>, <state>") and its row. */
function otherPlace(k: number, fips: string, state: string, place: string): Row {
  const stem = STEMS[k % STEMS.length] ?? 'Oak';
  const ending = ENDINGS[Math.floor(k / STEMS.length) % ENDINGS.length] ?? 'field';
  const kind = fips === '72' ? (PR_KINDS[k % PR_KINDS.length] ?? 'comunidad') : (KINDS[k % KINDS.length] ?? 'city');
  const name = `${stem}${ending} ${kind}, ${state}`;
  // Small places: a few hundred to a few thousand homes, as most of the country's 32,000 places are.
  const row: Row = [name, ...estimates(40 + ((k * 7919) % 6000), 32000 + ((k * 7919) % 110000), k), fips, place];
  // What the API writes for small places: medians it could not compute, a place with no mortgaged owners, a top-coded
  // median (250,000+ is written 250001), and cells with no data (null).
  if (k % 23 === 5) row.splice(1, 4, '-666666666', '-666666666', '-666666666', '-666666666');
  if (k % 47 === 11) {
    row[4] = '-666666666';
    row[8] = '0';
  }
  if (k % 61 === 7) {
    row[2] = '250001';
    row[3] = '2000001';
  }
  if (k % 89 === 17) row[1] = null;
  return withMargins(row, 2);
}

function parseRows(text: string | undefined, file: string): Row[] {
  if (text === undefined) throw new Error(`no ${file} to add places to`);
  return JSON.parse(text) as Row[];
}

/**
 * The ACS files with n more places that are not markets, spread over every state and ordered with the markets' rows
 * as the API orders its answer (by state, then place). Deterministic: the same files and n give the same bytes.
 */
export function withOtherAcsPlaces(files: ReadonlyMap<string, string>, n: number): Map<string, string> {
  const [header = [], ...rows] = parseRows(files.get(PLACES), PLACES);
  const iState = header.indexOf('state');
  const iPlace = header.indexOf('place');
  const taken = new Set(rows.map((r) => `${r[iState]}${r[iPlace]}`));
  // Where the file's columns sit, so the new rows follow the file's own column order.
  const order = header.map((c) => PLACE_HEADER.indexOf(c ?? ''));
  const perState = new Map<string, number>();
  for (let k = 0; k < n; k += 1) {
    const [fips, state] = STATES[k % STATES.length] ?? ['01', 'Alabama'];
    let code: string;
    do {
      const j = perState.get(fips) ?? 0;
      perState.set(fips, j + 1);
      // Distinct codes within a state for the first 99,800 places of each (163 and 99,800 share no factor).
      code = String(100 + ((j * 163) % 99800)).padStart(5, '0');
    } while (taken.has(`${fips}${code}`));
    taken.add(`${fips}${code}`);
    const row = otherPlace(k, fips, state, code);
    rows.push(order.map((i) => row[i] ?? null));
  }
  const out = new Map(files);
  out.set(PLACES, apiResponse([header, ...sorted(header.map(String), rows)]));
  return out;
}

/** The answers with only the header and these markets' rows (their places, and their states). */
function onlyMarkets(files: ReadonlyMap<string, string>, markets: readonly MarketDefinition[]): Map<string, string> {
  const keep = new Set(markets.flatMap((m) => [`${m.placeGeoid.state}:${m.placeGeoid.place}`, m.placeGeoid.state]));
  const out = new Map(files);
  for (const path of [PLACES, STATES_FILE, PLACES_EARLIER, STATES_EARLIER]) {
    const text = files.get(path);
    if (text === undefined) continue;
    const [header = [], ...rows] = JSON.parse(text) as Row[];
    const state = header.indexOf('state');
    const place = header.indexOf('place');
    const kept = rows.filter((r) => keep.has(place === -1 ? (r[state] ?? '') : `${r[state] ?? ''}:${r[place] ?? ''}`));
    out.set(path, `[${[header, ...kept].map((r) => JSON.stringify(r)).join(',\n')}]\n`);
  }
  return out;
}

export const acsFiles: SyntheticFiles = { files, withOthers: withOtherAcsPlaces, nationalRows: () => NATIONAL_PLACES, onlyMarkets };
