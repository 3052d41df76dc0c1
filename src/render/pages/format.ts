// Formats numbers and dates for people (the API keeps raw values); every formatter is deterministic.
import { listWords } from '../../contract/words.ts';
import { metricDefinition } from '../../methodology/metrics.ts';

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number with thousands separators and a fixed count of decimals. */
export function formatNumber(value: number, decimals = 0): string {
  const key = String(decimals);
  let format = numberFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/** Decimals a metric is published with, from the methodology; unknown metrics keep up to two. */
export function metricDecimals(metricId: string, value: number): number {
  const decimals = metricDefinition(metricId)?.decimals;
  if (decimals !== undefined) return decimals;
  return Number.isInteger(value) ? 0 : 2;
}

/** A value in its unit, written the way a person reads it: "$1,843 per month", "52.0%", "3,718,427 units". */
export function formatValue(value: number, unit: string, decimals: number): string {
  return withUnit(unit, formatNumber(value, decimals), value);
}

/** A number already written ("1,843", "4,000+") in its unit's words. */
function withUnit(unit: string, n: string, value: number): string {
  switch (unit) {
    case 'USD/mo':
      return `$${n} per month`;
    case 'USD/yr':
      return `$${n} per year`;
    case 'USD':
      return `$${n}`;
    case '%':
      return `${n}%`;
    case 'index':
      return `${n} (index)`;
    case 'units':
      return `${n} ${value === 1 ? 'unit' : 'units'}`;
    default:
      return `${n} ${unit}`;
  }
}

/** The published text of an open-ended value ("4,000+"), where the agency published no figure but an interval's edge. */
export interface Qualified {
  qualifier?: { publishedAs: string } | undefined;
}

/** A value in its unit, as a person reads it; an open-ended one as the agency published it ("$4,000+ per month"), never the API's stand-in number. */
export const formatMetric = (metric: { id: string; value: number; unit: string } & Qualified): string =>
  metric.qualifier === undefined
    ? formatValue(metric.value, metric.unit, metricDecimals(metric.id, metric.value))
    : withUnit(metric.unit, metric.qualifier.publishedAs, metric.value);

/** A percentage that is already 0-100, with at most one decimal: "87.5%", "100%". */
const percentFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
export const formatPercent = (percent: number): string => `${percentFormat.format(percent)}%`;

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** An ISO date as "September 28, 2026"; the date comes from the data, never from the clock. */
export function formatDate(iso: string): string {
  const ms = Date.parse(`${iso}T00:00:00Z`);
  return Number.isNaN(ms) ? iso : dateFormat.format(ms);
}

/** "1 day", "291 days". */
export const formatDays = (days: number): string => `${formatNumber(days)} ${Math.abs(days) === 1 ? 'day' : 'days'}`;

/** Joins words as a person lists them: "a", "a and b", "a, b and c". */
export { listWords };

/** Metric labels contain commas, so a list of them quotes each: “Median gross rent” and “Housing units, total”. */
export const labelList = (labels: readonly string[]): string => listWords(labels.map((l) => `\u201c${l}\u201d`));

/** "Austin, TX": the display name the CSV uses too. */
export { displayName } from '../../contract/schemas.ts';

/**
 * A value as a chart or a dense table writes it, the unit in the column head: "$1,843", "52.0%", "386.91", "3,718,427";
 * an open-ended one as published ("$4,000+"), given its qualifier.
 */
export function formatShort(metricId: string, value: number, qualifier?: Qualified['qualifier']): string {
  const unit = metricDefinition(metricId)?.unit;
  const n = qualifier?.publishedAs ?? formatNumber(Math.abs(value), metricDecimals(metricId, value));
  const sign = value < 0 && qualifier === undefined ? '\u2212' : '';
  if (unit === 'USD/mo' || unit === 'USD/yr' || unit === 'USD') return `${sign}$${n}`;
  if (unit === '%') return `${sign}${n}%`;
  return `${sign}${n}`;
}

/** A metric's short name, for chart rows and column heads where the full label does not fit; the full label is always one link away. */
export const shortLabel = (metricId: string): string => metricDefinition(metricId)?.shortLabel ?? metricId;

/** A unit as a column head says it: "$ per month", "%"; the metric's own words where its unit alone does not say enough. */
export function unitWords(metricId: string): string {
  const metric = metricDefinition(metricId);
  if (metric === undefined) return '';
  if (metric.unitWords !== undefined) return metric.unitWords;
  switch (metric.unit) {
    case 'USD/mo':
      return '$ per month';
    case 'USD/yr':
      return '$ per year';
    case 'USD':
      return '$';
    default:
      return metric.unit;
  }
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${formatNumber(n)}${suffix}`;
}

/**
 * A source's short name for a table cell, from its full name: a run of capitalised words becomes its initials, a word in
 * capitals or with a digit stays, the rest is dropped ("American Community Survey 5-year estimates" is "ACS 5-year",
 * "FHFA House Price Index" "FHFA HPI", "Building Permits Survey" "BPS"). The full name is a link away.
 */
export function shortSourceName(name: string): string {
  const out: string[] = [];
  let initials = '';
  const flush = (): void => {
    if (initials !== '') out.push(initials);
    initials = '';
  };
  for (const word of name.split(/\s+/)) {
    if (/^[A-Z][a-z]/.test(word)) {
      initials += word.charAt(0);
      continue;
    }
    flush();
    if (/^[A-Z0-9]{2,}$|\d/.test(word)) out.push(word);
  }
  flush();
  return out.length === 0 ? name : out.join(' ');
}

/** An agency as a short phrase names it: its initials where its name is three or more capitalised words ("FHFA"), else its name. */
export function agencyShort(agency: string): string {
  const words = agency.split(/\s+/);
  return words.length >= 3 && words.every((w) => /^[A-Z][a-z]+$/.test(w)) ? words.map((w) => w.charAt(0)).join('') : agency;
}
