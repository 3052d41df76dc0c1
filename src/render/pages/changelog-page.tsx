// /changelog: the schema, methodology and data versions in service, every release, what each earlier methodology changed (the one in service on the methodology page), and the versioning policy (docs/contract.md section 9).
import { SCHEMA_VERSION } from '../../contract/schemas.ts';
import { METHODOLOGY_CHANGES, METHODOLOGY_VERSION } from '../../methodology/version.ts';
import { PATHS } from '../../contract/paths.ts';
import { Fragment } from 'preact';
import { DateText, ReflowTable, ReleaseDate } from './components.tsx';
import { formatDate, shortSourceName } from './format.ts';
import { SCORE_KEYS } from './scores.ts';
import type { Site } from './site.ts';

export function ChangelogPage({ site }: { site: Site }) {
  const snapshot = site.snapshotDate;
  const names = new Map(site.sources.map((s) => [s.sourceId, shortSourceName(s.sourceName)]));
  // An archived snapshot may name a source this build no longer loads: its id stands for it.
  const shortName = (sourceId: string): string => names.get(sourceId) ?? sourceId;
  return (
    <>
      <h1>Changelog</h1>
      <p class="lead">The versions behind every response, and what a change of each one means for you.</p>
      <section aria-labelledby="current">
        <h2 id="current">Versions in service</h2>
        <ReflowTable>
          <table>
            <caption>Versions in service since the data snapshot of {formatDate(snapshot)}</caption>
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col">Version</th>
                <th scope="col">Date</th>
                <th scope="col">Where to read it</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Schema</th>
                <td data-label="Version">
                  <code>"{SCHEMA_VERSION}"</code>
                </td>
                <td data-label="Date">
                  <DateText iso={snapshot} />
                </td>
                <td data-label="Where to read it">
                  <code>schemaVersion</code> in every JSON response and the <a href={site.href(PATHS.csvDescriptor)}>CSV descriptor</a>
                </td>
              </tr>
              <tr>
                <th scope="row">Methodology</th>
                <td data-label="Version">
                  <code>{METHODOLOGY_VERSION}</code>
                </td>
                <td data-label="Date">
                  <DateText iso={snapshot} />
                </td>
                <td data-label="Where to read it">
                  <code>methodologyVersion</code> in JSON, <code>methodology_version</code> in CSV; the{' '}
                  <a href={site.href(PATHS.methodology)}>methodology page</a>
                </td>
              </tr>
              <tr>
                <th scope="row">Data snapshot</th>
                <td data-label="Version">
                  <code>{snapshot}</code>
                </td>
                <td data-label="Date">
                  <DateText iso={snapshot} />
                </td>
                <td data-label="Where to read it">
                  <code>generatedAt</code> and <code>profile.updatedDate</code> in JSON, <code>updated_date</code> in CSV; the{' '}
                  <a href={site.href(PATHS.dataStatus)}>data status page</a>
                </td>
              </tr>
              {site.sources.map((s) => (
                <tr key={s.sourceId}>
                  <th scope="row">
                    <a href={site.href(`${PATHS.dataSources}#${s.sourceId}`)}>{s.sourceName}</a>
                  </th>
                  <td data-label="Version">{site.source(s.sourceId).vintage}</td>
                  <td data-label="Date">
                    released <ReleaseDate source={s} />, retrieved <DateText iso={s.latestRetrievedAt} />
                  </td>
                  <td data-label="Where to read it">
                    <code>sources</code> in JSON
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ReflowTable>
      </section>
      <section aria-labelledby="releases">
        <h2 id="releases">Releases</h2>
        <p>
          Every data snapshot published, newest first. Each stays served as it was published, byte for byte, at its{' '}
          <a href={site.href(PATHS.vintages)}>vintage</a> addresses.
        </p>
        <ReflowTable>
          <table>
            <caption>Every published snapshot, its methodology and the vintage of each source</caption>
            <thead>
              <tr>
                <th scope="col">Snapshot</th>
                <th scope="col">Methodology</th>
                <th scope="col">Data</th>
                <th scope="col">Its documents</th>
              </tr>
            </thead>
            <tbody>
              {site.releases.map((r, i) => {
                const data = r.vintages.map((v) => `${shortName(v.sourceId)} ${v.vintage}`).join(', ');
                const before = site.releases[i - 1];
                const same = before !== undefined && before.vintages.map((v) => `${shortName(v.sourceId)} ${v.vintage}`).join(', ') === data;
                return (
                  <tr key={r.snapshotDate} id={`release-${r.snapshotDate}`}>
                    <th scope="row">
                      <DateText iso={r.snapshotDate} />
                      {r.current ? <span class="sub">current</span> : i === site.releases.length - 1 ? <span class="sub">first release</span> : null}
                    </th>
                    <td data-label="Methodology">
                      <a href={`#methodology-${r.methodologyVersion}`}>{r.methodologyVersion}</a>
                    </td>
                    <td data-label="Data">{same ? 'the same vintages as the row above' : data}</td>
                    <td data-label="Its documents">
                      <a href={site.href(PATHS.vintageIndex(r.snapshotDate))}>{PATHS.vintageIndex(r.snapshotDate)}</a>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ReflowTable>
        <p>
          The current snapshot: {site.profiles.length} markets from {site.sources.length} sources, {site.metrics.length} metrics and {SCORE_KEYS.length} scores
          ({SCORE_KEYS.join(', ')}), as static fixtures. The first release brought schema version <code>"{SCHEMA_VERSION}"</code>: the market profile, the
          market index and the CSV column descriptor, each with a published draft-07 schema, and a page for every market and every link of the profiles.
        </p>
      </section>
      <section aria-labelledby="methodology-versions">
        <h2 id="methodology-versions">Methodology versions</h2>
        {METHODOLOGY_CHANGES.map((m) => (
          <Fragment key={m.version}>
            <h3 id={`methodology-${m.version}`}>
              Methodology {m.version}
              {m.version === METHODOLOGY_VERSION ? ' (in service)' : ''}
            </h3>
            {m.version === METHODOLOGY_VERSION ? (
              // The version in service is described once, on the methodology page, with its rules beside it.
              <p>
                What it changed, and why, is on the methodology page: <a href={site.href(`${PATHS.methodology}#changes`)}>what changed in {m.version}</a>.
              </p>
            ) : (
              // Earlier versions are history: each a summary a reader opens, so the page leads with what is in service.
              <details class="history">
                <summary>
                  What {m.version} changed ({m.changes.length} {m.changes.length === 1 ? 'change' : 'changes'})
                </summary>
                <ul>
                  {m.changes.map((change) => (
                    <li key={change}>{change}</li>
                  ))}
                </ul>
              </details>
            )}
          </Fragment>
        ))}
      </section>
      <section aria-labelledby="policy">
        <h2 id="policy">Versioning policy</h2>
        <ol>
          <li>
            <code>schemaVersion</code> is the constant <code>"{SCHEMA_VERSION}"</code> in both the JSON profile and the CSV descriptor. Pin to{' '}
            <code>"{SCHEMA_VERSION}"</code>.
          </li>
          <li>
            Additive changes may happen inside the same <code>schemaVersion</code>: new optional fields may appear, and consumers ignore fields they do not
            know. Such fields today: <code>geographyScope</code>, and a metric's <code>marginOfError</code>, <code>illustrative</code> and{' '}
            <code>comparisons</code>.
          </li>
          <li>
            Breaking changes (removing a field, renaming a field, tightening a type constraint) increase <code>schemaVersion</code>. The CSV descriptor's
            version changes in step with the JSON profile's.
          </li>
          <li>
            <code>methodologyVersion</code> (form <code>v&lt;major&gt;.&lt;minor&gt;</code>) is independent of <code>schemaVersion</code> and names the
            methodology used for the computed signals: scores, freshness and coverage.
          </li>
          <li>
            <code>liveData: false</code> is a guarded constant: no response is a live feed, whatever the <code>schemaVersion</code>.
          </li>
        </ol>
      </section>
    </>
  );
}
