// /data-catalog: every endpoint with its URL, format and a curl line; the tools, the client and the contract; the CSV columns; the error codes.
import { Fragment } from 'preact';
import { CSV_COLUMNS, SCHEMA_VERSION } from '../../contract/schemas.ts';
import { SERIES_CSV_COLUMNS } from '../../contract/series.ts';
import { PATHS } from '../../contract/paths.ts';
import { ENDPOINT_LIST, attachmentAt, pathAt, type AnyEndpoint } from '../../contract/endpoints.ts';
import { CONTENT_TYPES } from '../../protocol/headers.ts';
import { DOCUMENTED_CODES, PROBLEM_CATALOGUE } from '../../protocol/problems.ts';
import { ReflowTable } from './components.tsx';
import { displayName } from './format.ts';
import type { Site } from './site.ts';

/**
 * A command that breaks only where a reader expects it: at a space, or after a slash inside a URL (never between the two
 * of "//"), each piece kept whole by the stylesheet, so "us-az-phoenix" never splits at its hyphens. The <wbr> marks add
 * no text, so a copied line is the command exactly. A piece wider than the column scrolls, and the keyboard can reach it.
 */
function Curl({ command }: { command: string }) {
  return (
    <pre class="curl" tabindex={0}>
      <code>
        {command.split(' ').map((word, i) => (
          <Fragment key={i}>
            {i === 0 ? null : ' '}
            {word.split(/(?<=[^/]\/)(?!\/)/).map((piece, j) => (
              <Fragment key={j}>
                {j === 0 ? null : <wbr />}
                <span class="nobreak">{piece}</span>
              </Fragment>
            ))}
          </Fragment>
        ))}
      </code>
    </pre>
  );
}

interface EndpointDoc {
  id: string;
  title: string;
  path: string;
  /** A concrete path to link and to curl, where `path` is a template. */
  example: string;
  contentType: string;
  description: string;
  curl: string;
}

/** The catalog's entry of a record: its path (a template with <market-id> and <date>), a concrete path to curl, and the words. */
function endpointDoc(site: Site, record: AnyEndpoint, sample: string): EndpointDoc {
  const path = pathAt(record, '<market-id>', '<date>');
  const example = pathAt(record, sample, site.snapshotDate);
  const attachment = attachmentAt(record, '<market-id>', '<date>');
  const listed = record.listed;
  const description = record.catalog?.description ?? listed?.description ?? '';
  return {
    id: record.catalog?.anchor ?? `endpoint-${path.slice(1).replaceAll('/', '-')}`,
    title: record.catalog?.title ?? listed?.label ?? path,
    path,
    example,
    contentType: CONTENT_TYPES[record.kind],
    description: description.replace('{listed}', listed?.description ?? '').replace('{attachment}', attachment ?? ''),
    // A download is saved under the name it is served with.
    curl: `curl -sS${attachment === undefined ? '' : ' -OJ'} ${site.url(example)}`,
  };
}

/** Every record with a catalog entry, in the catalog's order. */
function endpointDocs(site: Site): EndpointDoc[] {
  const sample = site.profiles[0]?.market.id ?? 'us-tx-austin';
  return ENDPOINT_LIST.flatMap(([, record]) => (record.catalog === undefined ? [] : [{ position: record.catalog.position, record }]))
    .sort((a, b) => a.position - b.position)
    .map(({ record }) => endpointDoc(site, record, sample));
}

function Endpoint({ site, doc }: { site: Site; doc: EndpointDoc }) {
  return (
    <section aria-labelledby={doc.id} class="endpoint">
      <h3 id={doc.id}>
        {doc.title}: <code>GET {doc.path}</code>
      </h3>
      <p>
        {doc.description} <code>{doc.contentType}</code>; <a href={site.href(doc.example)}>open {doc.example === doc.path ? 'it' : 'an example'}</a>.
      </p>
      <Curl command={doc.curl} />
    </section>
  );
}

/** The market ids, each linking its market's page: the per-market endpoints above take them. */
function MarketIds({ site }: { site: Site }) {
  return (
    <ul class="id-list">
      {site.profiles.map((p) => (
        <li key={p.market.id}>
          <a href={site.href(PATHS.marketPage(p.market.id))} title={displayName(p.market)}>
            <code>{p.market.id}</code>
          </a>
        </li>
      ))}
    </ul>
  );
}

interface Column {
  name: string;
  type: string;
  description: string;
}

/**
 * The columns of both CSV kinds in one table, each column once: where it stands in the profile CSV and in the series
 * CSV, its type, and what it holds (said once where both CSVs mean the same by it, for each where they differ).
 */
function CsvColumns({ profile, series }: { profile: readonly Column[]; series: readonly Column[] }) {
  const names = [...profile.map((c) => c.name), ...series.map((c) => c.name).filter((n) => !profile.some((c) => c.name === n))];
  return (
    <ReflowTable>
      <table class="columns-table">
        <caption>Every column of the two CSV kinds: the profile CSV's in its order, then the series CSV's own</caption>
        <thead>
          <tr>
            <th scope="col">Column</th>
            <th scope="col" class="num">
              Profile CSV
            </th>
            <th scope="col" class="num">
              Series CSV
            </th>
            <th scope="col">Type</th>
            <th scope="col">Notes</th>
          </tr>
        </thead>
        <tbody>
          {names.map((name) => {
            const p = profile.findIndex((c) => c.name === name);
            const s = series.findIndex((c) => c.name === name);
            const pc = profile[p];
            const sc = series[s];
            const types = [...new Set([pc?.type, sc?.type].filter((t): t is string => t !== undefined))];
            return (
              <tr key={name}>
                <th scope="row">
                  <code>{name}</code>
                </th>
                <td data-label="Profile" class="num">
                  {p === -1 ? <span class="muted">no</span> : `#${p + 1}`}
                </td>
                <td data-label="Series" class="num">
                  {s === -1 ? <span class="muted">no</span> : `#${s + 1}`}
                </td>
                <td data-label="Type">{types.join(', ')}</td>
                <td data-label="Notes" class="block">
                  {pc !== undefined && sc !== undefined && pc.description !== sc.description ? (
                    <>
                      <span class="both">Profile CSV: {pc.description}</span> <span class="both">Series CSV: {sc.description}</span>
                    </>
                  ) : (
                    (pc ?? sc)?.description
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ReflowTable>
  );
}

/** One error code: its status, title and code as the term (the anchor a problem's type links to), what answers it as the description. */
function Problem({ code, status, title, note }: { code: string; status: number; title: string; note: string }) {
  return (
    <div class="problem">
      <dt id={`problem-${code.replaceAll('_', '-')}`}>
        {status} {title}: <code>{code}</code>
      </dt>
      <dd>{note}</dd>
    </div>
  );
}

/** The page's sections in the order they stand, which is the order its contents list them. */
const SECTIONS: readonly { id: string; title: string }[] = [
  { id: 'endpoints', title: 'Endpoints' },
  { id: 'markets', title: 'Market ids' },
  { id: 'csv-columns', title: 'CSV columns' },
  { id: 'consumers', title: 'Tools, client and contract' },
  { id: 'http', title: 'Caching and compression' },
  { id: 'errors', title: 'Errors' },
];

export function DataCatalogPage({ site }: { site: Site }) {
  const docs = endpointDocs(site);
  return (
    <>
      <h1>Data catalog</h1>
      <p class="lead">
        Every endpoint of the service, at <code>{site.baseUrl}</code>. All are read-only: GET and HEAD, no authentication, no request body. Query strings are
        not part of the contract and are ignored. Paths are exact and lower case, without a trailing slash.
      </p>
      <nav aria-label="On this page" class="toc">
        <ul>
          {SECTIONS.map((x) => (
            <li key={x.id}>
              <a href={`#${x.id}`}>{x.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="endpoints">
        <h2 id="endpoints">Endpoints</h2>
        {docs.map((d) => (
          <Endpoint key={d.id} site={site} doc={d} />
        ))}
      </section>
      <section aria-labelledby="markets">
        <h2 id="markets">Market ids</h2>
        <p>
          Market ids have the form <code>us-&lt;state code&gt;-&lt;city slug&gt;</code>. The set is fixed; a market appears only when its data land.
        </p>
        <MarketIds site={site} />
      </section>
      <section aria-labelledby="csv-columns">
        <h2 id="csv-columns">CSV columns</h2>
        <p>
          Two kinds of CSV, each described in JSON by its descriptor: the profile CSV (one row per metric of a market, or of every market), the{' '}
          <a href={site.href(PATHS.csvDescriptor)}>CSV column descriptor</a>; the series CSV (one row per observation, long format), the{' '}
          <a href={site.href(PATHS.seriesCsvDescriptor)}>series CSV descriptor</a>. Both are UTF-8 with a header line of the column names, quoting per RFC 4180,
          CRLF line ends and values as plain decimals (no thousands separators); schema version {SCHEMA_VERSION}.
        </p>
        <p id="series-csv-columns">
          Typed columns of the series CSV: <code>value</code> and <code>margin_of_error</code> are numbers (the margin empty where the agency publishes none),{' '}
          <code>illustrative</code> is <code>true</code> or <code>false</code>, and the period and snapshot columns are ISO dates: pandas reads the numbers and
          booleans without casts, DuckDB the dates too, and R&apos;s <code>read.csv</code> the numbers (the booleans and dates come as text:{' '}
          <code>as.logical()</code>, <code>as.Date()</code>). The columns both CSVs share have one type in both: <code>updated_date</code> and{' '}
          <code>live_data</code> are text, as the contract fixes them. <code>geography_code</code> is the Census Bureau&apos;s GEO_ID for a place (
          <code>1600000US0455000</code>), which every tool keeps as text with its leading zeros, or FHFA&apos;s five-digit metro code.
        </p>
        <CsvColumns profile={CSV_COLUMNS} series={SERIES_CSV_COLUMNS} />
      </section>
      <section aria-labelledby="consumers">
        <h2 id="consumers">Tools, client and contract</h2>
        <ul>
          <li>
            The <a href={site.href(PATHS.openApi)}>OpenAPI 3.1 document</a> describes every endpoint, response, header and error code, with real examples; API
            tools and client generators read it. The index names it in its <code>Link</code> header (<code>rel="service-desc"</code>).
          </li>
          <li>
            The <a href={site.href(PATHS.dataPackage)}>Data Package</a> lists the bulk CSV and each market's CSV as Frictionless tabular resources, with a Table
            Schema (types, required columns, constants, the primary key <code>market_id</code> + <code>metric_id</code>), the CSV dialect, each file's size and
            SHA-256 hash, the sources and their licenses.
          </li>
          <li>
            The contract is served here, where you can reach it: the <a href={site.href(PATHS.openApi)}>OpenAPI document</a>, the JSON Schemas of a{' '}
            <a href={site.href(PATHS.profileSchema)}>profile</a>, the <a href={site.href(PATHS.indexSchema)}>index</a>, a{' '}
            <a href={site.href(PATHS.seriesSchema)}>series</a> and the <a href={site.href(PATHS.vintagesSchema)}>vintages</a>, the{' '}
            <a href={site.href(PATHS.csvDescriptor)}>CSV</a> and <a href={site.href(PATHS.seriesCsvDescriptor)}>series CSV</a> descriptors, the error codes
            below and the versioning policy on the <a href={site.href(PATHS.changelog)}>changelog</a>. The service's source repository says the same in words in{' '}
            <code>docs/contract.md</code>.
          </li>
          <li>
            The typed client for TypeScript and JavaScript is the <code>market-profiles-client</code> package (<code>fetch</code> only, for Node.js 20 and
            browsers; no dependencies), whose types are generated from those schemas. It is built from the service's source repository: there,{' '}
            <code>npm ci</code>, then <code>npm pack</code> in its <code>client/</code> folder makes the tarball to <code>npm install</code> in your project.
            Without the repository, a generator such as <code>openapi-typescript</code> makes the same types from the OpenAPI document. The repository also has
            the commands <code>market-profiles list</code> and <code>market-profiles get &lt;market-id&gt; [--csv]</code>, which use that client.
          </li>
        </ul>
      </section>
      <section aria-labelledby="http">
        <h2 id="http">Caching and compression</h2>
        <ul>
          <li>
            Every response has a strong <code>ETag</code> and a <code>Last-Modified</code> from the snapshot date; send <code>If-None-Match</code> to get{' '}
            <code>304 Not Modified</code> when nothing changed.
          </li>
          <li>
            Send <code>Accept-Encoding: br</code> or <code>gzip</code> for a compressed body; <code>curl --compressed</code> does this.
          </li>
          <li>
            JSON and CSV responses carry a <code>Link</code> header with <code>rel="describedby"</code> pointing at their schema or descriptor.
          </li>
          <li>
            Cross-origin reads are allowed (<code>Access-Control-Allow-Origin: *</code>).
          </li>
        </ul>
      </section>
      <section aria-labelledby="errors">
        <h2 id="errors">Errors</h2>
        <p>
          Errors are RFC 9457 problem details with content type <code>application/problem+json</code>: <code>type</code> (a link to the entry below),{' '}
          <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code> when the path is safe to echo, and a stable machine{' '}
          <code>code</code>. Never HTML, never a stack trace.
        </p>
        <dl class="problems">
          {DOCUMENTED_CODES.map((code) => {
            const { status, title, type, note } = PROBLEM_CATALOGUE[code] as (typeof PROBLEM_CATALOGUE)[typeof code] & { note: string };
            return <Problem key={code} code={code} status={status} title={title} note={type === 'about:blank' ? `${note} Its type is about:blank.` : note} />;
          })}
        </dl>
      </section>
    </>
  );
}
