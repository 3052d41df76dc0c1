// Where one market stands among all the markets on each metric, and by what: every market's values, sorted once per build, its rank in words and a small strip.
import { scaleLinear } from 'd3-scale';
import type { Qualifier } from '../../contract/schemas.ts';
import { valuesOf, type MetricId, type Values } from '../../methodology/metrics.ts';
import { DERIVED_INPUTS, scoreInputs, thresholdDefinition } from '../../methodology/scores.ts';
import { CHART_MARKET_LIMIT, GRID, ACCENT, MUTED, pct } from './chart-parts.ts';
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
  /** Why the metric is not ranked at all (an index whose level says nothing of where a market stands); its change is. */
  unranked?: string;
}

/**
 * A count of permits grows with the city, so permits are compared per 1,000 existing housing units (the supply score's
 * own derived input, read through scoreInputs); the price index is 100 in 1995 Q1 in every area, so its level says only
 * how far prices rose since then: it is not ranked (its year's change is, on a row of its own). Every other metric by
 * its own value.
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
    key: 'homePriceIndex',
    of: (v) => v.homePriceIndex,
    format: (n) => formatShort('homePriceIndex', n),
    label: shortLabel('homePriceIndex'),
    by: '',
    // Its level says only how far prices rose since 1995 Q1, when it was 100 everywhere: its change is ranked instead.
    unranked: 'not ranked: an index, 1995 Q1 = 100',
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

export interface Distribution {
  basis: Basis;
  /** Every market's value on the basis, ascending, with its qualifier where it is open-ended; markets without one are left out. */
  sorted: readonly { marketId: string; name: string; value: number; qualifier?: Qualifier }[];
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
        // Only a basis that is the metric itself carries its qualifier: a ratio of an open-ended figure is not read.
        const qualifier = basis.key === metricId ? p.profile.metrics[metricId]?.qualifier : undefined;
        return value === undefined ? [] : [{ marketId: p.market.id, name: displayName(p.market), value, ...(qualifier === undefined ? {} : { qualifier }) }];
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
 * A market's place among the markets in words, counted from the nearer end as a reader says it: "highest of 16",
 * "3rd highest of 16", "2nd lowest of 16", "lowest of 16"; markets with equal values share the place nearer that end:
 * "tied 7th highest of 16". Undefined when the market has no value on the basis.
 */
export function rankWords(d: Distribution, marketId: string): string | undefined {
  const value = d.byMarket.get(marketId);
  if (value === undefined) return undefined;
  const n = d.sorted.length;
  const below = prefixWhere(d.sorted, (v) => v < value);
  const atMost = prefixWhere(d.sorted, (v) => v <= value);
  const fromTop = n - atMost + 1;
  const fromBottom = below + 1;
  const [place, end] = fromTop <= fromBottom ? [fromTop, 'highest'] : [fromBottom, 'lowest'];
  return `${atMost - below > 1 ? 'tied ' : ''}${place === 1 ? '' : `${ordinal(place)} `}${end} of ${formatNumber(n)}`;
}

/**
 * Whether a market's place rests on an open-ended figure: its own, or another market's whose possible values reach
 * past the market's (so the order of the two is not known). The place is then said with the published text.
 */
function openEnded(d: Distribution, marketId: string): Qualifier | undefined {
  const value = d.byMarket.get(marketId);
  if (value === undefined) return undefined;
  for (const e of d.sorted) {
    const q = e.qualifier;
    if (q === undefined) continue;
    if (e.marketId === marketId) return q;
    if ((q.bound === 'lower' && value >= q.edge) || (q.bound === 'upper' && value <= q.edge)) return q;
  }
  return undefined;
}

/**
 * The rank as the metrics table says it: with the market's figure on the basis it is ranked by, where that is not the
 * metric itself ("4th highest of 16: 19.5 per 1,000 units"); why a metric is not ranked; and, where the place rests on an
 * open-ended figure, that it does.
 */
export function standingWords(d: Distribution, marketId: string): string | undefined {
  if (d.basis.unranked !== undefined) return d.basis.unranked;
  const rank = rankWords(d, marketId);
  if (rank === undefined) return undefined;
  const open = openEnded(d, marketId);
  const note = open === undefined ? '' : `, with one figure published as ${open.publishedAs}`;
  if (d.basis.by === '') return `${rank}${note}`;
  const value = d.byMarket.get(marketId);
  return `${rank}${value === undefined ? '' : `: ${d.basis.format(value)} ${d.basis.sub ?? ''}`.trimEnd()}${note}`;
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

const STRIP = { width: 100, height: 14 } as const;

/**
 * A small strip beside a rank: a line from the lowest market's value to the highest's, a tick for each other market (or,
 * beyond CHART_MARKET_LIMIT markets, a band over the middle half), and this market as a dot. Decoration: the rank in
 * words beside it says the same, so it is hidden from screen readers.
 */
export function MiniStrip({ d, marketId }: { d: Distribution; marketId: string }) {
  const value = d.byMarket.get(marketId);
  const lo = d.sorted[0]?.value;
  const hi = d.sorted.at(-1)?.value;
  if (value === undefined || lo === undefined || hi === undefined || d.basis.unranked !== undefined) return null;
  const x = scaleLinear()
    .domain(lo === hi ? [lo - 1, hi + 1] : [lo, hi])
    .range([4, 96]);
  const mid = STRIP.height / 2;
  return (
    <svg class="strip" width={STRIP.width} height={STRIP.height} aria-hidden="true" focusable="false">
      <line x1="4%" x2="96%" y1={mid} y2={mid} stroke={GRID} stroke-width={2} />
      {d.sorted.length > CHART_MARKET_LIMIT ? (
        <rect
          x={pct(x(quantile(d, 0.25)), 1)}
          y={mid - 4}
          width={pct(x(quantile(d, 0.75)) - x(quantile(d, 0.25)), 1)}
          height={8}
          fill={GRID}
          stroke={MUTED}
          stroke-width={1}
        />
      ) : (
        <g stroke={MUTED} stroke-width={1.5}>
          {d.sorted
            .filter((o) => o.marketId !== marketId)
            .map((o) => (
              <line key={o.marketId} x1={pct(x(o.value), 1)} x2={pct(x(o.value), 1)} y1={mid - 4} y2={mid + 4} />
            ))}
        </g>
      )}
      <circle cx={pct(x(value), 1)} cy={mid} r={5} fill={ACCENT} stroke="#ffffff" stroke-width={1.5} />
    </svg>
  );
}
