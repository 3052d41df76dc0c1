// A market's figure beside its state's and the nation's, as pages say it: a mark for the significance test, a short sentence for the key figures.
import type { Comparison, Metric } from '../../contract/schemas.ts';
import { testDifference } from '../../methodology/comparisons.ts';
import { metricDefinition } from '../../methodology/metrics.ts';
import { formatNumber, formatShort } from './format.ts';

/** The mark a table writes beside a state's or the nation's figure, and the words a screen reader hears (the legend says them too). */
export interface DifferenceMark {
  symbol: string;
  words: string;
}

/** The marks in the order the legend lists them, with what each means. */
export const MARKS = {
  higher: { symbol: '\u25b2', legend: 'significantly higher' },
  lower: { symbol: '\u25bc', legend: 'significantly lower' },
  same: { symbol: '\u2248', legend: 'no significant difference' },
  one: { symbol: '=', legend: 'one area: the same figure' },
} as const;

/**
 * The test's verdict on the market's figure against another area's (the Census Bureau's, at 90 %): a mark, or none
 * where the test says nothing: a count of the whole stock (a city always has fewer homes than its state), or figures
 * without margins (FHFA's). `untested` where one side has a margin and the other none (an open-ended median).
 */
export function differenceMark(name: string, metric: Metric, c: Comparison): DifferenceMark | 'untested' | undefined {
  if (metricDefinition(metric.id)?.tested === false) return undefined;
  if (metric.marginOfError === undefined && c.marginOfError === undefined && metric.qualifier === undefined) return undefined;
  const d = testDifference(metric, c);
  if (d.verdict === 'untested') return 'untested';
  if (d.verdict === 'not different') {
    return metric.value === c.value && metric.marginOfError === c.marginOfError
      ? { symbol: MARKS.one.symbol, words: MARKS.one.legend }
      : { symbol: MARKS.same.symbol, words: MARKS.same.legend };
  }
  const mark = MARKS[d.verdict];
  return { symbol: mark.symbol, words: `${name} ${mark.legend}` };
}

/** How a sentence names an area: a state by its name, the nation with its article ("the United States"). */
export const areaName = (c: Pick<Comparison, 'level' | 'name'>): string => (c.level === 'nation' ? `the ${c.name}` : c.name);

/**
 * The market's figure against another area's in a few plain words, for a key figure: a share as the other's figure
 * ("Texas 1.6%"); an amount as how far above or below it lies ("23% above Texas, $1,403"), "about the same as" where the
 * test finds no significant difference, and "at least" where the market's figure is open-ended.
 */
export function comparedWords(metric: Metric, c: Comparison): string {
  const theirs = formatShort(metric.id, c.value);
  const where = areaName(c);
  if (metric.unit === '%' || c.value === 0) return `${where.charAt(0).toUpperCase()}${where.slice(1)} ${theirs}`;
  if (metric.value === c.value && metric.qualifier === undefined) return `the same as ${where}`;
  const verdict = metric.marginOfError === undefined || c.marginOfError === undefined ? undefined : testDifference(metric, c).verdict;
  if (verdict === 'not different') return `about the same as ${where} (${theirs})`;
  const open = metric.qualifier;
  const ours = open === undefined ? metric.value : open.edge;
  const percent = Math.round(Math.abs((ours / c.value - 1) * 100));
  const side = ours >= c.value ? 'above' : 'below';
  // An open-ended figure is known only beyond its edge: "at least" on the side the edge is bound.
  const least = open !== undefined && ((open.bound === 'lower' && side === 'above') || (open.bound === 'upper' && side === 'below')) ? 'at least ' : '';
  if (open !== undefined && least === '') return `${where} ${theirs}`;
  return `${least}${formatNumber(percent)}% ${side} ${where} (${theirs})`;
}
