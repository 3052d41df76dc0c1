// Census ACS files in the Census Data API's layout for synthetic markets, and the other places of the country around them.
import type { MarketDefinition } from '../../contract/markets.ts';
import type { SyntheticFiles, SyntheticMarket } from '../source.ts';
import { DETAILED, DETAILED_FIELDS, DIR, PROFILE, PROFILE_FIELDS, apiResponse, headerOf } from './format.ts';

const RETRIEVAL = `${DIR}/retrieval.json`;
const DETAILED_HEADER = headerOf(DETAILED_FIELDS);
const PROFILE_HEADER = headerOf(PROFILE_FIELDS);
/** A national answer's size: about 32,000 places of every state, DC and Puerto Rico. */
const NATIONAL_PLACES = 32_000;

type Row = (string | null)[];

/**
 * An estimate's margin as the generator writes it: about 6 % of the estimate, whole or to one decimal like the estimate;
 * an annotation's is the API's code for too few sample observations, a null's null.
 */
function marginCell(estimate: string | null): string | null {
  if (estimate === null) return null;
  const n = Number(estimate);
  if (n < 0) return '-222222222';
  return estimate.includes('.') ? Math.max(0.1, n * 0.06).toFixed(1) : String(Math.max(1, Math.round(n * 0.06)));
}

/** A row of NAME, the estimates and the geography, with each estimate's margin after it, as the query asks for them. */
const withMargins = (row: Row): Row => [row[0] ?? null, ...row.slice(1, -2).flatMap((e) => [e, marginCell(e)]), ...row.slice(-2)];

/** Places ordered as the API answers `for=place:*&in=state:*`: by state code, then place code. */
const byStateThenPlace = (a: Row, b: Row, iState: number, iPlace: number): number => {
  const ka = `${a[iState] ?? ''}${a[iPlace] ?? ''}`;
  const kb = `${b[iState] ?? ''}${b[iPlace] ?? ''}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

const sorted = (header: readonly string[], rows: Row[]): Row[] => {
  const iState = header.indexOf('state');
  const iPlace = header.indexOf('place');
  return [...rows].sort((a, b) => byStateThenPlace(a, b, iState, iPlace));
};

/** The ACS files for these markets, keyed by fixture path. */
function files(markets: readonly SyntheticMarket[]): Map<string, string> {
  const acs: Row[] = [];
  const dp04: Row[] = [];
  for (const { i, market } of markets) {
    const { state: fips, place } = market.placeGeoid;
    const renters = 50000 + (i % 997) * 100;
    const income = 60000 + (i % 5000) * 10;
    const mortgaged = 30000 + (i % 700) * 10;
    acs.push(
      withMargins([
        market.placeName,
        String(1200 + (i % 900)),
        String(income),
        String(Math.round(income * 0.65)),
        String(income * (3 + (i % 6))),
        String(renters * 2),
        String(renters),
        '5000',
        '4000',
        '5000',
        String(9000 + (i % 3000)),
        '1000',
        String(mortgaged),
        '2400',
        '1500',
        '1700',
        String(2000 + (i % 900)),
        '300',
        fips,
        place,
      ]),
    );
    dp04.push(withMargins([market.placeName, (3 + (i % 50) / 10).toFixed(1), fips, place]));
  }
  return new Map([
    [DETAILED, apiResponse([DETAILED_HEADER, ...sorted(DETAILED_HEADER, acs)])],
    [PROFILE, apiResponse([PROFILE_HEADER, ...sorted(PROFILE_HEADER, dp04)])],
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

/** The k-th other place: a name of the Census Bureau's form ("<name> <kind>, <state>") and its detailed-table and profile rows. */
function otherPlace(k: number, fips: string, state: string, place: string): { detailed: Row; profile: Row } {
  const stem = STEMS[k % STEMS.length] ?? 'Oak';
  const ending = ENDINGS[Math.floor(k / STEMS.length) % ENDINGS.length] ?? 'field';
  const kind = fips === '72' ? (PR_KINDS[k % PR_KINDS.length] ?? 'comunidad') : (KINDS[k % KINDS.length] ?? 'city');
  const name = `${stem}${ending} ${kind}, ${state}`;
  // Small places: a few hundred to a few thousand homes, as most of the country's 32,000 places are.
  const units = 40 + ((k * 7919) % 6000);
  const renters = Math.floor(units * (0.15 + ((k * 31) % 40) / 100));
  const notComputed = Math.floor(renters * (0.03 + (k % 6) / 100));
  const share = (pct: number): string => String(Math.floor(renters * pct));
  const income = 32000 + ((k * 7919) % 110000);
  const mortgaged = Math.floor(units * (0.2 + ((k * 13) % 30) / 100));
  const owned = (pct: number): string => String(Math.floor(mortgaged * pct));
  const detailed: Row = [
    name,
    String(650 + ((k * 37) % 1900)),
    String(income),
    String(Math.round((income * (0.5 + ((k * 17) % 25) / 100)) / 100) * 100),
    String(Math.round((income * (2.4 + ((k * 29) % 50) / 10)) / 100) * 100),
    String(units),
    String(renters),
    share(0.09),
    share(0.07),
    share(0.08),
    share(0.19),
    String(notComputed),
    String(mortgaged),
    owned(0.08),
    owned(0.05),
    owned(0.06),
    owned(0.09),
    owned(0.01),
    fips,
    place,
  ];
  let rate: string | null = (((k * 13) % 120) / 10).toFixed(1);
  // What the API writes for small places: medians it could not compute, a place with no renter households at all,
  // a top-coded median (250,000+ is written 250001), and cells with no data (null).
  if (k % 23 === 5) {
    detailed[1] = '-666666666';
    detailed[2] = '-666666666';
    detailed[3] = '-666666666';
    detailed[4] = '-666666666';
  }
  if (k % 47 === 11) {
    detailed.splice(6, 6, '0', '0', '0', '0', '0', '0');
    detailed[1] = '-666666666';
    rate = '-666666666';
  }
  if (k % 61 === 7) {
    detailed[1] = '2870';
    detailed[2] = '250001';
    detailed[4] = '2000001';
  }
  if (k % 89 === 17) detailed[1] = null;
  if (k % 97 === 29) rate = null;
  return { detailed: withMargins(detailed), profile: withMargins([name, rate, fips, place]) };
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
  const [detailedHeader = [], ...detailedRows] = parseRows(files.get(DETAILED), DETAILED);
  const [profileHeader = [], ...profileRows] = parseRows(files.get(PROFILE), PROFILE);
  const dState = detailedHeader.indexOf('state');
  const dPlace = detailedHeader.indexOf('place');
  const pState = profileHeader.indexOf('state');
  const pPlace = profileHeader.indexOf('place');
  const taken = new Set([...detailedRows.map((r) => `${r[dState]}${r[dPlace]}`), ...profileRows.map((r) => `${r[pState]}${r[pPlace]}`)]);
  // Where the files' columns sit, so the new rows follow the files' own column order.
  const dOrder = detailedHeader.map((c) => DETAILED_HEADER.indexOf(c ?? ''));
  const pOrder = profileHeader.map((c) => PROFILE_HEADER.indexOf(c ?? ''));
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
    const { detailed, profile } = otherPlace(k, fips, state, code);
    detailedRows.push(dOrder.map((i) => detailed[i] ?? null));
    profileRows.push(pOrder.map((i) => profile[i] ?? null));
  }
  const out = new Map(files);
  out.set(DETAILED, apiResponse([detailedHeader, ...sorted(detailedHeader.map(String), detailedRows)]));
  out.set(PROFILE, apiResponse([profileHeader, ...sorted(profileHeader.map(String), profileRows)]));
  return out;
}

const placeKeyOf = (m: MarketDefinition): string => `${m.placeGeoid.state}:${m.placeGeoid.place}`;

/** The answers with only the header and these markets' rows. */
function onlyMarkets(files: ReadonlyMap<string, string>, markets: readonly MarketDefinition[]): Map<string, string> {
  const places = new Set(markets.map(placeKeyOf));
  const out = new Map(files);
  for (const path of [DETAILED, PROFILE]) {
    const text = files.get(path);
    if (text === undefined) continue;
    const [header = [], ...rows] = JSON.parse(text) as (string | null)[][];
    const state = header.indexOf('state');
    const place = header.indexOf('place');
    const kept = rows.filter((r) => places.has(`${r[state] ?? ''}:${r[place] ?? ''}`));
    out.set(path, `[${[header, ...kept].map((r) => JSON.stringify(r)).join(',\n')}]\n`);
  }
  return out;
}

export const acsSynthetic: SyntheticFiles = { files, withOthers: withOtherAcsPlaces, nationalRows: () => NATIONAL_PLACES, onlyMarkets };
