// /data-sources: every upstream dataset (docs/contract.md 2.4) with its agency, landing page, cadence, confidence and terms.
import type { Source } from '../../contract/schemas.ts';
import { GEOGRAPHY_LEVELS } from '../../contract/geography.ts';
import type { AssembledProfile } from '../../methodology/profiles.ts';
import { PATHS } from '../../contract/paths.ts';
import { DateText, ExternalLink, Facts, IllustrativeNote, MarketRowHeader, ReflowTable } from './components.tsx';
import { displayName, listWords } from './format.ts';
import type { Site } from './site.ts';
import { citationText } from '../citation.ts';

function SourceSection({ site, source }: { site: Site; source: Source }) {
  const metrics = site.metrics.filter((m) => m.sourceId === source.sourceId);
  const cites = (p: AssembledProfile): boolean => p.sources.some((s) => s.sourceId === source.sourceId);
  const citing = site.profiles.filter(cites);
  const notCiting = site.profiles.filter((p) => !cites(p));
  return (
    <section aria-labelledby={source.sourceId} class="source">
      <h2 id={source.sourceId}>{source.sourceName}</h2>
      <Facts
        items={[
          ['Agency', source.agency],
          ['Dataset', source.datasetName],
          [
            'Landing page',
            <ExternalLink key="l" href={source.sourceUrl}>
              {source.sourceUrl}
            </ExternalLink>,
          ],
          ['Source id', <code key="i">{source.sourceId}</code>],
          ['Update frequency', source.updateFrequency],
          ['Confidence', source.confidence],
          ['Provenance', source.provenance === 'fixture' ? 'fixture (static snapshot)' : source.provenance],
          ['Latest release', <DateText key="r" iso={source.latestReleaseDate} />],
          ['Retrieved', <DateText key="t" iso={source.latestRetrievedAt} />],
          [
            'Metrics',
            metrics.length === 0 ? (
              'none in this methodology'
            ) : (
              <ul key="m" class="inline-list">
                {metrics.map((m) => (
                  <li key={m.id}>
                    <a href={site.href(`${PATHS.methodology}#metric-${m.id}`)}>{m.label}</a>
                  </li>
                ))}
              </ul>
            ),
          ],
          [
            'Markets',
            notCiting.length === 0
              ? `all ${citing.length}`
              : `${citing.length} of ${site.profiles.length}; not ${listWords(notCiting.map((p) => displayName(p.market)))}, ${notCiting.length === 1 ? 'which has' : 'which have'} no value from it`,
          ],
          ['Values', site.illustrative.get(source.sourceId) ?? "Published: every value is the agency's own, as retrieved."],
          ['License and terms', site.source(source.sourceId).licence.terms],
        ]}
      />
      <AreaTable site={site} source={source} />
    </section>
  );
}

/** Which area each market's values from this source describe, with the codes the adapter matched on: the series FHFA publishes for it, the place for the Census files. */
function AreaTable({ site, source }: { site: Site; source: Source }) {
  const metricIds = new Set<string>(site.metrics.filter((m) => m.sourceId === source.sourceId).map((m) => m.id));
  const rows = site.profiles.flatMap((p) => {
    const boundary = p.geographyScope?.boundaries.find((b) => b.metrics.some((m) => metricIds.has(m)));
    return boundary === undefined ? [] : [{ p, boundary }];
  });
  if (rows.length === 0) return null;
  return (
    <ReflowTable>
      <table>
        <caption>The area each market's {source.sourceName} values describe</caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            <th scope="col">Area</th>
            <th scope="col">Kind</th>
            <th scope="col">Codes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ p, boundary }) => (
            <tr key={p.market.id}>
              <MarketRowHeader site={site} market={p.market} />
              <td data-label="Area">{boundary.name}</td>
              <td data-label="Kind">{GEOGRAPHY_LEVELS[boundary.level].kind}</td>
              <td data-label="Codes">
                <code>
                  {Object.entries(boundary.codes)
                    .map(([k, v]) => `${k} ${v}`)
                    .join(', ')}
                </code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ReflowTable>
  );
}

export function DataSourcesPage({ site }: { site: Site }) {
  return (
    <>
      <h1>Data sources</h1>
      <p class="lead">
        Every value in a profile names the upstream dataset it was loaded from. These are the {site.sources.length} datasets the current profiles cite, in order
        of their source id.
      </p>
      <p class="notice">
        {site.illustrative.size === 0 ? (
          "Every value is the agency's published figure, as retrieved on the dates below, kept as a static snapshot."
        ) : (
          <>
            The files keep each agency's own layout. <IllustrativeNote site={site} profiles={site.profiles} /> Each dataset keeps its own license and terms.
          </>
        )}
      </p>
      {site.sources.map((s) => (
        <SourceSection key={s.sourceId} site={site} source={s} />
      ))}
      <section aria-labelledby="cite">
        <h2 id="cite">Suggested citation</h2>
        <p>
          {citationText({
            snapshotDate: site.snapshotDate,
            address: `${site.baseUrl}${PATHS.vintageIndex(site.snapshotDate)}`,
            sources: site.sources,
          })}
        </p>
      </section>
    </>
  );
}
