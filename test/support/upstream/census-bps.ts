// Census BPS annual place files in the published layout (four regional files, multi-line header, padded codes) for synthetic markets and national-size inputs.
import type { MarketDefinition } from '../../../src/contract/markets.ts';
import type { SyntheticFiles, SyntheticMarket } from './index.ts';
import { COL, DIR, EOL, HEADER, SURVEY, YEAR, fileOf, type RegionCode } from '../../../src/sources/census-bps/format.ts';

/** National size, four times over: the published files hold about 20,000 rows in all; the generator writes 20,000 in each. */
const NATIONAL_ROWS = 80_000;
/** The Census region of each state, by FIPS code: which of the four files a row belongs in. */
const REGION_OF_STATE: Readonly<Record<string, RegionCode>> = {
  '09': 'ne', '23': 'ne', '25': 'ne', '33': 'ne', '34': 'ne', '36': 'ne', '42': 'ne', '44': 'ne', '50': 'ne',
  '17': 'mw', '18': 'mw', '19': 'mw', '20': 'mw', '26': 'mw', '27': 'mw', '29': 'mw', '31': 'mw', '38': 'mw', '39': 'mw', '46': 'mw', '55': 'mw',
  '01': 'so', '05': 'so', '10': 'so', '11': 'so', '12': 'so', '13': 'so', '21': 'so', '22': 'so', '24': 'so', '28': 'so', '37': 'so', '40': 'so', '45': 'so', '47': 'so', '48': 'so', '51': 'so', '54': 'so',
  '02': 'we', '04': 'we', '06': 'we', '08': 'we', '15': 'we', '16': 'we', '30': 'we', '32': 'we', '35': 'we', '41': 'we', '49': 'we', '53': 'we', '56': 'we',
}; // prettier-ignore
const REGIONS: readonly RegionCode[] = ['ne', 'mw', 'so', 'we'];

interface RowSpec {
  state: string;
  id6: string;
  place: string;
  mcd: string;
  pop: number;
  name: string;
  /** Units of the 1-unit, 2-units, 3-4 units and 5+ units groups. */
  units: readonly [number, number, number, number];
}

/** One row as the Census Bureau writes it: codes padded with a space, the zip code to eleven characters, imputed then reported blocks. */
function row(r: RowSpec): string {
  const [u1, u2, u34, u5] = r.units;
  const block = [u1, u1, u1 * 310_000, u2 / 2, u2, u2 * 240_000, Math.ceil(u34 / 4), u34, u34 * 220_000, Math.ceil(u5 / 40), u5, u5 * 190_000];
  const region = REGION_OF_STATE[r.state] ?? 'so';
  const regionCode = { ne: 1, mw: 2, so: 3, we: 4 }[region];
  return [
    String(YEAR),
    r.state,
    r.id6,
    '001',
    '    ',
    `${r.place} `,
    `${r.mcd} `,
    `${r.pop} `,
    '   ',
    '99999',
    ' ',
    ' ',
    '00000      ',
    regionCode,
    regionCode * 2,
    12,
    r.name,
    ...block,
    ...block,
  ].join(',');
}

/** The four regional files with these rows, each sorted by state and 6-digit ID, every file with at least one row. */
function filesOf(rows: readonly RowSpec[]): Map<string, string> {
  const byRegion = new Map<RegionCode, RowSpec[]>(REGIONS.map((r) => [r, []]));
  for (const r of rows) byRegion.get(REGION_OF_STATE[r.state] ?? 'so')?.push(r);
  const out = new Map<string, string>();
  for (const [region, list] of byRegion) {
    // A real regional file is never empty; a placeholder township keeps a file with no synthetic market well formed.
    if (list.length === 0)
      list.push({
        state: region === 'ne' ? '34' : region === 'mw' ? '17' : region === 'so' ? '48' : '06',
        id6: '999000',
        place: '00000',
        mcd: '99999',
        pop: 100,
        name: 'Placeholder township',
        units: [1, 0, 0, 0],
      });
    list.sort((a, b) => (a.state + a.id6 < b.state + b.id6 ? -1 : 1));
    out.set(fileOf(region), `${[...HEADER, ...list.map(row)].join(EOL)}${EOL}`);
  }
  return out;
}

/** The BPS files for these markets, keyed by fixture path. */
function files(markets: readonly SyntheticMarket[]): Map<string, string> {
  const rows = markets.map(({ i, market }): RowSpec => {
    const units = [900 + (i % 500), 2 * (i % 40), 4 * (i % 9), 1000 + ((i * 37) % 3000)] as const;
    return {
      state: market.placeGeoid.state,
      id6: String(100000 + i).padStart(6, '0'),
      place: market.placeGeoid.place,
      mcd: '00000',
      pop: 100_000 + i,
      name: market.name,
      units,
    };
  });
  return new Map([...filesOf(rows), [`${DIR}/retrieval.json`, '{"vintage":"2024","latestReleaseDate":"2026-05-01","latestRetrievedAt":"2026-09-28"}']]);
}

/**
 * The BPS files with n more rows of permit offices that are not markets, a quarter in each regional file (20,000 each at
 * n = 80,000; the published files hold about 20,000 in all, so this is four times the national size): places,
 * townships with only an MCD code, unincorporated county areas.
 * Deterministic: the same files and n give the same bytes.
 */
export function withOtherBpsPlaces(files: ReadonlyMap<string, string>, n: number): Map<string, string> {
  const statesOf = (region: string): string[] => Object.keys(REGION_OF_STATE).filter((s) => REGION_OF_STATE[s] === region);
  const out = new Map(files);
  const added = new Map<string, string[]>();
  for (let k = 0; k < n; k += 1) {
    // The same number of rows in each regional file, the worst case for any one of them.
    const region = REGIONS[k % REGIONS.length] ?? 'so';
    const states = statesOf(region);
    const j = Math.floor(k / REGIONS.length);
    const state = states[j % states.length] ?? '01';
    const kind = k % 10;
    const spec: RowSpec = {
      state,
      id6: String(100000 + Math.floor(j / states.length)).padStart(6, '0'),
      // Codes 60000 and up are outside the synthetic and real markets' place codes.
      place: kind === 9 ? '99990' : kind === 8 ? '00000' : String(60000 + (Math.floor(j / states.length) % 39000)).padStart(5, '0'),
      mcd: kind === 8 || kind === 7 ? String(10000 + (k % 89999)).padStart(5, '0') : '00000',
      pop: 200 + ((k * 7919) % 90000),
      name: kind === 9 ? `County ${k} Unincorporated Area` : kind === 8 ? `Township ${k}` : `Place ${k}`,
      units: [k % 60, 2 * (k % 3), 0, k % 7 === 0 ? 24 : 0],
    };
    const file = fileOf(REGION_OF_STATE[state] ?? 'so');
    const list = added.get(file) ?? [];
    list.push(row(spec));
    added.set(file, list);
  }
  for (const [file, rows] of added) {
    const text = out.get(file) ?? `${HEADER.join(EOL)}${EOL}`;
    const eol = text.includes('\r\n') ? '\r\n' : EOL;
    out.set(file, `${text}${rows.join(eol)}${eol}`);
  }
  return out;
}

const placeKeyOf = (m: MarketDefinition): string => `${m.placeGeoid.state}:${m.placeGeoid.place}`;

/** The files with only their header lines and the rows of these markets' places. */
function onlyMarkets(files: ReadonlyMap<string, string>, markets: readonly MarketDefinition[]): Map<string, string> {
  const places = new Set(markets.map(placeKeyOf));
  const out = new Map(files);
  for (const region of REGIONS) {
    const text = files.get(fileOf(region));
    if (text === undefined) continue;
    // A file's own line ends are kept (the adapter reads CRLF as well as the published LF).
    const eol = text.includes('\r\n') ? '\r\n' : EOL;
    const kept = text.split(eol).filter((line) => {
      const fields = line.split(',', COL.fipsPlace + 1);
      if (!SURVEY.test((fields[COL.survey] ?? '').trim())) return line !== '';
      return places.has(`${(fields[COL.state] ?? '').trim()}:${(fields[COL.fipsPlace] ?? '').trim()}`);
    });
    out.set(fileOf(region), `${kept.join(eol)}${eol}`);
  }
  return out;
}

export const bpsFiles: SyntheticFiles = { files, withOthers: withOtherBpsPlaces, nationalRows: () => NATIONAL_ROWS, onlyMarkets };
