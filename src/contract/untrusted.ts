// What a tool reading a deployment takes from a server it does not trust: how large each kind of answer can be, how deeply its JSON may nest, and its text made safe for a terminal. Imports nothing: the client package runs a copy.

const KiB = 1024;
const MiB = 1024 * KiB;

/** The kinds of answer: the endpoint records' ids (a test holds them to src/contract/endpoints.ts), a page, an error's body. */
export type AnswerKind =
  | 'index'
  | 'profile'
  | 'marketCsv'
  | 'bulkCsv'
  | 'series'
  | 'seriesCsv'
  | 'bulkSeriesCsv'
  | 'vintages'
  | 'vintageIndex'
  | 'vintageProfile'
  | 'vintageCsv'
  | 'vintageBulkCsv'
  | 'download'
  | 'profileSchema'
  | 'indexSchema'
  | 'csvDescriptor'
  | 'seriesSchema'
  | 'seriesCsvDescriptor'
  | 'vintagesSchema'
  | 'dataPackage'
  | 'openApi'
  | 'health'
  | 'stylesheet'
  | 'robots'
  | 'sitemap'
  | 'page'
  | 'problem';

// How large each kind can be, a fixed part and a part per market: several times what the service serves (16 markets: a
// profile 9.5 KB, a market's series 89 KB, the bulk series CSV 1 MB, the download 0.5 MB, the OpenAPI document 0.7 MB),
// so years more of quarters and snapshots fit, while a body far past its kind is refused at that size.
const ANSWER_SIZES: Readonly<Record<AnswerKind, { what: string; fixed: number; perMarket: number }>> = {
  index: { what: 'the market index', fixed: 64 * KiB, perMarket: 8 * KiB },
  profile: { what: "a market's profile", fixed: 256 * KiB, perMarket: 0 },
  marketCsv: { what: "a market's CSV", fixed: 64 * KiB, perMarket: 0 },
  bulkCsv: { what: 'the bulk CSV', fixed: 64 * KiB, perMarket: 64 * KiB },
  series: { what: "a market's series", fixed: 1 * MiB, perMarket: 0 },
  seriesCsv: { what: "a market's series CSV", fixed: 1 * MiB, perMarket: 0 },
  bulkSeriesCsv: { what: 'the bulk series CSV', fixed: 64 * KiB, perMarket: 1 * MiB },
  vintages: { what: 'the vintage index', fixed: 2 * MiB, perMarket: 4 * KiB },
  vintageIndex: { what: "a snapshot's market index", fixed: 64 * KiB, perMarket: 8 * KiB },
  vintageProfile: { what: "a snapshot's profile", fixed: 256 * KiB, perMarket: 0 },
  vintageCsv: { what: "a snapshot's market CSV", fixed: 64 * KiB, perMarket: 0 },
  vintageBulkCsv: { what: "a snapshot's bulk CSV", fixed: 64 * KiB, perMarket: 64 * KiB },
  download: { what: 'the download', fixed: 8 * MiB, perMarket: 1 * MiB },
  profileSchema: { what: 'a schema', fixed: 1 * MiB, perMarket: 0 },
  indexSchema: { what: 'a schema', fixed: 1 * MiB, perMarket: 0 },
  csvDescriptor: { what: 'a CSV descriptor', fixed: 1 * MiB, perMarket: 0 },
  seriesSchema: { what: 'a schema', fixed: 1 * MiB, perMarket: 0 },
  seriesCsvDescriptor: { what: 'a CSV descriptor', fixed: 1 * MiB, perMarket: 0 },
  vintagesSchema: { what: 'a schema', fixed: 1 * MiB, perMarket: 0 },
  dataPackage: { what: 'the Data Package', fixed: 1 * MiB, perMarket: 64 * KiB },
  openApi: { what: 'the OpenAPI document', fixed: 16 * MiB, perMarket: 64 * KiB },
  health: { what: 'the health answer', fixed: 64 * KiB, perMarket: 0 },
  stylesheet: { what: 'the stylesheet', fixed: 2 * MiB, perMarket: 0 },
  robots: { what: 'robots.txt', fixed: 64 * KiB, perMarket: 0 },
  sitemap: { what: 'the sitemap', fixed: 64 * KiB, perMarket: 4 * KiB },
  page: { what: 'a page', fixed: 2 * MiB, perMarket: 32 * KiB },
  problem: { what: "an error's body", fixed: 64 * KiB, perMarket: 1 * KiB },
};

/** Every kind of answer with a ceiling. */
export const ANSWER_KINDS = Object.keys(ANSWER_SIZES) as readonly AnswerKind[];

/** The markets assumed before an index is read: the ceilings then hold a deployment of thousands of markets. */
export const MARKETS_ASSUMED = 1000;

/** The most bytes an answer of a kind can have at a number of markets. */
export const answerCeiling = (kind: AnswerKind, markets: number): number =>
  ANSWER_SIZES[kind].fixed + ANSWER_SIZES[kind].perMarket * Math.max(0, Math.floor(markets));

/** Why an answer past its kind's ceiling is refused, in words: "more than a market's profile can be (262144 bytes)". */
export const ceilingWords = (kind: AnswerKind, markets: number): string =>
  `more than ${ANSWER_SIZES[kind].what} can be (${answerCeiling(kind, markets)} bytes${ANSWER_SIZES[kind].perMarket === 0 ? '' : ` at ${Math.floor(markets)} markets`})`;

/** How deeply any JSON document of the service nests, with room to spare (the OpenAPI document, the deepest, nests 24 levels). */
export const MAX_JSON_DEPTH = 64;

/** Whether a JSON text nests deeper than `max`, counted outside strings: checked before JSON.parse, so nothing done with the value recurses past it. */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

// eslint-disable-next-line no-control-regex -- the control characters are what is matched
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex -- line ends kept: CR LF, or LF, as a CSV's rows end
const CONTROL_BUT_LINES = /\r(?!\n)|[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f]/g;
const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Server text for a terminal: every control character (C0, DEL, C1: what starts an escape sequence) written as `\u001b`, on one line. */
export const forTerminal = (text: string): string => text.replace(CONTROL, escaped);

/** Like forTerminal, keeping the line ends and tabs of a document printed whole (a CSV). */
export const documentForTerminal = (text: string): string => text.replace(CONTROL_BUT_LINES, escaped);
