// /changelog: the schema, methodology and data versions in service, and the versioning policy (docs/contract.md section 9).
import { SCHEMA_VERSION } from '../../contract/schemas.ts';
import { METHODOLOGY_CHANGES, METHODOLOGY_VERSION } from '../../methodology/version.ts';
import { PATHS } from '../../contract/paths.ts';
import { Fragment } from 'preact';
import { DateText, ReflowTable } from './components.tsx';
import { formatDate } from './format.ts';
import { SCORE_KEYS } from './scores.ts';
import type { Site } from './site.ts';

export function ChangelogPage({ site }: { site: Site }) {
  const snapshot = site.snapshotDate;
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
                  <td data-label="Version">{s.datasetName}</td>
                  <td data-label="Date">
                    released <DateText iso={s.latestReleaseDate} />, retrieved <DateText iso={s.latestRetrievedAt} />
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
        {site.releases.map((r, i) => (
          <Fragment key={r.snapshotDate}>
            <h3 id={`release-${r.snapshotDate}`}>
              <DateText iso={r.snapshotDate} />
              {r.current ? ': the current snapshot' : ''}
              {i === site.releases.length - 1 ? ': first release' : ''}
            </h3>
            <ul>
              <li>
                Methodology {r.methodologyVersion}
                {r.methodologyVersion === METHODOLOGY_VERSION ? '' : ' (what it read and how it scored are under Methodology versions below)'}; data:{' '}
                {r.vintages.map((v) => `${v.sourceId} ${v.vintage}`).join(', ')}.
              </li>
              {r.current ? (
                <li>
                  {site.profiles.length} markets from {site.sources.length} sources, {site.metrics.length} metrics and {SCORE_KEYS.length} scores (
                  {SCORE_KEYS.join(', ')}), as static fixtures.
                </li>
              ) : null}
              {i === site.releases.length - 1 ? (
                <li>
                  Schema version <code>"{SCHEMA_VERSION}"</code>: the market profile, the market index and the CSV column descriptor, each with a published
                  draft-07 schema; human-readable pages for every market and every link of the profiles.
                </li>
              ) : null}
              <li>
                Its documents: <a href={site.href(PATHS.vintageIndex(r.snapshotDate))}>{PATHS.vintageIndex(r.snapshotDate)}</a>.
              </li>
            </ul>
          </Fragment>
        ))}
      </section>
      <section aria-labelledby="methodology-versions">
        <h2 id="methodology-versions">Methodology versions</h2>
        {METHODOLOGY_CHANGES.map((m) => (
          <Fragment key={m.version}>
            <h3 id={`methodology-${m.version}`}>
              Methodology {m.version}
              {m.version === METHODOLOGY_VERSION ? ' (in service)' : ''}
            </h3>
            <ul>
              {m.changes.map((change) => (
                <li key={change}>{change}</li>
              ))}
            </ul>
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
