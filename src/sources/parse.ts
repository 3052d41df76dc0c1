// Shared checks for raw fixture fields, so every adapter rejects bad input the same way.
import { FixtureError, InvariantError, type Place } from '../contract/errors.ts';
import { ZIP_DATES } from '../contract/periods.ts';
import { RELEASE_DATE_BASES, isReleaseDateBasis, type ReleaseDateBasis, type Source } from '../contract/schemas.ts';
import type { Observation, ReadFixture, SourceLoad, SourceModule } from './source.ts';

/** Text a spreadsheet would run as a formula when the value lands in a cell. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function text(raw: string | undefined, place: Place, field: string): string {
  if (raw === undefined || raw.trim() === '') {
    throw new FixtureError('missing_field', { ...place, column: field }, `required field "${field}" is missing or empty`);
  }
  if (FORMULA_START.test(raw)) {
    throw new FixtureError(
      'formula_text',
      { ...place, column: field },
      `text field "${field}" starts with "${raw[0]}", which a spreadsheet would execute as a formula: ${JSON.stringify(raw)}`,
    );
  }
  refuseInvisible(raw, place, field);
  return raw;
}

/** The length of the UTF-8 sequence a lead byte starts, or 0 for a byte no sequence starts with. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** The offset of the first byte that is not valid UTF-8 (an overlong form, a surrogate or a code point past U+10FFFF included), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    const length = sequenceLength(lead);
    if (length === 0) return i;
    if (length === 1) {
      i += 1;
      continue;
    }
    const second = bytes[i + 1];
    // The second byte's range is narrower after E0, ED, F0 and F4: that refuses overlong forms, surrogates and code points past U+10FFFF.
    const [low, high] =
      lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k < length; k += 1) {
      const next = bytes[i + k];
      if (next === undefined || next < 0x80 || next > 0xbf) return i;
    }
    i += length;
  }
  return -1;
}

/**
 * A fixture file's text, refused rather than guessed at: the agencies publish UTF-8 (ASCII, in fact) without a
 * byte-order mark, so a mark (which would hide the first row) or a byte that is not UTF-8 (which would be published as
 * U+FFFD) stops the build with the file, line and column.
 */
export function decodeFixture(bytes: Uint8Array, file: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new FixtureError(
      'bad_encoding',
      { file, line: 1 },
      "starts with a UTF-8 byte-order mark (EF BB BF), which the agency's files do not have; remove it",
    );
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    // The decoder does not say where: find the first byte that is not UTF-8, to name its line and column.
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad !== -1) {
    let line = 1;
    let start = 0;
    for (let i = 0; i < bad; i += 1) {
      if (bytes[i] === 0x0a) {
        line += 1;
        start = i + 1;
      }
    }
    const hex = (bytes[bad] as number).toString(16).toUpperCase().padStart(2, '0');
    throw new FixtureError('bad_encoding', { file, line }, `not valid UTF-8: byte 0x${hex} at column ${bad - start + 1} (byte ${bad + 1} of the file)`);
  }
  throw new InvariantError(`${file}: the UTF-8 decoder refused bytes that the check finds valid`);
}

/** Decodes UTF-8 and refuses anything else; a byte-order mark is checked before, not stripped. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A plain decimal number as upstreams publish it: optional sign, digits, optional fraction. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A number as upstreams publish it, refused unless it is a plain decimal whose size a count or a measure can have: at
 * most Number.MAX_SAFE_INTEGER, so no value is served other than as written and nothing is sized by an absurd one.
 */
export function numeric(raw: string | undefined, place: Place, field: string): number {
  if (raw === undefined || raw.trim() === '') {
    throw new FixtureError('missing_field', { ...place, column: field }, `required field "${field}" is missing or empty`);
  }
  refuseInvisible(raw, place, field);
  const trimmed = raw.trim();
  if (!DECIMAL.test(trimmed)) {
    throw new FixtureError('not_numeric', { ...place, column: field }, `field "${field}" must be a decimal number, got ${JSON.stringify(raw)}`);
  }
  const value = Number(trimmed);
  if (!(Math.abs(value) <= Number.MAX_SAFE_INTEGER)) {
    throw new FixtureError(
      'out_of_range',
      { ...place, column: field },
      `field "${field}" is ${trimmed.slice(0, 40)}${trimmed.length > 40 ? '…' : ''}, larger than any count or measure (at most 2^53 − 1)`,
    );
  }
  return value;
}

/** The years a field may name: from the first the source publishes to the last its retrieval allows. */
export interface YearSpan {
  first: number;
  last: number;
  /** Why these are the bounds, after a colon in the message: "FHFA's indexes begin in 1975, and these files were retrieved on 2026-11-29". */
  says: string;
}

/** A calendar year written with four digits, within the span; anything else (2205, 0999, -2019, 99999, 1e30) is refused with its place. */
export function year(raw: string | undefined, place: Place, field: string, span: YearSpan): number {
  const value = numeric(raw, place, field);
  const written = (raw ?? '').trim();
  if (!/^\d{4}$/.test(written) || value < span.first || value > span.last) {
    throw new FixtureError(
      'out_of_range',
      { ...place, column: field },
      `year ${JSON.stringify(written.slice(0, 40))} is not a year from ${span.first} to ${span.last}: ${span.says}`,
    );
  }
  return value;
}

/**
 * Characters no agency writes and no reader sees, which would be taken as data (a byte-order mark before a row makes
 * it another series; a no-break space hides in a name): C0 and C1 controls but the line ends, a carriage return not
 * ending a line, the no-break and other Unicode spaces, soft hyphens, zero-width and directional marks, and U+FEFF.
 */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x00, 0x09],
  [0x0b, 0x0c],
  [0x0e, 0x1f],
  [0x7f, 0xa0],
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x61c, 0x61c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x2000, 0x200f],
  [0x2028, 0x202f],
  [0x205f, 0x206f],
  [0x3000, 0x3000],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfffb],
];
const escaped = (n: number): string => `\\u${n.toString(16).padStart(4, '0')}`;
/** Written from the ranges as escapes: a class of the characters themselves would hold controls and combining marks. */
const INVISIBLE = new RegExp(`[${INVISIBLE_RANGES.map(([a, b]) => (a === b ? escaped(a) : `${escaped(a)}-${escaped(b)}`)).join('')}]|\\r(?!\\n)`);

const codePoint = (char: string): string => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Refuses a field holding an invisible character, naming it. */
function refuseInvisible(raw: string, place: Place, field: string): void {
  const found = INVISIBLE.exec(raw);
  if (found === null) return;
  throw new FixtureError(
    'bad_encoding',
    { ...place, column: field },
    `field "${field}" holds the invisible character ${codePoint(found[0])} at position ${found.index + 1}, which the agency's files do not have; remove it`,
  );
}

/** Refuses a file holding an invisible character anywhere (rows no market reads included), naming its line and column. */
export function refuseInvisibleIn(source: string, file: string): void {
  const found = INVISIBLE.exec(source);
  if (found === null) return;
  const { line, column } = lineAndColumn(source, found.index);
  throw new FixtureError(
    'bad_encoding',
    { file, line },
    `the invisible character ${codePoint(found[0])} at column ${column}, which the agency's files do not have and a reader would not see; remove it`,
  );
}

/** The 1-based line and column of an offset into a text. */
export function lineAndColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) {
    line += 1;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** Rounds to a fixed number of decimals, half away from zero, without binary drift (1.005 → 1.01). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const shifted = Math.abs(value) * factor;
  const rounded = Math.round(Number(shifted.toPrecision(15)));
  return (Math.sign(value) * rounded) / factor || 0;
}

export interface Retrieval {
  vintage: string;
  latestReleaseDate?: string;
  /** How the release date is known (the contract's ReleaseDateBasis); absent, not said. */
  latestReleaseDateBasis?: ReleaseDateBasis;
  latestRetrievedAt?: string;
  /** Where the files' figures were read, in a sentence: the agency's downloads, or the public copies a fixture was made from. */
  readFrom?: string;
  /**
   * Which of the fixture's values are not the agency's published ones, in a sentence. Written by hand in committed
   * fixtures; `fetch` never writes it, so a real download clears every notice that reads it.
   */
  illustrative?: string;
  /** The metrics whose market values are illustrative; absent with a sentence above: every value is. */
  illustrativeMetrics?: string[];
}

/**
 * A real calendar day written YYYY-MM-DD. Date.parse alone takes 2026-02-30 for March 2, so the day must come back
 * unchanged from the date it parses to; any other spelling (2026-5-20, a time, a sign) cannot.
 */
export function isCalendarDate(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** The fields of retrieval.json: what the load reads, and the files `fetch` records. */
const RETRIEVAL_KEYS = [
  'vintage',
  'latestReleaseDate',
  'latestReleaseDateBasis',
  'latestRetrievedAt',
  'readFrom',
  'illustrative',
  'illustrativeMetrics',
  'files',
];

/** Reads `<source>/retrieval.json`: the vintage and the release and retrieval dates of the fixture. */
export function readRetrieval(read: ReadFixture, sourceDir: string): Retrieval {
  const file = `${sourceDir}/retrieval.json`;
  const source = read(file);
  const parsed = parseJson(source, file);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new FixtureError('bad_shape', { file, line: 1 }, 'expected a JSON object');
  }
  /** The place of a field: its pointer, and the line its key is on (the object's first line where the key is absent). */
  const at = (key: string): Place => {
    const found = source.indexOf(`"${key}"`);
    return { file, line: lineAndColumn(source, Math.max(0, found)).line, pointer: `/${key}` };
  };
  const record = parsed as Record<string, unknown>;
  // A misspelt key would drop what it holds without a word: only the fields below (and `fetch`'s record of its files) are read.
  const unknown = Object.keys(record).find((key) => !RETRIEVAL_KEYS.includes(key));
  if (unknown !== undefined) {
    throw new FixtureError(
      'bad_shape',
      at(unknown),
      `unknown field ${JSON.stringify(unknown)}; retrieval.json holds ${RETRIEVAL_KEYS.map((k) => `"${k}"`).join(', ')}`,
    );
  }
  const vintage = record['vintage'];
  if (typeof vintage !== 'string' || vintage === '') {
    throw new FixtureError('missing_field', at('vintage'), 'required field "vintage" is missing');
  }
  refuseInvisible(vintage, at('vintage'), 'vintage');
  const out: Retrieval = { vintage };
  for (const key of ['latestReleaseDate', 'latestRetrievedAt'] as const) {
    const value = record[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !isCalendarDate(value)) {
      throw new FixtureError('bad_shape', at(key), `"${key}" must be an ISO date (YYYY-MM-DD), got ${JSON.stringify(value)}`);
    }
    // The snapshot's date dates every entry of the download, and a zip's MS-DOS dates hold 1980 to 2107 only.
    if (value < ZIP_DATES.first || value > ZIP_DATES.last) {
      throw new FixtureError(
        'out_of_range',
        at(key),
        `"${key}" is ${value}, outside ${ZIP_DATES.first} to ${ZIP_DATES.last}: the dates a zip file can record, and the download's entries are dated by the snapshot`,
      );
    }
    out[key] = value;
  }
  if (out.latestReleaseDate !== undefined && out.latestRetrievedAt !== undefined && out.latestReleaseDate > out.latestRetrievedAt) {
    throw new FixtureError(
      'out_of_range',
      at('latestReleaseDate'),
      `"latestReleaseDate" ${out.latestReleaseDate} is after "latestRetrievedAt" ${out.latestRetrievedAt}: a release cannot be retrieved before it is published`,
    );
  }
  const basis = record['latestReleaseDateBasis'];
  if (basis !== undefined) {
    if (!isReleaseDateBasis(basis)) {
      throw new FixtureError(
        'bad_shape',
        at('latestReleaseDateBasis'),
        `"latestReleaseDateBasis" must be ${RELEASE_DATE_BASES.map((b) => `"${b}"`).join(', ')}, got ${JSON.stringify(basis)}`,
      );
    }
    if (out.latestReleaseDate === undefined) {
      throw new FixtureError('bad_shape', at('latestReleaseDateBasis'), '"latestReleaseDateBasis" says how "latestReleaseDate" is known, which is absent');
    }
    out.latestReleaseDateBasis = basis;
  }
  const readFrom = record['readFrom'];
  if (readFrom !== undefined) {
    if (typeof readFrom !== 'string' || readFrom.trim() === '')
      throw new FixtureError('bad_shape', at('readFrom'), '"readFrom" must be a sentence saying where the figures were read');
    refuseInvisible(readFrom, at('readFrom'), 'readFrom');
    out.readFrom = readFrom;
  }
  const illustrative = record['illustrative'];
  if (illustrative !== undefined) {
    if (typeof illustrative !== 'string' || illustrative.trim() === '') {
      throw new FixtureError('bad_shape', at('illustrative'), '"illustrative" must be a sentence saying which values are not published');
    }
    out.illustrative = illustrative;
  }
  const metrics = record['illustrativeMetrics'];
  if (metrics !== undefined) {
    if (out.illustrative === undefined) {
      throw new FixtureError('bad_shape', at('illustrativeMetrics'), '"illustrativeMetrics" needs the sentence "illustrative" beside it');
    }
    const ids: unknown[] = Array.isArray(metrics) ? metrics : [];
    const named = ids.filter((m): m is string => typeof m === 'string' && m !== '');
    if (named.length === 0 || named.length !== ids.length) {
      throw new FixtureError('bad_shape', at('illustrativeMetrics'), '"illustrativeMetrics" must be a list of metric ids');
    }
    out.illustrativeMetrics = named;
  }
  return out;
}

/** Parses a fixture's JSON; a syntax error names its line and column (the parser's message does not always say where). */
export function parseJson(source: string, file: string): unknown {
  try {
    return JSON.parse(source);
  } catch (error) {
    const { line, column } = lineAndColumn(source, Math.max(0, jsonErrorOffset(source)));
    // V8 quotes the start of the text after its reason; the place says where, so the quote is left out.
    const reason = (error as Error).message.replace(/, ".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
    throw new FixtureError('bad_shape', { file, line }, `not valid JSON at column ${column}: ${reason}`);
  }
}

/** The offset of the first character at which a text stops being JSON (its length where it ends too soon), scanning without recursion. */
export function jsonErrorOffset(source: string): number {
  let i = 0;
  const space = (): void => {
    while (i < source.length && ' \t\n\r'.includes(source.charAt(i))) i += 1;
  };
  // What may come next: a value, a key (or the object's end), a colon, a comma or the container's end.
  const stack: ('[' | '{')[] = [];
  let expect: 'value' | 'key' | 'colon' | 'next' | 'first' = 'value';
  for (;;) {
    space();
    if (i >= source.length) return stack.length === 0 && expect === 'next' ? -1 : source.length;
    const ch = source.charAt(i);
    if (expect === 'next' && stack.length === 0) return i;
    if (expect === 'next') {
      const top = stack.at(-1);
      if (ch === ',') {
        i += 1;
        expect = top === '{' ? 'key' : 'value';
      } else if ((ch === ']' && top === '[') || (ch === '}' && top === '{')) {
        i += 1;
        stack.pop();
      } else return i;
      continue;
    }
    if (expect === 'colon') {
      if (ch !== ':') return i;
      i += 1;
      expect = 'value';
      continue;
    }
    if (expect === 'first' && ((ch === ']' && stack.at(-1) === '[') || (ch === '}' && stack.at(-1) === '{'))) {
      i += 1;
      stack.pop();
      expect = 'next';
      continue;
    }
    if (expect === 'key' || (expect === 'first' && stack.at(-1) === '{')) {
      if (ch !== '"') return i;
      const end = stringEnd(source, i);
      if (end < 0) return -end;
      i = end;
      expect = 'colon';
      continue;
    }
    // A value.
    if (ch === '[' || ch === '{') {
      stack.push(ch);
      i += 1;
      expect = 'first';
      continue;
    }
    if (ch === '"') {
      const end = stringEnd(source, i);
      if (end < 0) return -end;
      i = end;
    } else {
      const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(source.slice(i, i + 400));
      if (literal === null) return i;
      i += literal[0].length;
    }
    expect = 'next';
  }
}

/** The offset after a JSON string starting at `start`, or minus the offset of what ends it wrongly. */
function stringEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i += 1) {
    const code = source.charCodeAt(i);
    if (code === 34) return i + 1;
    if (code < 0x20) return -i;
    if (code === 92) {
      const next = source.charAt(i + 1);
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) return -i;
        i += 5;
      } else if ('"\\/bfnrt'.includes(next) && next !== '') i += 1;
      else return -i;
    }
  }
  return -source.length;
}

/** Splits one line of comma-separated values with RFC 4180 double-quote rules. */
export function splitCsvLine(line: string, place: Place): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (quote === -1) throw new FixtureError('bad_shape', place, 'unterminated quoted field');
        value += line.slice(i, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      fields.push(value);
      if (i === line.length) return fields;
      if (line[i] !== ',') throw new FixtureError('bad_shape', place, `unexpected character after a quoted field at position ${i + 1}`);
      i += 1;
    } else {
      const comma = line.indexOf(',', i);
      if (comma === -1) {
        fields.push(line.slice(i));
        return fields;
      }
      fields.push(line.slice(i, comma));
      i = comma + 1;
    }
  }
}

/**
 * Visits each non-blank line of a text with its 1-based number, whatever the terminator, without building an array of
 * lines: national files hold tens of thousands of rows, and most are skipped after a glance.
 */
export function eachLine(source: string, visit: (raw: string, line: number) => void): void {
  let start = 0;
  let line = 0;
  while (start < source.length) {
    let end = source.indexOf('\n', start);
    if (end === -1) end = source.length;
    line += 1;
    // The character before `end` is this line's own, or the previous line's LF when the line is empty: a CR only ends a line.
    const stop = source.charCodeAt(end - 1) === 13 ? end - 1 : end;
    const raw = source.slice(start, stop);
    if (raw.trim() !== '') visit(raw, line);
    start = end + 1;
  }
}

/**
 * The 1-based line on which each element of a JSON document's top-level array starts,
 * so errors in Census API rows can name a line as well as a JSON pointer.
 */
export function arrayElementLines(source: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  // Set only at depth 1 (after the opening bracket or a comma there) and cleared by the next element's first character.
  let expectElement = false;
  for (let i = 0; i < source.length; i += 1) {
    const ch = source.charAt(i);
    if (ch === '\n') line += 1;
    if (inString) {
      if (ch === '\\') i += 1;
      else if (ch === '"') inString = false;
      continue;
    }
    if (expectElement && ch !== ']' && !/\s/.test(ch)) {
      starts.push(line);
      expectElement = false;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      depth += 1;
      if (depth === 1) expectElement = true;
    } else if (ch === ']' || ch === '}') depth -= 1;
    else if (ch === ',' && depth === 1) expectElement = true;
  }
  return starts;
}

/** A source's attribution with the release and retrieval dates its fixture records, omitted when unknown. */
export function withRetrieval(
  base: Omit<Source, 'latestReleaseDate' | 'latestRetrievedAt' | 'latestReleaseDateBasis' | 'readFrom'>,
  retrieval: Retrieval,
): Source {
  return {
    ...base,
    ...(retrieval.latestReleaseDate === undefined ? {} : { latestReleaseDate: retrieval.latestReleaseDate }),
    ...(retrieval.latestRetrievedAt === undefined ? {} : { latestRetrievedAt: retrieval.latestRetrievedAt }),
    ...(retrieval.latestReleaseDateBasis === undefined ? {} : { latestReleaseDateBasis: retrieval.latestReleaseDateBasis }),
    ...(retrieval.readFrom === undefined ? {} : { readFrom: retrieval.readFrom }),
  };
}

const CONFIDENCE_RANK: Readonly<Record<Source['confidence'], number>> = { high: 2, medium: 1, low: 0 };

/**
 * The confidence a source may claim: its own where every value is the agency's published figure, at most medium where
 * some are illustrative, low where all are.
 */
export function claimedConfidence(own: Source['confidence'], observations: readonly { illustrative?: true }[]): Source['confidence'] {
  const illustrative = observations.filter((o) => o.illustrative === true).length;
  if (illustrative === 0) return own;
  if (illustrative === observations.length) return 'low';
  return CONFIDENCE_RANK[own] > CONFIDENCE_RANK.medium ? 'medium' : own;
}

/**
 * A source's load: its attribution completed with the dataset name and the fixture's dates, each value marked
 * illustrative where retrieval.json says it is not the agency's (an illustrative value carries no margin of error:
 * the agency published none for it), and the confidence that follows.
 */
export function loadedSource<M extends string>(
  module: Pick<SourceModule<string, M>, 'sourceId' | 'attribution' | 'licence' | 'metrics'>,
  datasetName: string,
  retrieval: Retrieval,
  parts: Omit<SourceLoad<M>, 'source' | 'licence' | 'illustrative' | 'vintage'>,
): SourceLoad<M> {
  const listed = retrieval.illustrativeMetrics;
  const unknown = (listed ?? []).filter((id) => !module.metrics.some((m) => m.id === id));
  if (unknown.length > 0) {
    throw new FixtureError(
      'bad_shape',
      { file: `${module.sourceId}/retrieval.json`, pointer: '/illustrativeMetrics' },
      `${unknown.map((id) => `"${id}"`).join(', ')} ${unknown.length === 1 ? 'is not a metric' : 'are not metrics'} of ${module.sourceId} (${module.metrics.map((m) => m.id).join(', ')})`,
    );
  }
  const isIllustrative = (metricId: string): boolean => retrieval.illustrative !== undefined && (listed === undefined || listed.includes(metricId));
  const observations = parts.observations.map((o): Observation<M> => {
    if (!isIllustrative(o.metricId)) return o;
    const { marginOfError: _published, ...rest } = o;
    return { ...rest, illustrative: true };
  });
  const { sourceName, agency, sourceUrl, confidence, updateFrequency, provenance } = module.attribution;
  return {
    source: withRetrieval(
      {
        sourceId: module.sourceId,
        sourceName,
        agency,
        datasetName,
        sourceUrl,
        confidence: claimedConfidence(confidence, observations),
        updateFrequency,
        provenance,
      },
      retrieval,
    ),
    licence: module.licence,
    vintage: retrieval.vintage,
    ...parts,
    observations,
    ...(retrieval.illustrative === undefined ? {} : { illustrative: retrieval.illustrative }),
  };
}
