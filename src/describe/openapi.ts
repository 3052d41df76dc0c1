// The OpenAPI 3.1 document served at /api/openapi, generated from what the route table serves: the contract's schemas, the error catalogue, the headers of each route and real bodies as examples.
import { CsvDescriptor, PROFILE_CAVEATS, SCHEMA_VERSION, MARKET_ID_PATTERN, plainSchema } from '../contract/schemas.ts';
import { CONTRACT_SCHEMAS } from '../contract/published.ts';
import { SeriesCsvDescriptor } from '../contract/series.ts';
import { NOT_MODIFIED_KEEP, PROBLEM_HEADERS, UNCACHED_PROBLEM_HEADERS, CONTENT_TYPES, type Header } from '../protocol/headers.ts';
import { BAD_TARGET_REASONS } from '../protocol/request-target.ts';
import { PROBLEM_CATALOGUE, PROBLEM_CODES, badRequestProblem, marketProblem, problem } from '../protocol/problems.ts';
import { PATHS } from '../contract/paths.ts';
import { bodyOf, type Served } from './served.ts';

export const OPENAPI_VERSION = '3.1.0';
/** The market id the examples use (the first market when it is not served). */
export const SAMPLE_MARKET = 'us-tx-austin';
/** A market id no build serves (a state code that does not exist), for the examples of an unknown market. */
export const EXAMPLE_UNKNOWN_MARKET = 'us-zz-nowhere';

type Json = Record<string, unknown>;

export interface OpenApiInput {
  baseUrl: string;
  marketIds: readonly string[];
  /** The snapshot dates served under /api/vintages, the current one first. */
  vintageDates: readonly string[];
  served: Served;
}

const ref = (section: string, name: string): Json => ({ $ref: `#/components/${section}/${name}` });

const HEADER_NOTES: Readonly<Record<string, string>> = {
  ETag: 'Strong entity tag of the representation sent, different for each content encoding; send it back in If-None-Match to revalidate.',
  'Cache-Control': 'How long any cache may keep the answer.',
  'Last-Modified': 'The snapshot date of the data at 00:00 UTC; If-Modified-Since is compared with it.',
  Vary: 'The body depends on Accept-Encoding (precompressed gzip and br variants).',
  'Access-Control-Allow-Origin': 'Any origin may read the answer: public, read-only data.',
  'Access-Control-Expose-Headers': 'The headers a script on another origin may read.',
  'X-Content-Type-Options': 'Browsers must not guess another content type.',
  'Content-Disposition': 'A download, and the file name to save it under.',
  'Content-Encoding': 'Present when Accept-Encoding chose a precompressed variant (br or gzip); absent for the identity bytes.',
  Link: 'Related documents (RFC 8288): the schema or descriptor of this body (rel="describedby"); on the index also this OpenAPI document (rel="service-desc").',
};

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The market-id pattern without its anchors, to put inside a longer pattern. */
const MARKET_ID_INNER = MARKET_ID_PATTERN.replace(/^\^/, '').replace(/\$$/, '');

/** A date segment of a vintage path, inside a longer pattern. */
const DATE_INNER = '[0-9]{4}-[0-9]{2}-[0-9]{2}';

/** What a header value says of the path it answers: the sample market's id and the sample snapshot date, each with the pattern it stands for. */
type Samples = readonly (readonly [sample: string, inner: string])[];

/** One header as OpenAPI describes it: its exact value, or a pattern where the value names the market (or the snapshot) of the path. */
function headerObject(name: string, values: readonly string[], samples: Samples, required = true): Json {
  const description = HEADER_NOTES[name] ?? name;
  if (name === 'Last-Modified') return { description, required, schema: { type: 'string' }, example: values[0] };
  const first = values[0] ?? '';
  const named = samples.filter(([sample]) => first.includes(sample));
  if (values.length === 1 && named.length > 0) {
    let pattern = escapeRegex(first);
    for (const [sample, inner] of named) pattern = pattern.split(escapeRegex(sample)).join(inner);
    return { description, required, schema: { type: 'string', pattern: `^${pattern}$` }, example: first };
  }
  return { description, required, schema: values.length === 1 ? { type: 'string', const: first } : { type: 'string', enum: [...values] } };
}

const ETAG_HEADER: Json = { description: HEADER_NOTES.ETag, required: true, schema: { type: 'string', pattern: '^"[^"]*"$' } };
const CONTENT_ENCODING_HEADER: Json = { description: HEADER_NOTES['Content-Encoding'], required: false, schema: { type: 'string', enum: ['br', 'gzip'] } };

/** The headers of a route's 200, ETag and Content-Encoding included (Content-Type is the media type's key). */
function okHeaders(headers: readonly Header[], samples: Samples): Json {
  return {
    ETag: ETAG_HEADER,
    'Content-Encoding': CONTENT_ENCODING_HEADER,
    ...Object.fromEntries(headers.filter(([k]) => k !== 'Content-Type').map(([k, v]) => [k, headerObject(k, [v], samples)])),
  };
}

/** What a 304 carries: the ETag and the route's headers a 304 may keep. */
function notModified(headers: readonly Header[]): Json {
  return {
    description: 'Not modified: the entity tag in If-None-Match (or the date in If-Modified-Since) still matches. No body.',
    headers: {
      ETag: ETAG_HEADER,
      ...Object.fromEntries(headers.filter(([k]) => NOT_MODIFIED_KEEP.has(k.toLowerCase())).map(([k, v]) => [k, headerObject(k, [v], [])])),
    },
  };
}

/** Every header name of some header lists, with every value it takes in them. */
function mergedHeaders(...lists: (readonly Header[])[]): Json {
  const values = new Map<string, string[]>();
  for (const [k, v] of lists.flat()) values.set(k, [...new Set([...(values.get(k) ?? []), v])]);
  return Object.fromEntries([...values].map(([k, vs]) => [k, headerObject(k, vs, [])]));
}

/** RFC 9457 problem details as every engine answers them, with the catalogue's codes. */
function problemSchema(): Json {
  return {
    title: 'Problem details',
    description:
      'An RFC 9457 problem with a stable machine code. type links the code on the data catalog page (about:blank for answers of the HTTP layer); instance is the request path when it is safe to echo.',
    type: 'object',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string' },
      instance: { type: 'string', pattern: '^/' },
      code: { type: 'string', enum: [...PROBLEM_CODES], description: PROBLEM_CODES.map((c) => `${c}: ${PROBLEM_CATALOGUE[c].status}`).join('; ') },
      marketId: { type: 'string', description: 'market_not_found: the id asked for, when it is safe to echo.' },
      knownMarketIds: { type: 'array', items: { type: 'string', pattern: MARKET_ID_PATTERN }, description: 'market_not_found: every market id served.' },
      index: { type: 'string', format: 'uri', description: 'market_not_found: the index of markets.' },
      catalog: { type: 'string', format: 'uri', description: 'not_found: the data catalog page.' },
    },
  };
}

interface Operation {
  /** The OpenAPI path (a template for per-market paths). */
  template: string;
  /** A concrete path of it: where the headers and the example come from. */
  sample: string;
  operationId: string;
  summary: string;
  description: string;
  schema: Json;
  /** `value`: the served body; `excerpt`: the served body cut short (arrays to their first items, a CSV to its first market, this document to its head); `none`: binary, no example. */
  example: 'value' | 'excerpt' | 'none';
  perMarket?: boolean;
  /** The path names a snapshot date (`{snapshotDate}`): one of the vintages served. */
  perVintage?: boolean;
}

function operations(sample: string, date: string): Operation[] {
  const csvText = (what: string): Json => ({ type: 'string', description: `CSV text: ${what}.` });
  const jsonSchemaDoc = (what: string): Json => ({ type: 'object', description: `A JSON Schema (draft-07) document: ${what}.` });
  return [
    {
      template: PATHS.index,
      sample: PATHS.index,
      operationId: 'listMarkets',
      summary: 'Every market, with scores, coverage, freshness and links',
      description: 'The index of every market served, sorted by id, with the links to each market and to the schemas, and the caveats.',
      schema: ref('schemas', 'MarketIndex'),
      example: 'value',
    },
    {
      template: PATHS.profile('{marketId}'),
      sample: PATHS.profile(sample),
      operationId: 'getMarketProfile',
      summary: 'One market profile',
      description: 'The profile of one market: market, scores, metrics with their sources, freshness, coverage, caveats and links.',
      schema: ref('schemas', 'MarketProfile'),
      example: 'value',
      perMarket: true,
    },
    {
      template: PATHS.marketCsv('{marketId}'),
      sample: PATHS.marketCsv(sample),
      operationId: 'getMarketCsv',
      summary: "One market's metrics as CSV",
      description:
        'One row per metric of the market after a header line, UTF-8, RFC 4180 quoting, CRLF line ends; the columns are those of the CSV descriptor (/api/schema/market-csv).',
      schema: { type: 'string', description: 'CSV text: the columns of the CSV descriptor, one row per metric.' },
      example: 'value',
      perMarket: true,
    },
    {
      template: PATHS.bulkCsv,
      sample: PATHS.bulkCsv,
      operationId: 'getBulkCsv',
      summary: "Every market's metrics as one CSV",
      description: 'The rows of every market CSV in one file, sorted by market_id, then metric_id, after one header line.',
      schema: { type: 'string', description: 'CSV text: the columns of the CSV descriptor, one row per metric of every market.' },
      example: 'excerpt',
    },
    {
      template: PATHS.series('{marketId}'),
      sample: PATHS.series(sample),
      operationId: 'getMarketSeries',
      summary: "One market's every observation, per metric",
      description:
        'Every observation the snapshot holds of each metric of the market (FHFA quarter by quarter; the ACS and BPS vintages), with period, period start and end, value, margin of error and the illustrative flag where the profile has them, unit, source, frequency and area.',
      schema: ref('schemas', 'MarketSeries'),
      example: 'excerpt',
      perMarket: true,
    },
    {
      template: PATHS.seriesCsv('{marketId}'),
      sample: PATHS.seriesCsv(sample),
      operationId: 'getMarketSeriesCsv',
      summary: "One market's series as CSV, one row per observation",
      description:
        'Long format, one row per observation, UTF-8, RFC 4180 quoting, CRLF; the columns are those of the series CSV descriptor (/api/schema/series-csv).',
      schema: csvText('the columns of the series CSV descriptor, one row per observation'),
      example: 'excerpt',
      perMarket: true,
    },
    {
      template: PATHS.bulkSeriesCsv,
      sample: PATHS.bulkSeriesCsv,
      operationId: 'getBulkSeriesCsv',
      summary: "Every market's series as one CSV",
      description: 'The rows of every market series CSV in one file, sorted by market_id, metric_id, then period, after one header line.',
      schema: csvText('the columns of the series CSV descriptor, one row per observation of every market'),
      example: 'excerpt',
    },
    {
      template: PATHS.vintages,
      sample: PATHS.vintages,
      operationId: 'listVintages',
      summary: 'Every published snapshot, newest first',
      description:
        "Each snapshot's date, methodology version, its sources' vintages, files (with SHA-256) and next expected release, and the links to its documents, which never change.",
      schema: ref('schemas', 'VintageIndex'),
      example: 'value',
    },
    {
      template: PATHS.vintageIndex('{snapshotDate}'),
      sample: PATHS.vintageIndex(date),
      operationId: 'getVintageIndex',
      summary: 'The market index as one snapshot published it',
      description: 'The index of markets of that snapshot, byte for byte as it was published; served with Cache-Control immutable.',
      schema: ref('schemas', 'MarketIndex'),
      example: 'excerpt',
      perVintage: true,
    },
    {
      template: PATHS.vintageProfile('{snapshotDate}', '{marketId}'),
      sample: PATHS.vintageProfile(date, sample),
      operationId: 'getVintageProfile',
      summary: 'One market profile as one snapshot published it',
      description: 'The profile of the market in that snapshot, byte for byte as it was published; served with Cache-Control immutable.',
      schema: ref('schemas', 'MarketProfile'),
      example: 'excerpt',
      perMarket: true,
      perVintage: true,
    },
    {
      template: PATHS.vintageCsv('{snapshotDate}', '{marketId}'),
      sample: PATHS.vintageCsv(date, sample),
      operationId: 'getVintageCsv',
      summary: "One market's CSV as one snapshot published it",
      description: "The market's CSV in that snapshot, byte for byte as it was published (the CSV descriptor's columns); served with Cache-Control immutable.",
      schema: csvText('the columns of the CSV descriptor, one row per metric'),
      example: 'value',
      perMarket: true,
      perVintage: true,
    },
    {
      template: PATHS.vintageBulkCsv('{snapshotDate}'),
      sample: PATHS.vintageBulkCsv(date),
      operationId: 'getVintageBulkCsv',
      summary: 'Every market as one CSV, as one snapshot published it',
      description: 'The bulk CSV of that snapshot, byte for byte as it was published; served with Cache-Control immutable.',
      schema: csvText('the columns of the CSV descriptor, one row per metric of every market'),
      example: 'excerpt',
      perVintage: true,
    },
    {
      template: PATHS.download,
      sample: PATHS.download,
      operationId: 'getDownload',
      summary: 'Every JSON and CSV document in one zip',
      description:
        'A zip of every JSON and CSV document this service serves, byte for byte, under names that mirror the paths (markets/us-tx-austin.json, markets/us-tx-austin.csv, …), with a README.txt of the caveats, licences and files. Its bytes are the same for the same data.',
      schema: { type: 'string', contentMediaType: 'application/zip' },
      example: 'none',
    },
    {
      template: PATHS.profileSchema,
      sample: PATHS.profileSchema,
      operationId: 'getMarketProfileSchema',
      summary: 'JSON Schema of a market profile',
      description: 'The draft-07 schema of a market profile; components.schemas.MarketProfile here is the same schema.',
      schema: jsonSchemaDoc('the market profile'),
      example: 'value',
    },
    {
      template: PATHS.indexSchema,
      sample: PATHS.indexSchema,
      operationId: 'getMarketIndexSchema',
      summary: 'JSON Schema of the market index',
      description: 'The draft-07 schema of the index; components.schemas.MarketIndex here is the same schema.',
      schema: jsonSchemaDoc('the market index'),
      example: 'value',
    },
    {
      template: PATHS.csvDescriptor,
      sample: PATHS.csvDescriptor,
      operationId: 'getCsvDescriptor',
      summary: 'The CSV column descriptor',
      description: 'The eleven CSV columns in order, their types and constants, and the caveats of the CSV format.',
      schema: ref('schemas', 'CsvDescriptor'),
      example: 'value',
    },
    {
      template: PATHS.seriesSchema,
      sample: PATHS.seriesSchema,
      operationId: 'getMarketSeriesSchema',
      summary: "JSON Schema of a market's series",
      description: 'The draft-07 schema of a series document; components.schemas.MarketSeries here is the same schema.',
      schema: jsonSchemaDoc('the market series'),
      example: 'value',
    },
    {
      template: PATHS.seriesCsvDescriptor,
      sample: PATHS.seriesCsvDescriptor,
      operationId: 'getSeriesCsvDescriptor',
      summary: 'The series CSV column descriptor',
      description: 'The columns of both series CSV endpoints in order, their types (string, number, boolean, date) and constants, and the caveats.',
      schema: ref('schemas', 'SeriesCsvDescriptor'),
      example: 'value',
    },
    {
      template: PATHS.vintagesSchema,
      sample: PATHS.vintagesSchema,
      operationId: 'getVintageIndexSchema',
      summary: 'JSON Schema of the vintage index',
      description: 'The draft-07 schema of /api/vintages; components.schemas.VintageIndex here is the same schema.',
      schema: jsonSchemaDoc('the vintage index'),
      example: 'value',
    },
    {
      template: PATHS.dataPackage,
      sample: PATHS.dataPackage,
      operationId: 'getDataPackage',
      summary: 'Frictionless Data Package of the CSVs',
      description:
        'A tabular Data Package (Frictionless Data v1): the bulk CSV and each market CSV as resources with absolute URLs, their Table Schema, CSV dialect, byte counts and SHA-256 hashes, sources and licenses.',
      schema: { type: 'object', description: 'A Frictionless Data Package descriptor (profile tabular-data-package).' },
      example: 'excerpt',
    },
    {
      template: PATHS.openApi,
      sample: PATHS.openApi,
      operationId: 'getOpenApi',
      summary: 'This OpenAPI document',
      description: 'This document: every endpoint, its responses, headers and examples.',
      schema: { type: 'object', description: 'An OpenAPI 3.1 document.' },
      example: 'excerpt',
    },
    {
      template: PATHS.health,
      sample: PATHS.health,
      operationId: 'getHealth',
      summary: 'Liveness probe',
      description: 'Answers {"status":"ok"} while the service runs; never cached.',
      schema: { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } },
      example: 'value',
    },
  ];
}

/** The header line and the rows of the first market of a CSV of every market: the real bytes, cut short. */
function firstMarketRows(csv: string): string {
  const [header = '', ...rows] = csv.split('\r\n');
  const first = (rows[0] ?? '').split(',')[0] ?? '';
  const kept = rows.filter((row) => row.startsWith(`${first},`));
  return `${[header, ...kept].join('\r\n')}\r\n`;
}

/** An example of an operation's 200: the served body, or the served body cut short (an excerpt), never anything else. */
function example(op: Operation, served: Served, head: Json): Json {
  if (op.template === PATHS.openApi) return { summary: 'The head of this document; paths and components follow.', value: head };
  if (op.example === 'none') return { summary: 'Binary: no example is shown.' };
  const route = served(op.sample);
  const text = bodyOf(served, op.sample).toString('utf8');
  if (route.kind === 'csv')
    return op.example === 'value'
      ? { summary: `The body served at ${op.sample}`, value: text }
      : { summary: 'The header line and the rows of the first market; the file goes on with every other market.', value: firstMarketRows(text) };
  const doc = JSON.parse(text) as Json;
  if (op.example === 'value') return { summary: `The body served at ${op.sample}`, value: doc };
  const cut = Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, 1) : v]));
  return { summary: 'The document with each list cut to its first item.', value: cut };
}

const problemExample = (summary: string, value: unknown): Json => ({ summary, value });

/** The OpenAPI 3.1 document of every endpoint (a JSON-ready object). */
export function openApiDocument(input: OpenApiInput): Json {
  const { baseUrl, marketIds, vintageDates, served } = input;
  const sample = marketIds.includes(SAMPLE_MARKET) ? SAMPLE_MARKET : (marketIds[0] ?? SAMPLE_MARKET);
  const problemContent = (examples: Json): Json => ({ [CONTENT_TYPES.problem]: { schema: ref('schemas', 'Problem'), examples } });
  const head: Json = {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Market profiles',
      version: SCHEMA_VERSION,
      summary: 'Source-attributed housing-market profiles of US markets, as JSON and CSV.',
      description: [
        `A public, read-only service: one profile per market as JSON, one CSV per market and one CSV of every market, every observation behind them as series (JSON and long-format CSV), every published snapshot at immutable addresses (/api/vintages), everything in one zip (/api/download), the schemas that describe them, and a Data Package of the CSVs. Every path answers GET and HEAD, without authentication, query string or request body; other methods answer 405 (method_not_allowed) with Allow: GET, HEAD, and OPTIONS a CORS preflight. info.version is the schemaVersion of the documents ("${SCHEMA_VERSION}"): consumers pin it and ignore fields they do not know.`,
        '',
        'Caveats, which every consumer must show with the data:',
        ...PROFILE_CAVEATS.map((c) => `- ${c}`),
      ].join('\n'),
    },
    servers: [{ url: baseUrl }],
    externalDocs: { description: 'The data catalog: every endpoint, the CSV columns and every error code.', url: baseUrl + PATHS.dataCatalog },
  };
  const paths: Json = {};
  const date = vintageDates[0] ?? '';
  for (const op of operations(sample, date)) {
    const route = served(op.sample);
    const samples: [string, string][] = [
      ...(op.perMarket ? [[sample, MARKET_ID_INNER] as [string, string]] : []),
      ...(op.perVintage ? [[date, DATE_INNER] as [string, string]] : []),
    ];
    const media: Json =
      op.example === 'none' ? { schema: op.schema } : { schema: op.schema, examples: { [op.perMarket ? sample : 'served']: example(op, served, head) } };
    const responses: Json = {
      '200': {
        description: op.summary,
        headers: okHeaders(route.headers, samples),
        content: { [route.contentType]: media },
      },
      '304': notModified(route.headers),
    };
    // A vintage path with an unknown date or market is no market path: it answers not_found, which `default` describes.
    if (op.perMarket && op.perVintage !== true) {
      const unknownPath = op.template.replace('{marketId}', EXAMPLE_UNKNOWN_MARKET);
      responses['404'] = {
        description: 'No market has this id (code market_not_found): the body echoes the id and lists every known one.',
        headers: mergedHeaders(PROBLEM_HEADERS),
        content: problemContent({
          [EXAMPLE_UNKNOWN_MARKET]: problemExample(`GET ${unknownPath}`, marketProblem(baseUrl, EXAMPLE_UNKNOWN_MARKET, unknownPath, [...marketIds].sort())),
        }),
      };
    }
    responses.default = ref('responses', 'Problem');
    paths[op.template] = {
      get: {
        operationId: op.operationId,
        summary: op.summary,
        description: `${op.description} HEAD answers the same status and headers without a body.`,
        ...(op.perMarket || op.perVintage
          ? { parameters: [...(op.perVintage ? [ref('parameters', 'snapshotDate')] : []), ...(op.perMarket ? [ref('parameters', 'marketId')] : [])] }
          : {}),
        responses,
      },
    };
  }
  const component = (name: keyof typeof CONTRACT_SCHEMAS): Json => {
    const { schema, title, description } = CONTRACT_SCHEMAS[name];
    return { title, description, ...plainSchema(schema) };
  };
  return {
    ...head,
    paths,
    components: {
      schemas: {
        MarketProfile: component('MarketProfile'),
        MarketIndex: component('MarketIndex'),
        MarketSeries: component('MarketSeries'),
        VintageIndex: component('VintageIndex'),
        CsvDescriptor: { title: 'CSV column descriptor', description: 'The columns of both CSV endpoints.', ...plainSchema(CsvDescriptor) },
        SeriesCsvDescriptor: {
          title: 'Series CSV column descriptor',
          description: 'The columns of both series CSV endpoints.',
          ...plainSchema(SeriesCsvDescriptor),
        },
        Problem: problemSchema(),
      },
      parameters: {
        marketId: {
          name: 'marketId',
          in: 'path',
          required: true,
          description: 'A market id, us-<state code>-<city slug>: one of the markets served (any other answers 404 market_not_found).',
          schema: { type: 'string', enum: [...marketIds].sort() },
          example: sample,
        },
        snapshotDate: {
          name: 'snapshotDate',
          in: 'path',
          required: true,
          description: 'The date of a published snapshot, YYYY-MM-DD: one of those /api/vintages lists (any other answers 404 not_found).',
          schema: { type: 'string', enum: [...vintageDates] },
          example: date,
        },
      },
      responses: {
        Problem: {
          description:
            'Any other error, as problem+json with the code of the error catalogue: a malformed path (400 bad_request), headers too large (431 headers_too_large), a request that did not arrive in time (408 request_timeout), or a server fault (5xx).',
          headers: mergedHeaders(PROBLEM_HEADERS, UNCACHED_PROBLEM_HEADERS),
          content: problemContent({
            bad_request: problemExample('A path with malformed percent-encoding', badRequestProblem(baseUrl, BAD_TARGET_REASONS.encoding)),
            headers_too_large: problemExample('Request headers over the limit', problem(baseUrl, 'headers_too_large')),
            request_timeout: problemExample('A request that did not arrive in time', problem(baseUrl, 'request_timeout')),
          }),
        },
      },
    },
  };
}
