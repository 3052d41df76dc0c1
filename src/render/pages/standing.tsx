// Where one market stands among all the markets on each metric: every market's values, sorted once per build, and a dot strip per metric.
import { scaleLinear } from 'd3-scale';
import type { MarketProfile } from '../../contract/schemas.ts';
import { METRICS, type MetricId } from '../../methodology/metrics.ts';
import { CHART_MARKET_LIMIT, INK, MUTED, GRID, ACCENT, pct, px } from './chart-parts.ts';
import { displayName, formatNumber, formatShort, ordinal, shortLabel } from './format.ts';
import type { Site } from './site.ts';

export interface Distribution {
  metricId: MetricId;
  /** Every market's value of the metric, ascending; markets without one are left out. */
  sorted: readonly { marketId: string; name: string; value: number }[];
}

const cache = new WeakMap<Site, Map<string, Distribution>>();

/** Every market's value of a metric, sorted: computed once per site and metric, so each market page costs no more than the last. */
export function distribution(site: Site, metricId: MetricId): Distribution {
  let perSite = cache.get(site);
  if (perSite === undefined) {
    perSite = new Map();
    cache.set(site, perSite);
  }
  let d = perSite.get(metricId);
  if (d === undefined) {
    const sorted = site.profiles
      .flatMap((p) => {
        const value = p.profile.metrics[metricId]?.value;
        return value === undefined ? [] : [{ marketId: p.market.id, name: displayName(p.market), value }];
      })
      .sort((a, b) => a.value - b.value || (a.name < b.name ? -1 : 1));
    d = { metricId, sorted };
    perSite.set(metricId, d);
  }
  return d;
}

/** How many of the ascending values pass `test`, which holds for a prefix of them (a binary search). */
function prefixWhere(sorted: Distribution['sorted'], test: (v: number) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test((sorted[mid] as Distribution['sorted'][number]).value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A value's place among the markets in words: "3rd highest of 16", "lowest of 16", "tied 2nd lowest of 16". */
export function rankWords(d: Distribution, value: number): string {
  const n = d.sorted.length;
  const below = prefixWhere(d.sorted, (v) => v < value);
  const atMost = prefixWhere(d.sorted, (v) => v <= value);
  const tied = atMost - below > 1 ? 'tied ' : '';
  const fromTop = n - atMost + 1;
  const fromBottom = below + 1;
  const of = `of ${formatNumber(n)}`;
  if (fromTop <= fromBottom) return `${tied}${fromTop === 1 ? '' : `${ordinal(fromTop)} `}highest ${of}`;
  return `${tied}${fromBottom === 1 ? '' : `${ordinal(fromBottom)} `}lowest ${of}`;
}

/** The value at a fraction of the way through the sorted values, interpolated. */
export function quantile(d: Distribution, q: number): number {
  const values = d.sorted;
  if (values.length === 0) return NaN;
  const at = (values.length - 1) * q;
  const lo = Math.floor(at);
  const a = values[lo]?.value ?? 0;
  const b = values[Math.min(lo + 1, values.length - 1)]?.value ?? a;
  return a + (b - a) * (at - lo);
}

const ROW = 54;
const TOP = 6;

/**
 * One row per metric: a line from the lowest market's value to the highest's, a ring for each other market (or, beyond
 * CHART_MARKET_LIMIT markets, a band over the middle half of them), a tick at the median, and this market as a filled dot
 * with its value. Horizontal positions are percentages of each row's own range, so rows of different units share one chart.
 */
export function StandingChart({ site, profile }: { site: Site; profile: MarketProfile }) {
  const name = displayName(profile.market);
  const count = site.profiles.length;
  const rows = METRICS.map((m) => ({ metric: m, d: distribution(site, m.id) }))
    .filter((r) => r.d.sorted.length > 0)
    .map(({ metric, d }, i) => {
      const lo = d.sorted[0]?.value ?? 0;
      const hi = d.sorted.at(-1)?.value ?? 0;
      const x = scaleLinear()
        .domain(lo === hi ? [lo - 1, hi + 1] : [lo, hi])
        .range([0, 100]);
      const value = profile.profile.metrics[metric.id]?.value;
      return { metric, d, lo, hi, x, value, at: value === undefined ? undefined : x(value), line: px(TOP + i * ROW + 28) };
    });
  const height = TOP + rows.length * ROW + 4;
  const desc = rows
    .map(({ metric, d, lo, hi, value }) => {
      const range = `range ${formatShort(metric.id, lo)} to ${formatShort(metric.id, hi)}, median ${formatShort(metric.id, quantile(d, 0.5))}`;
      return `${shortLabel(metric.id)}: ${value === undefined ? 'no value' : `${formatShort(metric.id, value)}, ${rankWords(d, value)}`} (${range})`;
    })
    .join('. ');
  // Drawn layer by layer, each layer's paint on its group, so the markup repeats only positions.
  return (
    <svg class="chart chart-standing" width="100%" height={height} role="img" aria-labelledby="standing-chart-title standing-chart-desc">
      <title id="standing-chart-title">{`Where ${name} stands among the ${formatNumber(count)} markets on each metric`}</title>
      <desc id="standing-chart-desc">{`${desc}.`}</desc>
      <g transform="translate(-12,0)" text-anchor="end" fill={INK} class="row-label">
        {rows.map((r) => (
          <text key={r.metric.id} x="0" y={px(r.line + 5)}>
            {shortLabel(r.metric.id)}
          </text>
        ))}
      </g>
      <g stroke={GRID} stroke-width={2}>
        {rows.map((r) => (
          <line key={r.metric.id} x1="0" x2="100%" y1={r.line} y2={r.line} />
        ))}
      </g>
      {count > CHART_MARKET_LIMIT ? (
        // Beyond the limit, a band over the middle half of the markets stands for them.
        <g fill={GRID} stroke={MUTED} stroke-width={1}>
          {rows.map((r) => (
            <rect
              key={r.metric.id}
              x={pct(r.x(quantile(r.d, 0.25)), 1)}
              y={r.line - 6}
              width={pct(r.x(quantile(r.d, 0.75)) - r.x(quantile(r.d, 0.25)), 1)}
              height={12}
            />
          ))}
        </g>
      ) : (
        <g fill="#ffffff" stroke={MUTED} stroke-width={1.5}>
          {rows.flatMap((r) =>
            r.d.sorted
              .filter((o) => o.marketId !== profile.market.id)
              .map((o) => <circle key={`${r.metric.id} ${o.marketId}`} cx={pct(r.x(o.value), 1)} cy={r.line} r={4.5} />),
          )}
        </g>
      )}
      <g stroke={INK} stroke-width={2}>
        {rows.map((r) => {
          const median = pct(r.x(quantile(r.d, 0.5)), 1);
          return <line key={r.metric.id} x1={median} x2={median} y1={r.line - 10} y2={r.line + 10} />;
        })}
      </g>
      <g fill={ACCENT} stroke="#ffffff" stroke-width={2}>
        {rows.map((r) => (r.at === undefined ? null : <circle key={r.metric.id} cx={pct(r.at, 1)} cy={r.line} r={7} />))}
      </g>
      <g fill={INK} class="bar-value strong">
        {rows.map((r) => (
          <text
            key={r.metric.id}
            x={pct(r.at ?? 50, 1)}
            y={r.line - 14}
            text-anchor={r.at === undefined ? 'middle' : r.at < 12 ? 'start' : r.at > 88 ? 'end' : 'middle'}
          >
            {r.value === undefined ? 'no value for this market' : formatShort(r.metric.id, r.value)}
          </text>
        ))}
      </g>
      <g fill={MUTED} class="tick">
        {rows.map((r) => (
          <text key={r.metric.id} x="0" y={r.line + 19}>
            {formatShort(r.metric.id, r.lo)}
          </text>
        ))}
      </g>
      <g fill={MUTED} class="tick" text-anchor="end">
        {rows.map((r) => (
          <text key={r.metric.id} x="100%" y={r.line + 19}>
            {formatShort(r.metric.id, r.hi)}
          </text>
        ))}
      </g>
    </svg>
  );
}

/** The key to the dot strip, as tiny SVGs since the page allows no inline styles. */
export function StandingLegend({ site, name }: { site: Site; name: string }) {
  const many = site.profiles.length > CHART_MARKET_LIMIT;
  return (
    <ul class="legend">
      <li>
        <svg width="16" height="16" aria-hidden="true" focusable="false">
          <circle cx="8" cy="8" r="6" fill={ACCENT} />
        </svg>
        {name}
      </li>
      <li>
        {many ? (
          <svg width="22" height="16" aria-hidden="true" focusable="false">
            <rect x="1" y="3" width="20" height="10" fill={GRID} stroke={MUTED} stroke-width="1" />
          </svg>
        ) : (
          <svg width="16" height="16" aria-hidden="true" focusable="false">
            <circle cx="8" cy="8" r="4.5" fill="#ffffff" stroke={MUTED} stroke-width="1.5" />
          </svg>
        )}
        {many ? 'The middle half of the markets' : 'Each other market'}
      </li>
      <li>
        <svg width="10" height="16" aria-hidden="true" focusable="false">
          <line x1="5" x2="5" y1="1" y2="15" stroke={INK} stroke-width="2" />
        </svg>
        Median
      </li>
      <li>Lowest value at the left end, highest at the right</li>
    </ul>
  );
}
