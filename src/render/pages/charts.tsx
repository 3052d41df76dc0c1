// Score charts as static SVG built at render time: no script, nothing the page CSP would block.
import { scaleBand, scaleLinear } from 'd3-scale';
import { displayName } from './format.ts';
import { SCORE_KEYS, scoreColor, scoreLabel, scoreOf, type ScoreKey } from './scores.ts';
import type { IndexEntry } from '../../contract/schemas.ts';
import type { ScoreValues } from '../../methodology/scores.ts';
import { GRID, INK, MUTED, pct, px, textOn } from './chart-parts.ts';

const TICKS = [0, 25, 50, 75, 100];

interface Row {
  key: string;
  label: string;
  bars: { key: ScoreKey; value: number | undefined }[];
}

/**
 * A long label takes two lines, so the label column stays narrow on a phone: "Affordability" over "(renters and
 * owners)", "Renter" over "affordability".
 */
function RowLabel({ x, y, label, labelClass }: { x: string; y: number; label: string; labelClass: string }) {
  const paren = label.indexOf(' (');
  const cut = paren !== -1 ? paren : label.length > 16 ? label.lastIndexOf(' ') : -1;
  if (cut <= 0) {
    return (
      <text x={x} dx="-8" y={y} dy="0.35em" text-anchor="end" fill={INK} class={labelClass}>
        {label}
      </text>
    );
  }
  return (
    <text x={x} dx="-8" y={y} dy="-0.2em" text-anchor="end" fill={INK} class={labelClass}>
      {label.slice(0, cut)}
      <tspan x={x} dx="-8" dy="1.15em" class="label-rest">
        {label.slice(cut + 1)}
      </tspan>
    </text>
  );
}

interface ChartProps {
  id: string;
  title: string;
  desc: string;
  rows: readonly Row[];
  /** Stylesheet class that sizes the label column (the SVG's left padding). */
  variant: 'market' | 'compare';
  barHeight: number;
  barGap: number;
  rowGap: number;
  labelClass: string;
}

function BarChart({ id, title, desc, rows, variant, barHeight, barGap, rowGap, labelClass }: ChartProps) {
  const barsPerRow = rows[0]?.bars.length ?? 1;
  const rowHeight = barsPerRow * barHeight + (barsPerRow - 1) * barGap;
  const top = 8;
  const bottom = top + rows.length * rowHeight + (rows.length - 1) * rowGap;
  // paddingInner makes each band's step exactly rowHeight + rowGap across this range.
  const y = scaleBand<string>()
    .domain(rows.map((r) => r.key))
    .range([top, bottom])
    .paddingInner(rowGap / (rowHeight + rowGap));
  const x = scaleLinear().domain([0, 100]).range([0, 88]);
  const plotBottom = bottom + 8;
  const height = plotBottom + 22;
  return (
    <svg class={`chart chart-${variant}`} width="100%" height={height} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{desc}</desc>
      <g class="grid">
        {TICKS.map((t) => (
          <g key={t}>
            <line x1={pct(x(t))} x2={pct(x(t))} y1={top - 4} y2={plotBottom} stroke={GRID} stroke-width={1} />
            <text x={pct(x(t))} y={plotBottom + 16} text-anchor="middle" fill={MUTED} class="tick">
              {t}
            </text>
          </g>
        ))}
      </g>
      {rows.map((row) => {
        const y0 = px(y(row.key) ?? 0);
        const barY = (i: number): number => px(y0 + i * (barHeight + barGap));
        const missing = row.bars.map((bar, i) => ({ bar, i })).filter(({ bar }) => bar.value === undefined);
        const firstMissing = missing[0]?.i ?? 0;
        const lastMissing = missing.at(-1)?.i ?? 0;
        return (
          <g key={row.key}>
            <RowLabel x={pct(x(0))} y={px(y0 + rowHeight / 2)} label={row.label} labelClass={labelClass} />
            {row.bars.map((bar, i) => {
              if (bar.value === undefined) return null;
              const by = barY(i);
              // A long, thick bar carries its value inside; thin bars leave room for it after their end.
              const inside = barHeight >= 16 && bar.value >= 88;
              return (
                <g key={bar.key}>
                  <rect x={pct(x(0))} y={by} width={pct(x(bar.value) - x(0))} height={barHeight} fill={scoreColor(bar.key)} rx={2} />
                  <text
                    x={pct(x(bar.value))}
                    dx={inside ? '-4' : '4'}
                    y={px(by + barHeight / 2)}
                    dy="0.35em"
                    text-anchor={inside ? 'end' : 'start'}
                    fill={inside ? textOn(scoreColor(bar.key)) : INK}
                    class="bar-value"
                  >
                    {bar.value}
                  </text>
                </g>
              );
            })}
            {missing.length === 0 ? null : (
              // Missing scores share one note centred on their slots, so thin rows never overprint.
              <text x={pct(x(0))} dx="4" y={px((barY(firstMissing) + barY(lastMissing) + barHeight) / 2)} dy="0.35em" fill={MUTED} class="bar-missing">
                {barsPerRow > 1 ? `${scoreLabel(missing.map(({ bar }) => bar.key).join(', '))}: not computed` : 'not computed'}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** Every score of a market in words, for the chart's description. */
const scoresText = (scores: ScoreValues): string => SCORE_KEYS.map((k) => `${scoreLabel(k)} ${scoreOf(scores, k) ?? 'not computed'}`).join(', ');

/** One market's scores, one bar each, on the fixed 0-100 scale. */
export function MarketScoreChart({ name, scores }: { name: string; scores: ScoreValues }) {
  return (
    <BarChart
      id="score-chart"
      title={`Scores of ${name}, 0 to 100`}
      desc={`${scoresText(scores)}. Higher is better on every score.`}
      rows={SCORE_KEYS.map((key) => ({ key, label: scoreLabel(key), bars: [{ key, value: scoreOf(scores, key) }] }))}
      variant="market"
      barHeight={22}
      barGap={0}
      rowGap={14}
      labelClass="row-label"
    />
  );
}

/** Every market's scores, grouped by market and sorted by overall score, best first. */
export function ComparisonChart({ markets }: { markets: readonly IndexEntry[] }) {
  const sorted = [...markets].sort((a, b) => (scoreOf(b.scores, 'overall') ?? -1) - (scoreOf(a.scores, 'overall') ?? -1) || (a.name < b.name ? -1 : 1));
  return (
    <BarChart
      id="comparison-chart"
      title="Scores of every market, 0 to 100, sorted by overall score"
      desc={sorted.map((m) => `${displayName(m)}: ${scoresText(m.scores)}`).join('. ') + '.'}
      rows={sorted.map((m) => ({ key: m.id, label: displayName(m), bars: SCORE_KEYS.map((key) => ({ key, value: scoreOf(m.scores, key) })) }))}
      variant="compare"
      barHeight={9}
      barGap={2}
      rowGap={14}
      labelClass="row-label small"
    />
  );
}

/** Colour swatches of the chart legend, drawn as tiny SVGs since the page allows no inline styles. */
export function Legend() {
  return (
    <ul class="legend">
      {SCORE_KEYS.map((key) => (
        <li key={key}>
          <svg width="14" height="14" aria-hidden="true" focusable="false">
            <rect width="14" height="14" rx="2" fill={scoreColor(key)} />
          </svg>
          {scoreLabel(key)}
        </li>
      ))}
    </ul>
  );
}
