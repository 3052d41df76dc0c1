// House prices over time: the market's index beside its state's and the nation's on one chart, each rebased to one start quarter, as static SVG; and every quarter of the market's index as a table.
import { scaleLinear } from 'd3-scale';
import type { Area } from '../../contract/geography.ts';
import type { MetricSeries, SeriesPoint } from '../../sources/source.ts';
import { ACCENT, GRID, INK, MUTED, pct, px } from './chart-parts.ts';
import { formatNumber } from './format.ts';

interface Point {
  period: string;
  value: number | undefined;
  /** Change on the point a year earlier, %, one decimal; undefined where either has no value. */
  change: number | undefined;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

function pointsOf(series: MetricSeries): Point[] {
  return series.points.map((p, i) => {
    const before = series.points[i - series.perYear]?.value;
    return { ...p, change: p.value === undefined || before === undefined ? undefined : round1((p.value / before - 1) * 100) };
  });
}

export const formatIndex = (n: number): string => formatNumber(n, 2);
/** A change with its sign and a true minus: "+2.4%", "−0.3%", "0.0%". */
export const formatChange = (n: number, decimals = 1): string => `${n > 0 ? '+' : n < 0 ? '\u2212' : ''}${formatNumber(Math.abs(n), decimals)}%`;

/** The quarter every line is rebased to when all of them have it: the same start on every market page, so the charts compare. */
export const REBASE_PERIOD = '2000 Q1';

/** One line of the chart: an area's index, rebased to 100 at the chart's start quarter. */
export interface IndexLine {
  /** The end label and the legend's key: "Metro", "TX", "US". */
  short: string;
  /** The area in words, for the legend and the description. */
  name: string;
  kind: 'market' | 'state' | 'nation';
  /** Rebased values, one per quarter of the chart's axis; undefined where the area has no value. */
  values: readonly (number | undefined)[];
}

export interface RebasedIndexes {
  base: string;
  periods: readonly string[];
  lines: readonly IndexLine[];
}

const byPeriod = (points: readonly SeriesPoint[]): Map<string, number> =>
  new Map(points.flatMap((p) => (p.value === undefined ? [] : [[p.period, p.value] as const])));

/**
 * The market's index and those of the areas that hold it, over the market's quarters from the start quarter on, each
 * divided by its own value at the start and multiplied by 100. The start is REBASE_PERIOD where every line has a value
 * there, else the first quarter where all of them have one. Undefined when no quarter has every line.
 */
export function rebaseIndexes(series: MetricSeries, marketShort: string, marketName: string): RebasedIndexes | undefined {
  const own = byPeriod(series.points);
  const around = (series.comparisons ?? []).map((c) => ({ area: c.area, values: byPeriod(c.points) }));
  const all = [own, ...around.map((a) => a.values)];
  const periods = series.points.map((p) => p.period);
  const has = (period: string): boolean => all.every((m) => m.has(period));
  const base = has(REBASE_PERIOD) ? REBASE_PERIOD : periods.find(has);
  if (base === undefined) return undefined;
  const axis = periods.slice(periods.indexOf(base));
  const rebased = (values: Map<string, number>): (number | undefined)[] => {
    const start = values.get(base) ?? NaN;
    return axis.map((period) => {
      const v = values.get(period);
      return v === undefined ? undefined : (v / start) * 100;
    });
  };
  const shortOf = (area: Area): string => (area.level === 'nation' ? 'US' : (area.states[0] ?? area.name));
  return {
    base,
    periods: axis,
    lines: [
      { short: marketShort, name: marketName, kind: 'market', values: rebased(own) },
      ...around.map((a): IndexLine => ({
        short: shortOf(a.area),
        name: a.area.level === 'nation' ? 'the United States' : a.area.name,
        kind: a.area.level === 'nation' ? 'nation' : 'state',
        values: rebased(a.values),
      })),
    ],
  };
}

/** How each kind of line is drawn: told apart by width and dashes as well as colour. */
export const LINE_STYLES = {
  market: { stroke: ACCENT, width: 3.5, dash: undefined },
  state: { stroke: MUTED, width: 2, dash: undefined },
  nation: { stroke: INK, width: 1.75, dash: '5 4' },
} as const;

const one = (n: number): number => Number(n.toFixed(1));

/** A polyline in a 0-1000 wide user space, broken where a quarter has no value. */
function linePath(values: readonly (number | undefined)[], x: (i: number) => number, y: (v: number) => number): string {
  let d = '';
  let pen = false;
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    if (v === undefined) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${one(x(i))} ${one(y(v))}`;
    pen = true;
  }
  return d;
}

const TOP = 16;
const BOTTOM = 196;
const HEIGHT = BOTTOM + 28;
/** .chart .annotation's font size in the stylesheet, px: end labels are kept at least a line apart. */
export const END_LABEL_LINE = 15;

/**
 * Where each line's end label goes: beside its last value, moved apart where two would meet (each at least a line
 * below the one above it), and kept inside the plot's height. Returned in the lines' order.
 */
export function placeEndLabels(ends: readonly number[], top = TOP, bottom = BOTTOM + 8): number[] {
  const order = ends.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
  for (let k = 1; k < order.length; k += 1) {
    const prev = order[k - 1];
    const cur = order[k];
    if (prev !== undefined && cur !== undefined && cur.y < prev.y + END_LABEL_LINE) cur.y = prev.y + END_LABEL_LINE;
  }
  // Pushed past the bottom: shift the stack up, then keep the first at the top.
  const last = order.at(-1);
  if (last !== undefined && last.y > bottom) {
    const shift = last.y - bottom;
    for (const o of order) o.y -= shift;
  }
  const first = order[0];
  if (first !== undefined && first.y < top) {
    const shift = top - first.y;
    for (const o of order) o.y += shift;
  }
  const out = new Array<number>(ends.length);
  for (const o of order) out[o.i] = o.y;
  return out;
}

const lastValue = (values: readonly (number | undefined)[]): { i: number; v: number } | undefined => {
  for (let i = values.length - 1; i >= 0; i -= 1) {
    const v = values[i];
    if (v !== undefined) return { i, v };
  }
  return undefined;
};

/** What the chart shows in words: each line from the start to its latest quarter. */
function describe(r: RebasedIndexes): string {
  const latest = r.periods.at(-1) ?? '';
  return `${r.lines
    .map((l) => {
      const end = lastValue(l.values);
      return `${l.name} (${l.short}): ${end === undefined ? 'no value' : `${formatIndex(end.v)} in ${r.periods[end.i] ?? latest}`}`;
    })
    .join('; ')}. Each index is 100 in ${r.base}. Every quarter's value is in the series CSV.`;
}

/**
 * One chart, one time axis: the market's index (thick, in the accent colour), its state's (grey) and the nation's
 * (dashed), each 100 at the start quarter, so the lines say how far prices moved since then in each area. Lines live in
 * a nested SVG whose 0-1000 user space stretches to the chart's width (preserveAspectRatio none, strokes kept at their
 * width); text stays in the outer SVG, in percent, the end labels in the right padding beside each line's end.
 */
export function PriceIndexChart({ rebased, area }: { rebased: RebasedIndexes; area: string }) {
  const n = rebased.periods.length;
  const values = rebased.lines.flatMap((l) => l.values.filter((v): v is number => v !== undefined));
  const y = scaleLinear()
    .domain([Math.min(100, ...values), Math.max(100, ...values)])
    .range([BOTTOM, TOP])
    .nice(4);
  const at = (i: number): number => (n === 1 ? 50 : (i / (n - 1)) * 100);
  const vx = (i: number): number => at(i) * 10;
  const years = [...new Set(rebased.periods.map((p) => Number(p.slice(0, 4))))];
  const span = (years.at(-1) ?? 0) - (years[0] ?? 0);
  const step = span > 30 ? 10 : 5;
  const yearTicks = rebased.periods.flatMap((p, i) => (p.endsWith('Q1') && Number(p.slice(0, 4)) % step === 0 ? [{ year: p.slice(0, 4), i }] : []));
  const ends = rebased.lines.map((l) => lastValue(l.values));
  const labelYs = placeEndLabels(ends.map((e) => (e === undefined ? BOTTOM : y(e.v))));
  const first = rebased.periods[0] ?? '';
  const latest = rebased.periods.at(-1) ?? '';
  return (
    <svg class="chart chart-price" width="100%" height={HEIGHT} role="img" aria-labelledby="price-chart-title price-chart-desc">
      <title id="price-chart-title">{`House prices in ${area}, ${rebased.lines
        .slice(1)
        .map((l) => l.name)
        .join(' and ')}, ${first} to ${latest} (${rebased.base} = 100)`}</title>
      <desc id="price-chart-desc">{describe(rebased)}</desc>
      {y.ticks(4).map((t) => (
        <g key={`y${t}`}>
          <line x1="0" x2="100%" y1={px(y(t))} y2={px(y(t))} stroke={t === 100 ? MUTED : GRID} stroke-width={1} />
          <text x="0" dx="-6" y={px(y(t))} dy="0.35em" text-anchor="end" fill={MUTED} class="tick">
            {formatNumber(t)}
          </text>
        </g>
      ))}
      {yearTicks.map(({ year, i }) => (
        <g key={year}>
          <line x1={pct(at(i))} x2={pct(at(i))} y1={TOP} y2={BOTTOM} stroke={GRID} stroke-width={1} stroke-dasharray="2 3" />
          <text x={pct(at(i))} y={BOTTOM + 18} text-anchor="middle" fill={MUTED} class="tick">
            {year}
          </text>
        </g>
      ))}
      <svg x="0" y="0" width="100%" height={HEIGHT} viewBox={`0 0 1000 ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        {[...rebased.lines].reverse().map((l) => {
          const style = LINE_STYLES[l.kind];
          return (
            <path
              key={l.short}
              d={linePath(l.values, vx, y)}
              fill="none"
              stroke={style.stroke}
              stroke-width={style.width}
              stroke-dasharray={style.dash}
              vector-effect="non-scaling-stroke"
              stroke-linejoin="round"
            />
          );
        })}
      </svg>
      <g class="annotation">
        {rebased.lines.map((l, k) => {
          const end = ends[k];
          return end === undefined ? null : (
            <text key={l.short} x="100%" dx="6" y={px(labelYs[k] ?? 0)} dy="0.35em" fill={INK} class={l.kind === 'market' ? 'strong' : undefined}>
              {`${l.short} ${formatNumber(end.v)}`}
            </text>
          );
        })}
      </g>
    </svg>
  );
}

/** The key to the lines, as small SVG swatches drawn as the lines are. */
export function PriceLegend({ rebased }: { rebased: RebasedIndexes }) {
  return (
    <ul class="legend">
      {rebased.lines.map((l) => {
        const style = LINE_STYLES[l.kind];
        return (
          <li key={l.short}>
            <svg width="28" height="10" aria-hidden="true" focusable="false">
              <line x1="1" x2="27" y1="5" y2="5" stroke={style.stroke} stroke-width={style.width} stroke-dasharray={style.dash} />
            </svg>
            <span>
              <strong>{l.short}</strong> {l.name}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function NoValue() {
  return (
    <>
      <span aria-hidden="true">–</span>
      <span class="visually-hidden">no index value</span>
    </>
  );
}

/** Every quarter's index and change, a row per year, for readers of numbers and of screen readers. */
export function PriceIndexTable({ series, area }: { series: MetricSeries; area: string }) {
  const points = pointsOf(series);
  const byYear = new Map<string, Point[]>();
  for (const p of points) {
    const year = p.period.slice(0, 4);
    byYear.set(year, [...(byYear.get(year) ?? []), p]);
  }
  const quarters = ['Q1', 'Q2', 'Q3', 'Q4'];
  return (
    <table class="compact">
      <caption>House price index of {area} by quarter (1995 Q1 = 100), and the change of each year's last quarter on a year earlier</caption>
      <thead>
        <tr>
          <th scope="col">Year</th>
          {quarters.map((q) => (
            <th key={q} scope="col" class="num">
              {q}
            </th>
          ))}
          <th scope="col" class="num">
            Change
          </th>
        </tr>
      </thead>
      <tbody>
        {[...byYear.entries()].reverse().map(([year, ps]) => {
          const lastOfYear = [...ps].reverse().find((p) => p.value !== undefined);
          return (
            <tr key={year}>
              <th scope="row">{year}</th>
              {quarters.map((q) => {
                // A quarter before the series starts is blank; one inside it without a value (FHFA's "-") says so.
                const p = ps.find((x) => x.period.endsWith(q));
                return <td key={q}>{p === undefined ? '' : p.value === undefined ? <NoValue /> : formatIndex(p.value)}</td>;
              })}
              <td>
                {lastOfYear?.change === undefined
                  ? ''
                  : `${formatChange(lastOfYear.change)}${lastOfYear.period.endsWith('Q4') ? '' : ` (${lastOfYear.period.slice(5)})`}`}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
