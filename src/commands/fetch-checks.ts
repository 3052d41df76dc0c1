// What `fetch` asks of a download beyond the build's own checks: that it publishes no less and nothing older than the fixtures it replaces, and that its Last-Modified is plausible before it dates a release.
import { comparePeriods, periodRange } from '../contract/periods.ts';
import type { SourceLoad } from '../sources/source.ts';

/** Names shown in one refusal, at most; the rest are counted. */
const SHOWN = 5;

const listed = (items: readonly string[]): string =>
  items.length <= SHOWN ? items.join(', ') : `${items.slice(0, SHOWN).join(', ')} and ${items.length - SHOWN} more`;

/** -1, 0 or 1 as period a ends before, with or after b; undefined when either is not a period label (nothing to compare). */
function compared(a: string, b: string): number | undefined {
  try {
    return comparePeriods(a, b);
  } catch {
    return undefined;
  }
}

/** What a download would take from the fixtures it replaces, in words, one reason per entry. */
export interface Regressions {
  /** Less data: a market, a market's value, or the first periods of a series, the fixtures give and the download does not. Always refused. */
  less: string[];
  /** Older data: an earlier vintage, or an earlier latest period for a market's value. Refused unless `--allow-older`. */
  older: string[];
}

/**
 * Compares one source's load of the download with its load of the current fixtures. A value the download marks as not
 * available, on a line of its own (the agency's annotation), is the agency's word, not a loss; a value with no row at all is.
 */
export function regressions(before: SourceLoad | undefined, after: SourceLoad): Regressions {
  const out: Regressions = { less: [], older: [] };
  if (before === undefined) return out;
  const key = (o: { marketId: string; metricId: string }): string => `${o.marketId} ${o.metricId}`;
  const now = new Map(after.observations.map((o) => [key(o), o]));
  const marketsAfter = new Set(after.observations.map((o) => o.marketId));
  const annotated = new Set(after.missing.filter((m) => m.origin.line !== undefined).map(key));

  const gone = [...new Set(before.observations.map((o) => o.marketId))].filter((id) => !marketsAfter.has(id)).sort();
  if (gone.length > 0)
    out.less.push(`${gone.length} ${gone.length === 1 ? 'market has' : 'markets have'} values in the fixtures and none in the download: ${listed(gone)}`);
  const lost = before.observations
    .filter((o) => marketsAfter.has(o.marketId) && !now.has(key(o)) && !annotated.has(key(o)))
    .map(key)
    .sort();
  if (lost.length > 0)
    out.less.push(
      `${lost.length} ${lost.length === 1 ? 'value' : 'values'} of the fixtures ${lost.length === 1 ? 'has' : 'have'} no row in the download: ${listed(lost)}`,
    );

  // A history that starts later lost its first periods: the series documents and the charts would publish less.
  const history = new Map(after.series.map((s) => [key(s), s.points[0]?.period]));
  const shorter = before.series.flatMap((s) => {
    const [first, start] = [s.points[0]?.period, history.get(key(s))];
    return first !== undefined && start !== undefined && compared(start, first) === 1 ? [`${key(s)} from ${first} → from ${start}`] : [];
  });
  if (shorter.length > 0)
    out.less.push(`${shorter.length} ${shorter.length === 1 ? 'series loses its' : 'series lose their'} first periods: ${listed(shorter.sort())}`);

  if (compared(after.vintage, before.vintage) === -1) out.older.push(`the download holds vintage ${after.vintage}, older than the fixtures' ${before.vintage}`);
  const earlier = before.observations.flatMap((o) => {
    const next = now.get(key(o));
    return next !== undefined && compared(next.asOf, o.asOf) === -1 ? [`${key(o)} ${o.asOf} → ${next.asOf}`] : [];
  });
  if (earlier.length > 0)
    out.older.push(`${earlier.length} ${earlier.length === 1 ? 'value goes' : 'values go'} back to an earlier period: ${listed(earlier.sort())}`);
  return out;
}

/**
 * Compares every series of the files, a market's or not (SourceModule.seriesPeriods), so the fixtures keep every row
 * they held of each series they keep. A period lost at a series' start or among its periods is less data, always
 * refused; a series that ends earlier, or is gone (a re-delineation retires a code), is what an agency's withdrawal or
 * redrawn areas look like: refused unless `--allow-older`.
 */
export function seriesRegressions(before: ReadonlyMap<string, ReadonlySet<string>> | undefined, after: ReadonlyMap<string, ReadonlySet<string>>): Regressions {
  const out: Regressions = { less: [], older: [] };
  if (before === undefined) return out;
  const sorted = (periods: Iterable<string>): string[] => [...periods].sort((a, b) => compared(a, b) ?? a.localeCompare(b));
  const gone: string[] = [];
  const holed: string[] = [];
  const ended: string[] = [];
  for (const [key, had] of before) {
    const now = after.get(key);
    if (now === undefined) {
      gone.push(key);
      continue;
    }
    const lost = sorted([...had].filter((p) => !now.has(p)));
    if (lost.length === 0) continue;
    const last = sorted(now).at(-1);
    const described = `${key} (${lost.length} of ${had.size} periods, ${lost[0] ?? ''}${lost.length > 1 ? ` to ${lost.at(-1) ?? ''}` : ''})`;
    // Every period lost comes after the download's last one: the series ends earlier. Any other loss leaves a hole or a later start.
    if (last !== undefined && lost.every((p) => compared(p, last) === 1)) ended.push(described);
    else holed.push(described);
  }
  const one = (list: readonly string[], single: string, plural: string): string => `${list.length} series of the files ${list.length === 1 ? single : plural}`;
  if (holed.length > 0) out.less.push(`${one(holed, 'loses periods it had', 'lose periods they had')}: ${listed(holed.sort())}`);
  if (ended.length > 0) out.older.push(`${one(ended, 'ends earlier than it did', 'end earlier than they did')}: ${listed(ended.sort())}`);
  if (gone.length > 0) out.older.push(`${one(gone, 'is not in the download', 'are not in the download')}: ${listed(gone.sort())}`);
  return out;
}

/**
 * A download whose last line has no line end where the fixture it replaces has one: a file cut short, whatever its
 * Content-Length said (a cut line may still parse, or belong to no market and go unread). Undefined when it is whole,
 * or when there is no fixture to compare it with.
 */
export function cutMidLine(fixture: string | undefined, download: Buffer): string | undefined {
  if (fixture === undefined || !fixture.endsWith('\n') || download.length === 0 || download[download.length - 1] === 0x0a) return undefined;
  const lastLine = download.subarray(download.lastIndexOf(0x0a) + 1);
  return `it ends mid-line (its last line, ${lastLine.length} bytes, has no line end, as every line of the fixture has)`;
}

/** How far ahead of the clock a Last-Modified may be before it is taken for a wrong clock rather than a date: one day. */
export const CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

/**
 * Whether an answer's Last-Modified can be the release date of the vintage it holds: a date, not after the time of the
 * fetch (allowing a day of clock skew), and not before the end of the period the vintage covers (no agency publishes a
 * quarter before it ends). Returns the reason it is not, or undefined when it is plausible.
 */
export function implausibleLastModified(header: string, vintage: string, now: Date): string | undefined {
  const time = Date.parse(header);
  if (Number.isNaN(time)) return 'is not an HTTP date';
  if (time > now.getTime() + CLOCK_SKEW_MS) return `is after the time of the fetch (${now.toISOString()}), by more than a day`;
  let end: string;
  try {
    end = periodRange(vintage).end;
  } catch {
    return undefined; // a vintage that is not a period label bounds nothing
  }
  if (new Date(time).toISOString().slice(0, 10) < end) return `is before the end of the period the file covers (${vintage}, ending ${end})`;
  return undefined;
}
