// The kinds of area a value can describe, each in one place: how the contract names it, where it sorts, and how pages and notes write it.
import { listWords } from './words.ts';

/** What every boundary has, whatever its level. */
interface Area {
  name: string;
  codes: Readonly<Record<string, string>>;
  states: readonly string[];
}

interface Level {
  /** Where boundaries of this level come in a list: the city first, the metro last. */
  order: number;
  /** The level in a table's "kind" column. */
  kind: string;
  /** The area in a sentence: "the Dallas-Plano-Irving, TX metropolitan division". */
  area(b: Area): string;
  /** The area with its codes, and its metro and states where they say more: "Austin city, Texas (Census place 4805000)". */
  phrase(b: Area, cbsaName: string | undefined): string;
  /** The area's one code, as the series CSV's geography_code holds it: "4805000", "36047", "12420", "35614". */
  code(b: Area): string;
}

const spans = (b: Area): string => (b.states.length > 1 ? `, which spans ${listWords(b.states)}` : '');

/** In the order the contract's schema lists them. */
export const GEOGRAPHY_LEVELS = {
  place: {
    order: 0,
    kind: 'city (Census place)',
    area: (b) => b.name,
    phrase: (b) => `${b.name} (Census place ${Object.values(b.codes).join('')})`,
    code: (b) => `${b.codes['stateFips'] ?? ''}${b.codes['placeFips'] ?? ''}`,
  },
  county: {
    order: 1,
    kind: 'county',
    area: (b) => b.name,
    phrase: (b) => `${b.name} (county ${Object.values(b.codes).join('')})`,
    code: (b) => `${b.codes['stateFips'] ?? ''}${b.codes['countyFips'] ?? ''}`,
  },
  cbsa: {
    order: 3,
    kind: 'metro area (CBSA)',
    area: (b) => `the ${b.name} metro area`,
    phrase: (b) => `the ${b.name} metro area (CBSA ${b.codes['cbsa'] ?? ''})${spans(b)}`,
    code: (b) => b.codes['cbsa'] ?? '',
  },
  division: {
    order: 2,
    kind: 'metropolitan division',
    area: (b) => `the ${b.name} metropolitan division`,
    phrase: (b, cbsaName) =>
      `the ${b.name} metropolitan division (${b.codes['division'] ?? ''})${cbsaName === undefined ? '' : ` of the ${cbsaName} metro area`}${spans(b)}`,
    code: (b) => b.codes['division'] ?? '',
  },
} as const satisfies Record<string, Level>;

export type GeographyLevel = keyof typeof GEOGRAPHY_LEVELS;
export const GEOGRAPHY_LEVEL_IDS = Object.keys(GEOGRAPHY_LEVELS) as GeographyLevel[];
