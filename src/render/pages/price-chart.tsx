// The house price index of one market over every quarter the fixtures hold, with each quarter's change on a year earlier, as static SVG and as a table.
import { scaleLinear } from 'd3-scale';
import type { MetricSeries } from '../../sources/source.ts';
import { ACCENT, FALL, GRID, INK, MUTED, RISE, pct, px } from './chart-parts.ts';
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

const extremes = (points: readonly Point[], of: (p: Point) => number | undefined): { low?: Point; high?: Point } => {
  let low: Point | undefined;
  let high: Point | undefined;
  for (const p of points) {
    const v = of(p);
    if (v === undefined) continue;
    if (low === undefined || v < (of(low) ?? v)) low = p;
    if (high === undefined || v > (of(high) ?? v)) high = p;
  }
  return { ...(low === undefined ? {} : { low }), ...(high === undefined ? {} : { high }) };
};

/** The chart's description: where the index started and ended, its low and high, the latest year's change and the range of changes. */
function describePoints(points: readonly Point[], perYear: number, area: string): string {
  const valued = points.filter((p) => p.value !== undefined);
  const first = valued[0];
  const last = valued.at(-1);
  if (first === undefined || last === undefined) return `${area}: no quarter has an index value.`;
  const level = extremes(points, (p) => p.value);
  const change = extremes(points, (p) => p.change);
  const parts = [
    `${area}: the index went from ${formatIndex(first.value ?? NaN)} in ${first.period} to ${formatIndex(last.value ?? NaN)} in ${last.period}`,
    `its low was ${formatIndex(level.low?.value ?? NaN)} (${level.low?.period ?? ''}) and its high ${formatIndex(level.high?.value ?? NaN)} (${level.high?.period ?? ''})`,
  ];
  const before = points[points.length - 1 - perYear];
  if (last.change !== undefined && before !== undefined)
    parts.push(`over the latest year, ${before.period} to ${last.period}, it changed ${formatChange(last.change)}`);
  if (change.low !== undefined && change.high !== undefined)
    parts.push(
      `the change on a year earlier ranged from ${formatChange(change.low.change ?? NaN)} (${change.low.period}) to ${formatChange(change.high.change ?? NaN)} (${change.high.period})`,
    );
  return `${parts.join('; ')}. Every quarter's value is in the table below the chart.`;
}

const one = (n: number): number => Number(n.toFixed(1));

/** A polyline in a 0-1000 wide user space, broken where a quarter has no value. */
function linePath(points: readonly Point[], from: number, x: (i: number) => number, y: (v: number) => number): string {
  let d = '';
  let pen = false;
  for (let i = from; i < points.length; i += 1) {
    const v = points[i]?.value;
    if (v === undefined) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${one(x(i))} ${one(y(v))}`;
    pen = true;
  }
  return d;
}

/** Bars from the zero line, one subpath each, in the same 0-1000 wide user space. */
function barsPath(points: readonly Point[], sign: 1 | -1, x: (i: number) => number, width: number, y: (v: number) => number): string {
  let d = '';
  const zero = y(0);
  for (let i = 0; i < points.length; i += 1) {
    const c = points[i]?.change;
    if (c === undefined || Math.sign(c) !== sign) continue;
    const top = Math.min(y(c), zero);
    const h = Math.max(Math.abs(y(c) - zero), 0.5);
    d += `M${one(x(i) - width / 2)} ${one(top)}h${one(width)}v${one(h)}h${-one(width)}z`;
  }
  return d;
}

const TOP = 40;
const BOTTOM = 210;
const TOP2 = 262;
const BOTTOM2 = 336;
const HEIGHT = BOTTOM2 + 30;

/**
 * The plot's width on a 375 px phone, the narrowest the pages are laid out for (375 less the page's 1rem padding each
 * side and .chart-price's 2.75rem and 0.25rem), and at its widest (.chart-price's 52rem less the same 3rem). A label
 * anchored at the right edge covers the largest share of the time axis at the narrowest width, so a place clear of the
 * line there is clear at every wider one.
 */
export const PLOT_WIDTHS = { narrowest: 375 - 32 - 48, widest: 832 - 48 } as const;
/** .chart .annotation's font size in the stylesheet, px. */
const ANNOTATION_FONT = 13;
/** Where the panel title sits ("Index, 1995 Q1 = 100", bold, left): the label stays below it where the two would meet. */
const TITLE_Y = TOP - 24;
const TITLE_TEXT = 'Index, 1995 Q1 = 100';
/** Room between the label's box and the line below it: the latest dot's radius (5) and a pixel. */
const LABEL_GAP = 6;

/**
 * The box a label of the latest value takes, from its baseline: generous estimates of the browser's text (0.64 em a
 * character, bold or not; an ascent of 0.95 em; a second line 1.25 em lower with its descent), plus the 2 px white halo.
 */
export function latestLabelBox(lines: readonly string[], baseline: number): { width: number; top: number; bottom: number } {
  const em = ANNOTATION_FONT;
  return {
    width: Math.max(0, ...lines.map((l) => l.length)) * em * 0.64 + 4,
    top: baseline - em * 0.95 - 2,
    bottom: baseline + em * (0.3 + 1.25 * Math.max(lines.length - 1, 0)) + 2,
  };
}

/** The smallest y (the highest point) the line reaches from `from` (a fraction of the time axis) to its end, gaps left out. */
function highestFrom(points: readonly Point[], from: number, at: (i: number) => number, y: (v: number) => number): number {
  let top = Infinity;
  for (let i = 0; i < points.length; i += 1) {
    const v = points[i]?.value;
    if (v === undefined) continue;
    const x = at(i) / 100;
    if (x >= from) top = Math.min(top, y(v));
    // The segment that crosses `from` counts where it crosses.
    const next = points[i + 1]?.value;
    const nx = at(i + 1) / 100;
    if (next !== undefined && x < from && nx > from) top = Math.min(top, y(v + ((next - v) * (from - x)) / (nx - x)));
  }
  return top;
}

/**
 * Where the latest value's label goes: right-aligned at the chart's edge, just above the highest point the line reaches
 * under the label at the narrowest width (so no part of the line passes through it at any width), and below the panel
 * title where the two would meet. Where the panel has no room above the line for it, the value scale gives up the room
 * at its top (`plotTop`, returned): the line is drawn lower rather than through the label.
 */
function placeLatestLabel(
  points: readonly Point[],
  lines: readonly string[],
  at: (i: number) => number,
  scale: (plotTop: number) => (v: number) => number,
): { plotTop: number; baseline: number } {
  const probe = latestLabelBox(lines, 0);
  const from = Math.max(0, 1 - probe.width / PLOT_WIDTHS.narrowest);
  const titleWidth = TITLE_TEXT.length * ANNOTATION_FONT * 0.64;
  const minTop = PLOT_WIDTHS.narrowest - probe.width < titleWidth ? TITLE_Y + ANNOTATION_FONT * 0.3 + 2 : 0;
  // Baseline to box: the box's bottom is `probe.bottom` below the baseline and its top `-probe.top` above it.
  const baselineOver = (lineTop: number): number => lineTop - LABEL_GAP - probe.bottom;
  let plotTop = TOP;
  const high = highestFrom(points, from, at, scale(plotTop));
  if (!Number.isFinite(high)) return { plotTop, baseline: TOP };
  if (baselineOver(high) + probe.top < minTop) {
    // The highest point is `share` of the way up the scale; lower the scale's top until the label fits above it.
    const share = (BOTTOM - high) / (BOTTOM - TOP);
    const room = minTop - probe.top + probe.bottom + LABEL_GAP;
    plotTop = share === 0 ? TOP : Math.max(TOP, BOTTOM - (BOTTOM - room) / share);
  }
  return { plotTop, baseline: baselineOver(highestFrom(points, from, at, scale(plotTop))) };
}

/**
 * Two panels over one time axis: the index (the latest year drawn thicker, in the accent colour, its two ends marked
 * and the change written beside them), and under it each quarter's change on a year earlier, rises and falls in two
 * colours. The lines and bars live in a nested SVG whose 0-1000 user space stretches to the chart's width
 * (preserveAspectRatio none, strokes kept at their width); text and dots stay in the outer SVG, positioned in percent.
 */
export function PriceIndexChart({ series, area }: { series: MetricSeries; area: string }) {
  const points = pointsOf(series);
  const n = points.length;
  const values = points.flatMap((p) => (p.value === undefined ? [] : [p.value]));
  const changes = points.flatMap((p) => (p.change === undefined ? [] : [p.change]));
  const last = n - 1;
  const yearBefore = last - series.perYear;
  const at = (i: number): number => (n === 1 ? 50 : (i / (n - 1)) * 100);
  const vx = (i: number): number => at(i) * 10;
  const scale = (plotTop: number) =>
    scaleLinear()
      .domain([Math.min(...values), Math.max(...values)])
      .range([BOTTOM, plotTop])
      .nice(4);
  const yc = scaleLinear()
    .domain([Math.min(0, ...changes), Math.max(0, ...changes)])
    .range([BOTTOM2, TOP2])
    .nice(3);
  const latest = points[last];
  const before = points[yearBefore];
  const years = [...new Set(points.map((p) => Number(p.period.slice(0, 4))))];
  const span = (years.at(-1) ?? 0) - (years[0] ?? 0);
  const step = span > 30 ? 10 : 5;
  const yearTicks = points.flatMap((p, i) => (p.period.endsWith('Q1') && Number(p.period.slice(0, 4)) % step === 0 ? [{ year: p.period.slice(0, 4), i }] : []));
  const labelLines =
    latest?.value === undefined
      ? []
      : [
          `${latest.period}: ${formatIndex(latest.value)}`,
          ...(latest.change === undefined || before === undefined ? [] : [`${formatChange(latest.change)} on ${before.period}`]),
        ];
  const { plotTop, baseline: labelY } = placeLatestLabel(points, labelLines, at, scale);
  const y = scale(plotTop);
  const latestY = latest?.value === undefined ? undefined : y(latest.value);
  const barWidth = Math.max((1000 / Math.max(n, 1)) * 0.7, 1);
  return (
    <svg class="chart chart-price" width="100%" height={HEIGHT} role="img" aria-labelledby="price-chart-title price-chart-desc">
      <title id="price-chart-title">{`House price index of ${area}, ${points[0]?.period ?? ''} to ${latest?.period ?? ''} (1995 Q1 = 100), and each quarter's change on a year earlier`}</title>
      <desc id="price-chart-desc">{describePoints(points, series.perYear, area)}</desc>
      <text x="0" y={TITLE_Y} fill={INK} class="panel-title">
        {TITLE_TEXT}
      </text>
      {y.ticks(4).map((t) => (
        <g key={`y${t}`}>
          <line x1="0" x2="100%" y1={px(y(t))} y2={px(y(t))} stroke={GRID} stroke-width={1} />
          <text x="0" dx="-6" y={px(y(t))} dy="0.35em" text-anchor="end" fill={MUTED} class="tick">
            {formatNumber(t)}
          </text>
        </g>
      ))}
      <text x="0" y={TOP2 - 14} fill={INK} class="panel-title">
        Change on a year earlier, %
      </text>
      {yc.ticks(3).map((t) => (
        <g key={`c${t}`}>
          <line x1="0" x2="100%" y1={px(yc(t))} y2={px(yc(t))} stroke={t === 0 ? MUTED : GRID} stroke-width={1} />
          <text x="0" dx="-6" y={px(yc(t))} dy="0.35em" text-anchor="end" fill={MUTED} class="tick">
            {t === 0 ? '0' : formatChange(t, Number.isInteger(t) ? 0 : 1)}
          </text>
        </g>
      ))}
      {yearTicks.map(({ year, i }) => (
        <g key={year}>
          <line x1={pct(at(i))} x2={pct(at(i))} y1={TOP} y2={BOTTOM2} stroke={GRID} stroke-width={1} stroke-dasharray="2 3" />
          <text x={pct(at(i))} y={BOTTOM2 + 18} text-anchor="middle" fill={MUTED} class="tick">
            {year}
          </text>
        </g>
      ))}
      <svg x="0" y="0" width="100%" height={HEIGHT} viewBox={`0 0 1000 ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        <path d={linePath(points, 0, vx, y)} fill="none" stroke={MUTED} stroke-width={2} vector-effect="non-scaling-stroke" stroke-linejoin="round" />
        {before?.value === undefined ? null : (
          <path
            d={linePath(points, yearBefore, vx, y)}
            fill="none"
            stroke={ACCENT}
            stroke-width={4}
            vector-effect="non-scaling-stroke"
            stroke-linejoin="round"
          />
        )}
        <path d={barsPath(points, 1, vx, barWidth, yc)} fill={RISE} />
        <path d={barsPath(points, -1, vx, barWidth, yc)} fill={FALL} />
      </svg>
      {before?.value === undefined ? null : <circle cx={pct(at(yearBefore))} cy={px(y(before.value))} r={4} fill="#ffffff" stroke={ACCENT} stroke-width={2} />}
      {latest?.value === undefined || latestY === undefined ? null : (
        <>
          <circle cx={pct(at(last))} cy={px(latestY)} r={5} fill={ACCENT} />
          <text x="100%" y={px(labelY)} text-anchor="end" fill={INK} class="annotation" stroke="#ffffff" stroke-width={4} paint-order="stroke">
            <tspan class="strong">{labelLines[0]}</tspan>
            {labelLines[1] === undefined ? null : (
              <tspan x="100%" dy="1.25em">
                {labelLines[1]}
              </tspan>
            )}
          </text>
        </>
      )}
    </svg>
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
