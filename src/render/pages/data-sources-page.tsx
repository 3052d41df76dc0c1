// /data-sources: every upstream dataset (spec 2.4) with its agency, landing page, cadence, confidence and terms.
import type { Source } from '../../contract.ts';
import { METRICS } from '../../methodology.ts';
import { PATHS } from '../../paths.ts';
import { DateText, ExternalLink, Facts } from './components.tsx';
import { displayName, listWords } from './format.ts';
import type { Site } from './site.ts';
import { termsOf } from './source-terms.ts';

function SourceSection({ site, source }: { site: Site; source: Source }) {
  const metrics = METRICS.filter((m) => m.sourceId === source.sourceId);
  const citing = site.profiles.filter((p) => p.sources.some((s) => s.sourceId === source.sourceId));
  const notCiting = site.profiles.filter((p) => !citing.includes(p));
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
          ['License and terms', termsOf(source.sourceId)],
        ]}
      />
    </section>
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
        The values are static fixtures: files in each upstream's own format holding realistic values for these markets. They are illustrative, not verbatim
        downloads, and must not be cited as published estimates. Each dataset keeps its own license and terms.
      </p>
      {site.sources.map((s) => (
        <SourceSection key={s.sourceId} site={site} source={s} />
      ))}
    </>
  );
}
