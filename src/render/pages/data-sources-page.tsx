// /data-sources: every upstream dataset (docs/contract.md 2.4) with its agency, landing page, cadence, confidence, dates, where its figures were read and its terms; the area each market's figures describe, in one table; a suggested citation.
import type { Boundary, Source } from '../../contract/schemas.ts';
import { GEOGRAPHY_LEVELS } from '../../contract/geography.ts';
import type { AssembledProfile } from '../../methodology/profiles.ts';
import { PATHS } from '../../contract/paths.ts';
import { DateText, ExternalLink, Facts, IllustrativeNote, MarketRowHeader, ReflowTable, ReleaseDate } from './components.tsx';
import { displayName, listWords, shortSourceName } from './format.ts';
import type { Site } from './site.ts';
import { citationText } from '../citation.ts';

function SourceSection({ site, source }: { site: Site; source: Source }) {
  const metrics = site.metrics.filter((m) => m.sourceId === source.sourceId);
  const cites = (p: AssembledProfile): boolean => p.sources.some((s) => s.sourceId === source.sourceId);
  const citing = site.profiles.filter(cites);
  const notCiting = site.profiles.filter((p) => !cites(p));
  const illustrative = site.illustrative.get(source.sourceId);
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
          [
            'Cadence',
            <span key="c">
              updated {source.updateFrequency}; confidence {source.confidence};{' '}
              {source.provenance === 'fixture' ? 'fixture (static snapshot)' : source.provenance}; source id <code>{source.sourceId}</code>
            </span>,
          ],
          [
            'Released',
            <span key="r">
              <ReleaseDate source={source} />; retrieved <DateText iso={source.latestRetrievedAt} />
            </span>,
          ],
          ...(source.readFrom === undefined ? [] : [['Read from', source.readFrom] as const]),
          [
            'Metrics',
            metrics.length === 0 ? (
              'none in this methodology'
            ) : (
              <span key="m">
                {metrics.map((m, i) => (
                  <span key={m.id}>
                    {i === 0 ? '' : i === metrics.length - 1 ? ' and ' : ', '}
                    <a href={site.href(`${PATHS.methodology}#metric-${m.id}`)}>{m.shortLabel}</a>
                  </span>
                ))}
              </span>
            ),
          ],
          [
            'Markets',
            notCiting.length === 0
              ? `all ${citing.length}`
              : `${citing.length} of ${site.profiles.length}; not ${listWords(notCiting.map((p) => displayName(p.market)))}, ${notCiting.length === 1 ? 'which has' : 'which have'} no value from it`,
          ],
          ...(illustrative === undefined ? [] : [['Values', illustrative] as const]),
          ['License and terms', site.source(source.sourceId).licence.terms],
        ]}
      />
    </section>
  );
}

/** An area with its kind and the codes the adapter matched on: "Austin city, Texas (city (Census place): stateFips 48, placeFips 05000)". */
function AreaCell({ boundary, label }: { boundary: Boundary | undefined; label: string }) {
  if (boundary === undefined) {
    return (
      <td data-label={label}>
        <span class="muted">no value from it</span>
      </td>
    );
  }
  return (
    <td data-label={label}>
      {boundary.name}{' '}
      <span class="codes">
        ({GEOGRAPHY_LEVELS[boundary.level].kind}:{' '}
        <code>
          {Object.entries(boundary.codes)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}
        </code>
        )
      </span>
    </td>
  );
}

/**
 * The area each market's figures describe, one row per market: a column per group of sources whose figures describe
 * the same kind of area in every market (the Census place for the ACS and permits, the metro or division for FHFA), so
 * no market's city is listed twice.
 */
function AreasTable({ site }: { site: Site }) {
  const boundaryOf = (p: AssembledProfile, sourceId: string): Boundary | undefined => {
    const metricIds = new Set<string>(site.metrics.filter((m) => m.sourceId === sourceId).map((m) => m.id));
    return p.geographyScope?.boundaries.find((b) => b.metrics.some((m) => metricIds.has(m)));
  };
  const key = (b: Boundary | undefined): string => (b === undefined ? '-' : `${b.level}:${Object.values(b.codes).join(':')}`);
  const columns: { sources: Source[] }[] = [];
  for (const s of site.sources) {
    const same = columns.find((c) => site.profiles.every((p) => key(boundaryOf(p, c.sources[0]?.sourceId ?? '')) === key(boundaryOf(p, s.sourceId))));
    if (same === undefined) columns.push({ sources: [s] });
    else same.sources.push(s);
  }
  if (site.profiles.every((p) => p.geographyScope === undefined)) return null;
  const label = (c: { sources: Source[] }): string => c.sources.map((s) => shortSourceName(s.sourceName)).join(', ');
  return (
    <section aria-labelledby="areas">
      <h2 id="areas">The area each market's figures describe</h2>
      <ReflowTable>
        <table>
          <caption>Each market's areas, with the codes each source's file was matched on</caption>
          <thead>
            <tr>
              <th scope="col">Market</th>
              {columns.map((c) => (
                <th key={c.sources[0]?.sourceId} scope="col">
                  {label(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {site.profiles.map((p) => (
              <tr key={p.market.id}>
                <MarketRowHeader site={site} market={p.market} />
                {columns.map((c) => (
                  <AreaCell key={c.sources[0]?.sourceId} boundary={boundaryOf(p, c.sources[0]?.sourceId ?? '')} label={label(c)} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ReflowTable>
    </section>
  );
}

export function DataSourcesPage({ site }: { site: Site }) {
  return (
    <>
      <h1>Data sources</h1>
      <p class="lead">
        Every value in a profile names the upstream dataset it was loaded from. These are the {site.sources.length} datasets the current profiles cite, in order
        of their source id; the files keep each agency's own layout.
      </p>
      <p class={site.illustrative.size === 0 ? 'confirm' : 'notice'}>
        {site.illustrative.size === 0 ? (
          "Every value is the agency's published figure, as retrieved on the dates below, kept as a static snapshot."
        ) : (
          <>
            <IllustrativeNote site={site} profiles={site.profiles} /> Each dataset keeps its own license and terms.
          </>
        )}
      </p>
      {site.sources.map((s) => (
        <SourceSection key={s.sourceId} site={site} source={s} />
      ))}
      <AreasTable site={site} />
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
