// Where one market stands among all the markets on each metric, and by what: every market's values, sorted once per build, and a dot strip per metric.
import { scaleLinear } from 'd3-scale';
import type { MarketProfile } from '../../contract/schemas.ts';
import { metricDefinition, valuesOf, type MetricId, type Values } from '../../methodology/metrics.ts';
import { DERIVED_INPUTS, scoreInputs, thresholdDefinition } from '../../methodology/scores.ts';
import { CHART_MARKET_LIMIT, INK, MUTED, GRID, ACCENT, pct, px } from './chart-parts.ts';
import { displayName, formatNumber, formatShort, ordinal, shortLabel } from './format.ts';
import type { Site } from './site.ts';

/** What a metric's place among the markets is measured by: its own value, or a figure that compares markets of different sizes. */
export interface Basis {
  /** The metric's own id, or the id of what stands in for it. */
  key: string;
  /** The value a market is placed by. */
  of: (values: Values) => number | undefined;
  format: (n: number) => string;
  /** The strip's row label and, under it, what the row measures where that is not the metric itself. */
  label: string;
  sub?: string;
  /** How a rank says what it is by ("by new units authorized per 1,000 existing units"); empty for the metric itself. */
  by: string;
  /** Why the metric is not compared by its own value. */
  why?: string;
}

/**
 * A count of permits grows with the city, so permits are compared per 1,000 existing housing units (the supply score's
 * own derived input, read through scoreInputs); the price index is 100 in 1995 Q1 in every area, so its level says how
 * far prices rose since then, and it is compared by the year's change instead. Every other metric by its own value.
 */
const BASES: Partial<Record<MetricId, Basis>> = {
  permits: {
    key: 'permitsPerThousand',
    of: (v) => scoreInputs(v).permitsPerThousand,
    format: (n) => formatNumber(n, 1),
    label: shortLabel('permits'),
    sub: `per ${formatNumber(DERIVED_INPUTS.permitsPerThousand.after)} units`,
    by: `by ${thresholdDefinition('permitsPerThousand').phrase}`,
    why: 'a count of permits grows with the size of the city',
  },
  homePriceIndex: {
    key: 'homePriceChange',
    of: (v) => v.homePriceChange,
    format: (n) => formatShort('homePriceChange', n),
    label: shortLabel('homePriceChange'),
    by: `by ${metricDefinition('homePriceChange')?.noun ?? 'the year-over-year change'}`,
    why: 'the index is 100 in 1995 Q1 in every area, so its level says only how far prices rose since then',
  },
};

export function basisOf(metricId: MetricId): Basis {
  return (
    BASES[metricId] ?? {
      key: metricId,
      of: (v) => v[metricId],
      format: (n) => formatShort(metricId, n),
      label: shortLabel(metricId),
      by: '',
    }
  );
}

/** The metrics not compared by their own value, each with what it is compared by and why, for the words beside the chart. */
export function basisNotes(site: Site): { metricId: MetricId; noun: string; by: string; why: string }[] {
  return site.metrics.flatMap((m) => {
    const b = BASES[m.id];
    return b === undefined ? [] : [{ metricId: m.id, noun: m.noun, by: b.by, why: b.why ?? '' }];
  });
}

export interface Distribution {
  basis: Basis;
  /** Every market's value on the basis, ascending; markets without one are left out. */
  sorted: readonly { marketId: string; name: string; value: number }[];
  /** The same values by market id, so a market page finds its own without a pass over every market. */
  byMarket: ReadonlyMap<string, number>;
}

const cache = new WeakMap<Site, Map<string, Omit<Distribution, 'basis'>>>();

/**
 * Every market's value on a metric's basis, sorted: computed once per site and basis (the price index and the price
 * change share one), so each market page costs no more than the last.
 */
export function distribution(site: Site, metricId: MetricId): Distribution {
  const basis = basisOf(metricId);
  let perSite = cache.get(site);
  if (perSite === undefined) {
    perSite = new Map();
    cache.set(site, perSite);
  }
  let made = perSite.get(basis.key);
  if (made === undefined) {
    const sorted = site.profiles
      .flatMap((p) => {
        const value = basis.of(valuesOf(p.profile.metrics));
        return value === undefined ? [] : [{ marketId: p.market.id, name: displayName(p.market), value }];
      })
      .sort((a, b) => a.value - b.value || (a.name < b.name ? -1 : 1));
    made = { sorted, byMarket: new Map(sorted.map((e) => [e.marketId, e.value])) };
    perSite.set(basis.key, made);
  }
  return { basis, ...made };
}

/** How many of the ascending values pass `test`, which holds for a prefix of them (a binary search). */
function prefixWhere(sorted: Distribution['sorted'], test: (v: number) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const item = sorted[mid];
    if (item !== undefined && test(item.value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A market's place among the markets in words, always counted from the highest: "highest of 16", "3rd highest of 16",
 * "16th highest of 16"; markets with equal values share the higher place: "tied 3rd highest of 16". Undefined when
 * the market has no value on the basis.
 */
export function rankWords(d: Distribution, marketId: string): string | undefined {
  const value = d.byMarket.get(marketId);
  if (value === undefined) return undefined;
  const n = d.sorted.length;
  const below = prefixWhere(d.sorted, (v) => v < value);
  const atMost = prefixWhere(d.sorted, (v) => v <= value);
  const place = n - atMost + 1;
  return `${atMost - below > 1 ? 'tied ' : ''}${place === 1 ? '' : `${ordinal(place)} `}highest of ${formatNumber(n)}`;
}

/** The rank as the metrics table says it: with what it is by, and the market's figure on that basis, where that is not the metric itself. */
export function standingWords(d: Distribution, marketId: string): string | undefined {
  const rank = rankWords(d, marketId);
  if (rank === undefined || d.basis.by === '') return rank;
  const value = d.byMarket.get(marketId);
  return `${rank}, ${d.basis.by}${value === undefined ? '' : ` (${d.basis.format(value)})`}`;
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
 * One row per metric's basis (permits per 1,000 units; the price index by the price change's own row): a line from the
 * lowest market's value to the highest's, a ring for each other market (or, beyond CHART_MARKET_LIMIT markets, a band
 * over the middle half of them), a tick at the median, and this market as a filled dot with its value, printed once.
 * Horizontal positions are percentages of each row's own range, so rows of different units share one chart.
 */
export function StandingChart({ site, profile }: { site: Site; profile: MarketProfile }) {
  const name = displayName(profile.market);
  const count = site.profiles.length;
  const own = valuesOf(profile.profile.metrics);
  // One row per basis: the price index is placed by its year's change, which the price change's own row already shows.
  const rows = [...new Map(site.metrics.map((m) => [basisOf(m.id).key, m.id])).values()]
    .map((id) => distribution(site, id))
    .filter((d) => d.sorted.length > 0)
    .map((d, i) => {
      const lo = d.sorted[0]?.value ?? 0;
      const hi = d.sorted.at(-1)?.value ?? 0;
      const x = scaleLinear()
        .domain(lo === hi ? [lo - 1, hi + 1] : [lo, hi])
        .range([0, 100]);
      const value = d.basis.of(own);
      const shown = value === undefined ? undefined : d.basis.format(value);
      // A value at an end of the line is printed once, above its dot, not again as the end's value.
      return {
        d,
        key: d.basis.key,
        x,
        value,
        at: value === undefined ? undefined : x(value),
        line: px(TOP + i * ROW + 28),
        low: d.basis.format(lo) === shown ? undefined : d.basis.format(lo),
        high: d.basis.format(hi) === shown ? undefined : d.basis.format(hi),
        range: `range ${d.basis.format(lo)} to ${d.basis.format(hi)}, median ${d.basis.format(quantile(d, 0.5))}`,
      };
    });
  const height = TOP + rows.length * ROW + 4;
  const desc = rows
    .map(({ d, value, range }) => {
      const label = d.basis.sub === undefined ? d.basis.label : `${d.basis.label} ${d.basis.sub}`;
      return `${label}: ${value === undefined ? 'no value' : `${d.basis.format(value)}, ${rankWords(d, profile.market.id) ?? ''}`} (${range})`;
    })
    .join('. ');
  // Drawn layer by layer, each layer's paint on its group, so the markup repeats only positions.
  return (
    <svg class="chart chart-standing" width="100%" height={height} role="img" aria-labelledby="standing-chart-title standing-chart-desc">
      <title id="standing-chart-title">{`Where ${name} stands among the ${formatNumber(count)} markets on each metric`}</title>
      <desc id="standing-chart-desc">{`${desc}.`}</desc>
      <g transform="translate(-12,0)" text-anchor="end" fill={INK} class="row-label">
        {rows.map((r) =>
          r.d.basis.sub === undefined ? (
            <text key={r.key} x="0" y={px(r.line + 5)}>
              {r.d.basis.label}
            </text>
          ) : (
            <text key={r.key} x="0" y={px(r.line - 2)}>
              {r.d.basis.label}
              <tspan x="0" dy="1.15em" class="label-rest">
                {r.d.basis.sub}
              </tspan>
            </text>
          ),
        )}
      </g>
      <g stroke={GRID} stroke-width={2}>
        {rows.map((r) => (
          <line key={r.key} x1="0" x2="100%" y1={r.line} y2={r.line} />
        ))}
      </g>
      {count > CHART_MARKET_LIMIT ? (
        // Beyond the limit, a band over the middle half of the markets stands for them.
        <g fill={GRID} stroke={MUTED} stroke-width={1}>
          {rows.map((r) => (
            <rect
              key={r.key}
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
              .map((o) => <circle key={`${r.key} ${o.marketId}`} cx={pct(r.x(o.value), 1)} cy={r.line} r={4.5} />),
          )}
        </g>
      )}
      <g stroke={INK} stroke-width={2}>
        {rows.map((r) => {
          const median = pct(r.x(quantile(r.d, 0.5)), 1);
          return <line key={r.key} x1={median} x2={median} y1={r.line - 10} y2={r.line + 10} />;
        })}
      </g>
      <g fill={ACCENT} stroke="#ffffff" stroke-width={2}>
        {rows.map((r) => (r.at === undefined ? null : <circle key={r.key} cx={pct(r.at, 1)} cy={r.line} r={7} />))}
      </g>
      <g fill={INK} class="bar-value strong">
        {rows.map((r) => (
          <text
            key={r.key}
            x={pct(r.at ?? 50, 1)}
            y={r.line - 14}
            text-anchor={r.at === undefined ? 'middle' : r.at < 12 ? 'start' : r.at > 88 ? 'end' : 'middle'}
          >
            {r.value === undefined ? 'no value for this market' : r.d.basis.format(r.value)}
          </text>
        ))}
      </g>
      <g fill={MUTED} class="tick">
        {rows.map((r) =>
          r.low === undefined ? null : (
            <text key={r.key} x="0" y={r.line + 19}>
              {r.low}
            </text>
          ),
        )}
      </g>
      <g fill={MUTED} class="tick" text-anchor="end">
        {rows.map((r) =>
          r.high === undefined ? null : (
            <text key={r.key} x="100%" y={r.line + 19}>
              {r.high}
            </text>
          ),
        )}
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
