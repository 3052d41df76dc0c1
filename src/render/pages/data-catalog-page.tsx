// /data-catalog: every endpoint with its URL, format and a curl line; the tools, the client and the contract; the CSV columns; the error codes.
import { Fragment } from 'preact';
import { CSV_COLUMNS, SCHEMA_VERSION } from '../../contract/schemas.ts';
import { SERIES_CSV_COLUMNS } from '../../contract/series.ts';
import { PATHS } from '../../contract/paths.ts';
import { ENDPOINT_LIST, attachmentAt, pathAt, type AnyEndpoint } from '../../contract/endpoints.ts';
import { CONTENT_TYPES } from '../../protocol/headers.ts';
import { DOCUMENTED_CODES, PROBLEM_CATALOGUE } from '../../protocol/problems.ts';
import { Facts, MarketRowHeader, ReflowTable } from './components.tsx';
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
      <p>{doc.description}</p>
      <Facts
        items={[
          [
            'URL',
            <a key="u" href={site.href(doc.example)}>
              {site.url(doc.example)}
            </a>,
          ],
          ['Content type', <code key="c">{doc.contentType}</code>],
        ]}
      />
      <Curl command={doc.curl} />
    </section>
  );
}

function MarketEndpoints({ site }: { site: Site }) {
  return (
    <ReflowTable>
      <table>
        <caption>The {site.profiles.length} market ids and their endpoints</caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            <th scope="col">Id</th>
            <th scope="col">JSON</th>
            <th scope="col">CSV</th>
          </tr>
        </thead>
        <tbody>
          {site.profiles.map((p) => (
            <tr key={p.market.id}>
              <MarketRowHeader site={site} market={p.market} />
              <td data-label="Id">
                <code>{p.market.id}</code>
              </td>
              <td data-label="JSON">
                <a href={site.href(PATHS.profile(p.market.id))}>{PATHS.profile(p.market.id)}</a>
              </td>
              <td data-label="CSV">
                <a href={site.href(PATHS.marketCsv(p.market.id))}>{PATHS.marketCsv(p.market.id)}</a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ReflowTable>
  );
}

function CsvColumns({ columns, caption }: { columns: readonly { name: string; type: string; description: string }[]; caption: string }) {
  return (
    <ReflowTable>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col" class="num">
              #
            </th>
            <th scope="col">Column</th>
            <th scope="col">Type</th>
            <th scope="col">Notes</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((c, i) => (
            <tr key={c.name}>
              <td data-label="Column" class="num">
                {i + 1}
              </td>
              <th scope="row">
                <code>{c.name}</code>
              </th>
              <td data-label="Type">{c.type}</td>
              <td data-label="Notes">{c.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ReflowTable>
  );
}

function Problem({ code, status, title, note }: { code: string; status: number; title: string; note: string }) {
  const id = `problem-${code.replaceAll('_', '-')}`;
  return (
    <section aria-labelledby={id} class="problem">
      <h3 id={id}>
        {status} {title}: <code>{code}</code>
      </h3>
      <p>{note}</p>
    </section>
  );
}

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
          <li>
            <a href="#endpoints">Endpoints</a>
          </li>
          <li>
            <a href="#markets">Market ids</a>
          </li>
          <li>
            <a href="#csv-columns">CSV columns</a>
          </li>
          <li>
            <a href="#consumers">Tools, client and contract</a>
          </li>
          <li>
            <a href="#http">Caching and compression</a>
          </li>
          <li>
            <a href="#errors">Errors</a>
          </li>
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
        <MarketEndpoints site={site} />
      </section>
      <section aria-labelledby="csv-columns">
        <h2 id="csv-columns">CSV columns</h2>
        <p>
          Both CSV endpoints share one contract, described in JSON by the <a href={site.href(PATHS.csvDescriptor)}>CSV column descriptor</a>: UTF-8, a header
          line of the column names, quoting per RFC 4180, CRLF line ends, values as plain decimals (no thousands separators). Schema version {SCHEMA_VERSION}.
        </p>
        <CsvColumns columns={CSV_COLUMNS} caption="The eleven CSV columns, in order" />
        <h3 id="series-csv-columns">Series CSV columns</h3>
        <p>
          Both series CSV endpoints share the <a href={site.href(PATHS.seriesCsvDescriptor)}>series CSV descriptor</a>, in the same format, one row per
          observation (long format). Typed columns: <code>value</code> and <code>margin_of_error</code> are numbers (the margin empty where the agency publishes
          none), <code>illustrative</code> is <code>true</code> or <code>false</code>, and the period and snapshot columns are ISO dates: pandas reads the
          numbers and booleans without casts, DuckDB the dates too, and R&apos;s <code>read.csv</code> the numbers (the booleans and dates come as text:
          <code>as.logical()</code>, <code>as.Date()</code>). The columns both CSVs share have one type in both: <code>updated_date</code> and{' '}
          <code>live_data</code> are text, as the contract fixes them. <code>geography_code</code> is the Census Bureau&apos;s GEO_ID for a place (
          <code>1600000US0455000</code>), which every tool keeps as text with its leading zeros, or FHFA&apos;s five-digit metro code.
        </p>
        <CsvColumns columns={SERIES_CSV_COLUMNS} caption="The series CSV columns, in order" />
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
        {DOCUMENTED_CODES.map((code) => {
          const { status, title, type, note } = PROBLEM_CATALOGUE[code] as (typeof PROBLEM_CATALOGUE)[typeof code] & { note: string };
          return <Problem key={code} code={code} status={status} title={title} note={type === 'about:blank' ? `${note} Its type is about:blank.` : note} />;
        })}
      </section>
    </>
  );
}
