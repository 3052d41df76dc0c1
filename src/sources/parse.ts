// Shared checks for raw fixture fields, so every adapter rejects bad input the same way.
import { FixtureError, InvariantError, type Place } from '../contract/errors.ts';
import type { Source } from '../contract/schemas.ts';
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

export function numeric(raw: string | undefined, place: Place, field: string): number {
  if (raw === undefined || raw.trim() === '') {
    throw new FixtureError('missing_field', { ...place, column: field }, `required field "${field}" is missing or empty`);
  }
  const trimmed = raw.trim();
  if (!DECIMAL.test(trimmed)) {
    throw new FixtureError('not_numeric', { ...place, column: field }, `field "${field}" must be a decimal number, got ${JSON.stringify(raw)}`);
  }
  return Number(trimmed);
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
  latestRetrievedAt?: string;
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

/** Reads `<source>/retrieval.json`: the vintage and the release and retrieval dates of the fixture. */
export function readRetrieval(read: ReadFixture, sourceDir: string): Retrieval {
  const file = `${sourceDir}/retrieval.json`;
  const parsed = parseJson(read(file), file);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new FixtureError('bad_shape', { file }, 'expected a JSON object');
  }
  const record = parsed as Record<string, unknown>;
  const vintage = record['vintage'];
  if (typeof vintage !== 'string' || vintage === '') {
    throw new FixtureError('missing_field', { file, pointer: '/vintage' }, 'required field "vintage" is missing');
  }
  const out: Retrieval = { vintage };
  for (const key of ['latestReleaseDate', 'latestRetrievedAt'] as const) {
    const value = record[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !isCalendarDate(value)) {
      throw new FixtureError('bad_shape', { file, pointer: `/${key}` }, `"${key}" must be an ISO date (YYYY-MM-DD), got ${JSON.stringify(value)}`);
    }
    out[key] = value;
  }
  const illustrative = record['illustrative'];
  if (illustrative !== undefined) {
    if (typeof illustrative !== 'string' || illustrative.trim() === '') {
      throw new FixtureError('bad_shape', { file, pointer: '/illustrative' }, '"illustrative" must be a sentence saying which values are not published');
    }
    out.illustrative = illustrative;
  }
  const metrics = record['illustrativeMetrics'];
  if (metrics !== undefined) {
    if (out.illustrative === undefined) {
      throw new FixtureError('bad_shape', { file, pointer: '/illustrativeMetrics' }, '"illustrativeMetrics" needs the sentence "illustrative" beside it');
    }
    const ids: unknown[] = Array.isArray(metrics) ? metrics : [];
    const named = ids.filter((m): m is string => typeof m === 'string' && m !== '');
    if (named.length === 0 || named.length !== ids.length) {
      throw new FixtureError('bad_shape', { file, pointer: '/illustrativeMetrics' }, '"illustrativeMetrics" must be a list of metric ids');
    }
    out.illustrativeMetrics = named;
  }
  return out;
}

export function parseJson(source: string, file: string): unknown {
  try {
    return JSON.parse(source);
  } catch (error) {
    throw new FixtureError('bad_shape', { file }, `not valid JSON: ${(error as Error).message}`);
  }
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
export function withRetrieval(base: Omit<Source, 'latestReleaseDate' | 'latestRetrievedAt'>, retrieval: Retrieval): Source {
  return {
    ...base,
    ...(retrieval.latestReleaseDate === undefined ? {} : { latestReleaseDate: retrieval.latestReleaseDate }),
    ...(retrieval.latestRetrievedAt === undefined ? {} : { latestRetrievedAt: retrieval.latestRetrievedAt }),
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
