// The kinds of area a value can describe, each in one place: the codes each is known by, how the contract names it, where it sorts, and how pages and notes write it.
import { listWords } from './words.ts';
import { keysOf } from './records.ts';

/** The codes an area of each level is known by, as the agencies write them. */
export interface LevelCodes {
  /** A Census place: two-digit state and five-digit place FIPS codes. */
  place: { stateFips: string; placeFips: string };
  /** A county: two-digit state and three-digit county FIPS codes. */
  county: { stateFips: string; countyFips: string };
  /** A metro area: its five-digit CBSA code. */
  cbsa: { cbsa: string };
  /** A metropolitan division: its metro's CBSA code and its own five-digit code. */
  division: { cbsa: string; division: string };
  /** A state (the District of Columbia counts as one, as the Census Bureau counts it): its two-digit FIPS code. */
  state: { stateFips: string };
  /** The United States: one area, no code of its own beyond its GEO_ID. */
  nation: Record<string, never>;
}

export type GeographyLevel = keyof LevelCodes;

/** An area of one level, with the codes of that level. */
export type AreaOf<L extends GeographyLevel> = { level: L; name: string; codes: LevelCodes[L]; states: string[] };
/** An area of any level: which one its `level` says, and its codes follow. */
export type Area = { [L in GeographyLevel]: AreaOf<L> }[GeographyLevel];

interface Level {
  /** Where areas of this level come in a list: the city first, the metro last. */
  order: number;
  /** The level in a table's "kind" column. */
  kind: string;
}

/** In the order the contract's schema lists them. */
export const GEOGRAPHY_LEVELS = {
  place: { order: 0, kind: 'city (Census place)' },
  county: { order: 1, kind: 'county' },
  cbsa: { order: 3, kind: 'metro area (CBSA)' },
  division: { order: 2, kind: 'metropolitan division' },
  state: { order: 4, kind: 'state' },
  nation: { order: 5, kind: 'nation' },
} as const satisfies Record<GeographyLevel, Level>;

export const GEOGRAPHY_LEVEL_IDS: GeographyLevel[] = keysOf(GEOGRAPHY_LEVELS);

const spans = (b: Area): string => (b.states.length > 1 ? `, which spans ${listWords(b.states)}` : '');

/** The area in a sentence: "Austin city, Texas", "the Dallas-Plano-Irving, TX metropolitan division". */
export function areaWords(b: Area): string {
  switch (b.level) {
    case 'place':
    case 'county':
      return b.name;
    case 'cbsa':
      return `the ${b.name} metro area`;
    case 'division':
      return `the ${b.name} metropolitan division`;
    case 'state':
      return b.name;
    case 'nation':
      return 'the United States';
  }
}

/** The area with its codes, and its metro and states where they say more: "Austin city, Texas (Census place 4805000)". */
export function areaPhrase(b: Area, cbsaName: string | undefined): string {
  switch (b.level) {
    case 'place':
      return `${b.name} (Census place ${b.codes.stateFips}${b.codes.placeFips})`;
    case 'county':
      return `${b.name} (county ${b.codes.stateFips}${b.codes.countyFips})`;
    case 'cbsa':
      return `the ${b.name} metro area (CBSA ${b.codes.cbsa})${spans(b)}`;
    case 'division':
      return `the ${b.name} metropolitan division (${b.codes.division})${cbsaName === undefined ? '' : ` of the ${cbsaName} metro area`}${spans(b)}`;
    case 'state':
      return `${b.name} (state ${b.codes.stateFips})`;
    case 'nation':
      return 'the United States';
  }
}

/**
 * The area's one code, as the series documents and CSVs hold it: a Census area by the Census Bureau's GEO_ID, the form
 * its API answers carry ("1600000US0455000" for a place, "0500000US36047" for a county), which no spreadsheet or CSV
 * reader takes for a number, so the FIPS codes' leading zeros survive; a metro area or division by the code FHFA
 * publishes ("12420", "35614": five digits, never a leading zero); a state or the nation by its GEO_ID too
 * ("0400000US48", "0100000US"), whichever agency's figure it is, so one area has one code in every row.
 */
export function areaCode(b: Area): string {
  switch (b.level) {
    case 'place':
      return `1600000US${b.codes.stateFips}${b.codes.placeFips}`;
    case 'county':
      return `0500000US${b.codes.stateFips}${b.codes.countyFips}`;
    case 'cbsa':
      return b.codes.cbsa;
    case 'division':
      return b.codes.division;
    case 'state':
      return `0400000US${b.codes.stateFips}`;
    case 'nation':
      return '0100000US';
  }
}

/**
 * An area read from a document (a profile's geographyScope, an archived snapshot's), whose codes the schema types only
 * as text: the area with its level's codes, or undefined when one of them is missing.
 */
export function areaOf(b: { level: GeographyLevel; name: string; codes: Readonly<Record<string, string>>; states: readonly string[] }): Area | undefined {
  const code = (name: string): string | undefined => b.codes[name];
  const { name } = b;
  const states = [...b.states];
  switch (b.level) {
    case 'place': {
      const [stateFips, placeFips] = [code('stateFips'), code('placeFips')];
      return stateFips === undefined || placeFips === undefined ? undefined : { level: 'place', name, codes: { stateFips, placeFips }, states };
    }
    case 'county': {
      const [stateFips, countyFips] = [code('stateFips'), code('countyFips')];
      return stateFips === undefined || countyFips === undefined ? undefined : { level: 'county', name, codes: { stateFips, countyFips }, states };
    }
    case 'cbsa': {
      const cbsa = code('cbsa');
      return cbsa === undefined ? undefined : { level: 'cbsa', name, codes: { cbsa }, states };
    }
    case 'division': {
      const [cbsa, division] = [code('cbsa'), code('division')];
      return cbsa === undefined || division === undefined ? undefined : { level: 'division', name, codes: { cbsa, division }, states };
    }
    case 'state': {
      const stateFips = code('stateFips');
      return stateFips === undefined ? undefined : { level: 'state', name, codes: { stateFips }, states };
    }
    case 'nation':
      return { level: 'nation', name, codes: {}, states };
  }
}
