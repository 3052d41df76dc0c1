// Small building blocks several pages share, so a table region or a date reads the same everywhere.
import type { ComponentChildren } from 'preact';
import { displayName, type Freshness, type Source } from '../../contract/schemas.ts';
import { listWords } from '../../contract/words.ts';
import { PATHS } from '../../contract/paths.ts';
import { metricDefinition, type MetricId } from '../../methodology/metrics.ts';
import type { AssembledProfile } from '../../methodology/profiles.ts';
import { agencyShort, formatDate } from './format.ts';
import type { Site } from './site.ts';

/** The metrics of the site that are illustrative in any of these profiles, in the methodology's order. */
export const illustrativeMetrics = (site: Site, profiles: readonly AssembledProfile[]): MetricId[] =>
  site.metrics.filter((m) => profiles.some((p) => p.profile.metrics[m.id]?.illustrative === true)).map((m) => m.id);

/**
 * Which of the values a page shows are illustrative, said where the numbers are (inside the page's fixture notice): the
 * metrics, and that the scores computed from them are illustrative too; nothing once every value is the agency's.
 */
export function IllustrativeNote({ site, profiles }: { site: Site; profiles: readonly AssembledProfile[] }) {
  const metrics = illustrativeMetrics(site, profiles);
  if (metrics.length === 0) return null;
  // A noun with its own article ("the house price index") joins the list without it: "the vacancy rate and house price index values".
  const nouns = metrics.map((id) => (metricDefinition(id)?.noun ?? id).replace(/^the /, ''));
  const scored = profiles.some((p) => p.profile.illustrativeScores !== undefined);
  return (
    <span class="illustrative-note">
      <strong>Illustrative fixture values:</strong> the {listWords(nouns)} {metrics.length === 1 ? 'value is' : 'values are'} of the right magnitude but not the
      published {metrics.length === 1 ? 'figure' : 'figures'} (marked <IllustrativeTag />
      ); do not cite {metrics.length === 1 ? 'it' : 'them'}
      {scored ? `, nor the scores computed from ${metrics.length === 1 ? 'it' : 'them'}` : ''}. Every other value is the agency's published figure.{' '}
      <a href={site.href(`${PATHS.dataStatus}#values`)}>Which values are which</a>.
    </span>
  );
}

/** The mark of a value (or a score) that is not the agency's published figure; the JSON says `"illustrative": true`. */
export function IllustrativeTag() {
  return <span class="tag-illustrative">illustrative</span>;
}

/**
 * A table that reflows on a phone: each row becomes a card and each cell shows its column name
 * (from data-label), so nothing needs sideways scrolling. The markup stays a plain table.
 */
export function ReflowTable({ children }: { children: ComponentChildren }) {
  return <div class="table-reflow">{children}</div>;
}

/** A table row's header cell: the market's name, linking to its page. */
export function MarketRowHeader({ site, market }: { site: Site; market: { id: string; name: string; stateCode: string } }) {
  return (
    <th scope="row">
      <a href={site.href(PATHS.marketPage(market.id))}>{displayName(market)}</a>
    </th>
  );
}

/** A data cell that names its column for the phone layout of a ReflowTable. */
export function Td({ label, class: className, colSpan, children }: { label?: string; class?: string; colSpan?: number; children?: ComponentChildren }) {
  return (
    <td data-label={label} class={className} colSpan={colSpan}>
      {children}
    </td>
  );
}

export function DateText({ iso }: { iso: string | undefined }) {
  if (iso === undefined) return <span class="muted">unknown</span>;
  return <time dateTime={iso}>{formatDate(iso)}</time>;
}

/**
 * How a source's release date is known, in words beside the date: inferred from the agency's release calendar, as public
 * records report it, or as the agency published it (the JSON's latestReleaseDateBasis).
 */
export function releaseBasisWords(source: Pick<Source, 'agency' | 'latestReleaseDateBasis'>): string | undefined {
  switch (source.latestReleaseDateBasis) {
    case 'inferred':
      return `inferred from ${agencyShort(source.agency)}'s calendar`;
    case 'reported':
      return 'as public records report it';
    case 'published':
      return `as ${agencyShort(source.agency)} published it`;
    default:
      return undefined;
  }
}

/** A source's latest release date, with how it is known. */
export function ReleaseDate({ source }: { source: Pick<Source, 'agency' | 'latestReleaseDate' | 'latestReleaseDateBasis'> }) {
  const basis = releaseBasisWords(source);
  return (
    <>
      <DateText iso={source.latestReleaseDate} />
      {basis === undefined || source.latestReleaseDate === undefined ? null : <span class="basis"> ({basis})</span>}
    </>
  );
}

export function FreshnessBadge({ value }: { value: Freshness }) {
  return <span class={`badge badge-${value}`}>{value}</span>;
}

/** An upstream landing page: outside this service, so marked as such for people and for print. */
export function ExternalLink({ href, children }: { href: string; children: ComponentChildren }) {
  return (
    <a href={href} rel="external noopener" class="external">
      {children}
    </a>
  );
}

/**
 * The contract's caveats (docs/contract.md 2.1) as a page says them. The JSON carries them verbatim, and two are worded
 * for an endpoint and its fields, which a page is not; keyed by the JSON's own words, so a caveat without a page wording
 * here is shown as the JSON says it (and test/unit/pages-links.test.ts says which).
 */
const PAGE_WORDING: ReadonlyMap<string, string> = new Map([
  [
    'Production JSON is source-attributed static fixture data: every value names the upstream source it was loaded from, and a value that is not the agency\'s published figure says so with "illustrative": true.',
    "These pages show source-attributed static fixture data: every value names the upstream source it was loaded from, and a value that is not the agency's published figure is marked illustrative.",
  ],
  [
    'This endpoint provides no live data: values are not live, not real-time and not forecasts.',
    'This page shows no live data: values are not live, not real-time and not forecasts.',
  ],
]);

/** A caveat of the JSON as a page words it. */
export const pageCaveat = (caveat: string): string => PAGE_WORDING.get(caveat) ?? caveat;

/** The caveats the data carries, worded for a page. */
export function Caveats({ caveats, headingId }: { caveats: readonly string[]; headingId: string }) {
  return (
    <section class="caveats" aria-labelledby={headingId}>
      <h2 id={headingId}>Caveats</h2>
      <ul>
        {caveats.map((c) => (
          <li key={c}>{pageCaveat(c)}</li>
        ))}
      </ul>
    </section>
  );
}

/** A term and its description, for the short fact lists pages use in place of prose. */
export function Facts({ items }: { items: readonly (readonly [string, ComponentChildren])[] }) {
  return (
    <dl class="facts">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Under a chart: the documents holding the numbers it draws, so nobody has to read them off the picture. */
export function ChartData({ site, label, links }: { site: Site; label: string; links: readonly (readonly [text: string, path: string])[] }) {
  return (
    <p class="chart-data">
      The numbers {label}:{' '}
      {links.map(([text, path], i) => (
        <span key={path}>
          {i === 0 ? '' : ' · '}
          <a href={site.href(path)}>{text}</a>
        </span>
      ))}
    </p>
  );
}
