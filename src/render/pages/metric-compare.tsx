// The home page's comparison of every metric across the markets: one sorted bar chart per metric, and every value in one table.
import { scaleLinear } from 'd3-scale';
import type { MetricDefinition } from '../../methodology/metrics.ts';
import { PATHS } from '../../contract/paths.ts';
import { ACCENT, CHART_MARKET_LIMIT, FALL, GRID, INK, MUTED, pct, px } from './chart-parts.ts';
import { IllustrativeTag, MarketRowHeader, TableScroll, illustrativeMetrics } from './components.tsx';
import { displayName, formatNumber, formatShort, shortLabel, unitWords } from './format.ts';
import type { Site } from './site.ts';

const ROW = 18;
const BAR = 11;
const TOP = 4;

/** One metric's bars, highest first; markets without a value are named after them. */
function MetricBars({ site, metric }: { site: Site; metric: MetricDefinition }) {
  const rows = site.profiles
    .map((p) => ({ id: p.market.id, name: displayName(p.market), value: p.profile.metrics[metric.id]?.value }))
    .sort((a, b) => (b.value ?? -Infinity) - (a.value ?? -Infinity) || (a.name < b.name ? -1 : 1));
  const values = rows.flatMap((r) => (r.value === undefined ? [] : [r.value]));
  // Bars start at zero, so their lengths compare; the last third of the width is left for the values written after them.
  const x = scaleLinear()
    .domain([Math.min(0, ...values), Math.max(0, ...values)])
    .range([0, 62]);
  const zero = x(0);
  const height = TOP + rows.length * ROW + 4;
  const id = `metric-chart-${metric.id}`;
  const unit = unitWords(metric.id);
  return (
    <svg class="chart chart-metric" width="100%" height={height} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
      <title id={`${id}-title`}>{`${metric.label}${unit === '' ? '' : ` (${unit})`}, every market, highest first`}</title>
      <desc id={`${id}-desc`}>{rows.map((r) => `${r.name} ${r.value === undefined ? 'no value' : formatShort(metric.id, r.value)}`).join(', ') + '.'}</desc>
      <line x1={pct(zero)} x2={pct(zero)} y1={0} y2={height} stroke={GRID} stroke-width={1} />
      <g transform="translate(-6,0)" text-anchor="end" fill={INK} class="small">
        {rows.map((r, i) => (
          <text key={r.id} x="0" y={px(TOP + i * ROW + BAR / 2 + 4.5)}>
            {r.name}
          </text>
        ))}
      </g>
      <g fill={ACCENT}>
        {rows.map((r, i) =>
          r.value === undefined || r.value < 0 ? null : (
            <rect key={r.id} x={pct(zero)} y={TOP + i * ROW} width={pct(Math.max(x(r.value) - zero, 0.3))} height={BAR} />
          ),
        )}
      </g>
      <g fill={FALL}>
        {rows.map((r, i) =>
          r.value === undefined || r.value >= 0 ? null : <rect key={r.id} x={pct(x(r.value))} y={TOP + i * ROW} width={pct(zero - x(r.value))} height={BAR} />,
        )}
      </g>
      <g transform="translate(4,0)" fill={INK} class="bar-value">
        {rows.map((r, i) => (
          // A negative value is written right of the zero line, where its row has room.
          <text
            key={r.id}
            x={pct(r.value === undefined || r.value < 0 ? zero : x(r.value))}
            y={px(TOP + i * ROW + BAR / 2 + 4)}
            fill={r.value === undefined ? MUTED : undefined}
          >
            {r.value === undefined ? 'no value' : formatShort(metric.id, r.value)}
          </text>
        ))}
      </g>
    </svg>
  );
}

/** A chart per metric while the markets are few enough to draw one bar each; the table holds every value either way. */
export function MetricCharts({ site }: { site: Site }) {
  if (site.profiles.length > CHART_MARKET_LIMIT) {
    return (
      <p>
        With {formatNumber(site.profiles.length)} markets a bar for each would not be readable, so the charts are drawn only up to {CHART_MARKET_LIMIT} markets;
        the table below and the <a href={site.href(PATHS.bulkCsv)}>bulk CSV</a> hold every value.
      </p>
    );
  }
  const illustrative = new Set(illustrativeMetrics(site, site.profiles));
  return (
    <div class="small-multiples">
      {site.metrics.map((m) => (
        <figure key={m.id} class="metric-figure">
          <figcaption>
            <a href={site.href(`${PATHS.methodology}#metric-${m.id}`)}>{shortLabel(m.id)}</a>
            {unitWords(m.id) === '' ? null : <span class="muted"> ({unitWords(m.id)})</span>}
            {illustrative.has(m.id) ? (
              <>
                {' '}
                <IllustrativeTag />
              </>
            ) : null}
          </figcaption>
          <MetricBars site={site} metric={m} />
        </figure>
      ))}
    </div>
  );
}

/** Every metric of every market, the numbers of the charts above; a column of illustrative values says so in its head. */
export function MetricTable({ site }: { site: Site }) {
  const illustrative = new Set(illustrativeMetrics(site, site.profiles));
  return (
    <TableScroll label="Every metric of every market" columns={site.metrics.length + 1}>
      <table class="dense">
        <caption>Every metric of every market; — where a source has no value</caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            {site.metrics.map((m) => (
              <th key={m.id} scope="col" class="num">
                {shortLabel(m.id)}
                {unitWords(m.id) === '' ? null : <span class="unit">{unitWords(m.id)}</span>}
                {illustrative.has(m.id) ? <IllustrativeTag /> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {site.profiles.map((p) => (
            <tr key={p.market.id}>
              <MarketRowHeader site={site} market={p.market} />
              {site.metrics.map((m) => {
                const v = p.profile.metrics[m.id]?.value;
                return (
                  <td key={m.id} class="num">
                    {v === undefined ? (
                      <>
                        <span aria-hidden="true">—</span>
                        <span class="visually-hidden">no value</span>
                      </>
                    ) : (
                      formatShort(m.id, v)
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
