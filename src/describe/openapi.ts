// The OpenAPI 3.1 document served at /api/openapi, generated from what the route table serves: the contract's schemas, the error catalogue, the headers of each route and real bodies as examples.
import { PROFILE_CAVEATS, SCHEMA_VERSION, MARKET_ID_PATTERN } from '../contract/schemas.ts';
import { documentComponents } from '../contract/documents.ts';
import { NOT_MODIFIED_KEEP, PROBLEM_HEADERS, UNCACHED_PROBLEM_HEADERS, CONTENT_TYPES, type Header } from '../protocol/headers.ts';
import { BAD_TARGET_REASONS } from '../protocol/request-target.ts';
import { PROBLEM_CATALOGUE, PROBLEM_CODES, badRequestProblem, marketProblem, problem, vintageProblem } from '../protocol/problems.ts';
import { PATHS } from '../contract/paths.ts';
import { ENDPOINT_LIST, namesDate, namesMarket, pathAt, type OpenApiTag } from '../contract/endpoints.ts';
import { bodyOf, type Served } from './served.ts';

export const OPENAPI_VERSION = '3.1.0';
/** The market id the examples use (the first market when it is not served). */
export const SAMPLE_MARKET = 'us-tx-austin';
/** A market id no build serves (a state code that does not exist), for the examples of an unknown market. */
export const EXAMPLE_UNKNOWN_MARKET = 'us-zz-nowhere';
/** A date no snapshot has, for the vintage paths' 404 examples. */
export const EXAMPLE_UNKNOWN_DATE = '1999-01-01';

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

/**
 * The headers of a route's 200, ETag and Content-Encoding included (Content-Type is the media type's key). `others`: the
 * headers of the same operation at its other vintages, whose Cache-Control may differ (immutable once archived, the
 * ordinary rule for the current snapshot until then): every value it takes is listed.
 */
function okHeaders(headers: readonly Header[], samples: Samples, others: readonly (readonly Header[])[] = []): Json {
  const cacheRules = [...new Set(others.flat().flatMap(([k, v]) => (k === 'Cache-Control' ? [v] : [])))];
  return {
    ETag: ETAG_HEADER,
    'Content-Encoding': CONTENT_ENCODING_HEADER,
    ...Object.fromEntries(
      headers
        .filter(([k]) => k !== 'Content-Type')
        .map(([k, v]) => [k, headerObject(k, k === 'Cache-Control' ? [...new Set([v, ...cacheRules])] : [v], samples)]),
    ),
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
      canonicalPath: {
        type: 'string',
        pattern: '^/',
        description: 'not_found, market_not_found: the published path the request differs from only by case or a trailing slash (still a 404).',
      },
      knownSnapshotDates: {
        type: 'array',
        items: { type: 'string', format: 'date' },
        description: 'not_found under /api/vintages/: the dates of every snapshot served, newest first.',
      },
      vintages: { type: 'string', format: 'uri', description: 'not_found under /api/vintages/: the list of snapshots.' },
    },
  };
}

/**
 * The documents' schemas as `components.schemas` holds them: the contract's (the same the draft-07 schemas at /api/schema/*
 * publish), the two CSV descriptors' and the problem's. The client package's types are generated from these (client/scripts/generate.ts).
 */
export function componentSchemas(): Json {
  return { ...documentComponents(), Problem: problemSchema() };
}

/** The groups the operations are listed in (every operation has one: API tools group by them), with what each holds. */
const TAGS = [
  { name: 'markets', description: "The markets: the index, each market's profile and CSV, and every market's CSV." },
  { name: 'series', description: 'Every observation behind the values, per market and metric, as JSON and long-format CSV.' },
  { name: 'vintages', description: 'Every published snapshot, at addresses whose bytes never change.' },
  { name: 'download', description: 'Every JSON and CSV document in one zip.' },
  { name: 'descriptions', description: 'What describes the data: the JSON Schemas, the CSV descriptors, the Data Package and this document.' },
  { name: 'service', description: 'The state of the service itself.' },
] as const;

interface Operation {
  /** The OpenAPI path (a template for per-market paths). */
  template: string;
  tag: OpenApiTag;
  /** A concrete path of it: where the headers and the example come from. */
  sample: string;
  operationId: string;
  summary: string;
  description: string;
  schema: Json;
  /** `value`: the served body; `excerpt`: the served body cut short (arrays to their first items, observations to the latest, a CSV to its first market, this document to its head); `none`: binary, no example. */
  example: 'value' | 'excerpt' | 'none';
  perMarket?: boolean;
  /** The path names a snapshot date (`{snapshotDate}`): one of the vintages served. */
  perVintage?: boolean;
  /** The endpoint whose schema or descriptor describes the body. */
  describedBy?: string;
}

/** The operation of every record that has one, in the records' order, with its sample path at a market and a date. */
function operations(sample: string, date: string): Operation[] {
  return ENDPOINT_LIST.flatMap(([, record]) => {
    const op = record.openApi;
    if (op === undefined) return [];
    return [
      {
        ...op,
        schema: { ...op.schema },
        template: pathAt(record, '{marketId}', '{snapshotDate}'),
        sample: pathAt(record, sample, date),
        ...(namesMarket(record) ? { perMarket: true } : {}),
        ...(namesDate(record) ? { perVintage: true } : {}),
        ...(record.describedBy === undefined ? {} : { describedBy: record.describedBy }),
      },
    ];
  });
}

/**
 * The header line and the rows of the first market of a CSV: the real bytes, cut short. A series CSV (a row per
 * observation, by metric then period) keeps each metric's latest row only: one market's every period would be most of
 * the document's size.
 */
function firstMarketRows(csv: string, latestOnly: boolean): string {
  const [header = '', ...rows] = csv.split('\r\n');
  const first = (rows[0] ?? '').split(',')[0] ?? '';
  const kept = rows.filter((row) => row.startsWith(`${first},`));
  const metricOf = (row: string): string => row.split(',')[1] ?? '';
  const latest = latestOnly ? kept.filter((row, i) => metricOf(kept[i + 1] ?? '') !== metricOf(row)) : kept;
  return `${[header, ...latest].join('\r\n')}\r\n`;
}

/**
 * A JSON document cut short: each top-level list to its first item, and each metric's observations (oldest first) to
 * the latest, its state's and the nation's too.
 */
function cutJson(doc: Json): Json {
  const latest = (line: unknown): unknown => {
    const observations = (line as { observations?: unknown }).observations;
    return Array.isArray(observations) ? { ...(line as Json), observations: observations.slice(-1) } : line;
  };
  const metricCut = (metrics: unknown): unknown =>
    typeof metrics === 'object' && metrics !== null && !Array.isArray(metrics)
      ? Object.fromEntries(
          Object.entries(metrics).map(([id, m]) => {
            const comparisons = (m as { comparisons?: unknown }).comparisons;
            return [id, { ...(latest(m) as Json), ...(Array.isArray(comparisons) ? { comparisons: comparisons.map(latest) } : {}) }];
          }),
        )
      : metrics;
  return Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, 1) : k === 'metrics' ? metricCut(v) : v]));
}

/** An example of an operation's 200: the served body, or the served body cut short (an excerpt), never anything else. */
function example(op: Operation, served: Served, head: Json): Json {
  if (op.template === PATHS.openApi) return { summary: 'The head of this document; paths and components follow.', value: head };
  if (op.example === 'none') return { summary: 'Binary: no example is shown.' };
  const route = served(op.sample);
  const text = bodyOf(served, op.sample).toString('utf8');
  if (route.kind === 'csv') {
    if (op.example === 'value') return { summary: `The body served at ${op.sample}`, value: text };
    const series = op.describedBy === 'seriesCsvDescriptor';
    return {
      summary: series
        ? "The header line and the latest row of each metric of the first market; the file holds every period, and every market's rows, sorted."
        : 'The header line and the rows of the first market; the file goes on with every other market.',
      value: firstMarketRows(text, series),
    };
  }
  const doc = JSON.parse(text) as Json;
  if (op.example === 'value') return { summary: `The body served at ${op.sample}`, value: doc };
  return { summary: "The document with each list cut to its first item and each metric's observations to the latest.", value: cutJson(doc) };
}

const problemExample = (summary: string, value: unknown): Json => ({ summary, value });

/**
 * The header objects every response that has the header states alike (ETag, Vary, the CORS headers, …), moved to
 * `components.headers` under the header's name and referenced from each response: the same words once, not once per
 * response. A header whose value differs by route (Cache-Control, Content-Disposition, Link) stays where it is.
 */
function sharedHeaders(paths: Json): Json {
  const responses = Object.values(paths).flatMap((item) => Object.values((item as { get: { responses: Json } }).get.responses)) as Json[];
  const lists = responses.flatMap((r) => (typeof r.headers === 'object' && r.headers !== null ? [r.headers as Json] : []));
  const seen = new Map<string, Set<string>>();
  for (const list of lists) for (const [name, header] of Object.entries(list)) seen.set(name, (seen.get(name) ?? new Set()).add(JSON.stringify(header)));
  const count = (name: string): number => lists.filter((list) => name in list).length;
  const shared = [...seen].filter(([name, forms]) => forms.size === 1 && count(name) > 1).map(([name]) => name);
  const components: Json = {};
  for (const list of lists)
    for (const name of shared)
      if (name in list) {
        components[name] = list[name];
        list[name] = ref('headers', name);
      }
  return Object.fromEntries(Object.entries(components).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

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
        'No authentication: `security` is empty because every path is public and reads no API key, token or cookie; a request carries nothing but its path and headers.',
        '',
        "The license is that of the service's code and of this description; the data keep the licenses and terms of their upstream datasets, listed per source in the Data Package (/api/datapackage) and on the data sources page.",
        '',
        'Caveats, which every consumer must show with the data:',
        ...PROFILE_CAVEATS.map((c) => `- ${c}`),
      ].join('\n'),
      // The service knows no address of its operators: its data catalog page is where it documents itself.
      contact: { name: 'Market profiles data catalog', url: baseUrl + PATHS.dataCatalog },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl, description: 'This deployment: the BASE_URL it was built with.' }],
    security: [],
    tags: TAGS.map((tag) => ({ ...tag })),
    externalDocs: { description: 'The data catalog: every endpoint, the CSV columns and every error code.', url: baseUrl + PATHS.dataCatalog },
  };
  const paths: Json = {};
  const date = vintageDates[0] ?? '';
  for (const op of operations(sample, date)) {
    const route = served(op.sample);
    const samples: Samples = [...(op.perMarket ? [[sample, MARKET_ID_INNER] as const] : []), ...(op.perVintage ? [[date, DATE_INNER] as const] : [])];
    const media: Json =
      op.example === 'none' ? { schema: op.schema } : { schema: op.schema, examples: { [op.perMarket ? sample : 'served']: example(op, served, head) } };
    const responses: Json = {
      '200': {
        description: op.summary,
        headers: okHeaders(
          route.headers,
          samples,
          op.perVintage === true ? vintageDates.map((d) => served(op.template.replace('{marketId}', sample).replace('{snapshotDate}', d)).headers) : [],
        ),
        content: { [route.contentType]: media },
      },
      '304': notModified(route.headers),
    };
    // A vintage path with an unknown date or market is no market path: it answers not_found, declared as its own 404.
    if (op.perVintage === true) {
      const unknownPath = op.template.replace('{snapshotDate}', EXAMPLE_UNKNOWN_DATE).replace('{marketId}', sample);
      responses['404'] = {
        description: `No snapshot of this date is served${op.perMarket ? ', or the snapshot has no market of this id' : ''} (code not_found): a vintage address that names nothing.`,
        headers: mergedHeaders(PROBLEM_HEADERS),
        // The dates there are, newest first, as every engine lists them (problems.ts, pathHints).
        content: problemContent({
          not_found: problemExample(`GET ${unknownPath}`, vintageProblem(baseUrl, EXAMPLE_UNKNOWN_DATE, unknownPath, [...vintageDates].sort().reverse())),
        }),
      };
    } else if (op.perMarket) {
      const unknownPath = op.template.replace('{marketId}', EXAMPLE_UNKNOWN_MARKET);
      responses['404'] = {
        description: 'No market has this id (code market_not_found): the body echoes the id and lists every known one.',
        headers: mergedHeaders(PROBLEM_HEADERS),
        content: problemContent({
          [EXAMPLE_UNKNOWN_MARKET]: problemExample(`GET ${unknownPath}`, marketProblem(baseUrl, EXAMPLE_UNKNOWN_MARKET, unknownPath, [...marketIds].sort())),
        }),
      };
    }
    responses['4XX'] = ref('responses', 'ClientError');
    responses.default = ref('responses', 'ServerError');
    paths[op.template] = {
      get: {
        tags: [op.tag],
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
  const headers = sharedHeaders(paths);
  return {
    ...head,
    paths,
    components: {
      schemas: componentSchemas(),
      headers,
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
        ClientError: {
          description:
            'The request is refused, as problem+json with the code of the error catalogue: a malformed path (400 bad_request), nothing at a vintage path (404 not_found), headers too large (431 headers_too_large), a request that did not arrive in time (408 request_timeout).',
          headers: mergedHeaders(PROBLEM_HEADERS, UNCACHED_PROBLEM_HEADERS),
          content: problemContent({
            bad_request: problemExample('A path with malformed percent-encoding', badRequestProblem(baseUrl, BAD_TARGET_REASONS.encoding)),
            headers_too_large: problemExample('Request headers over the limit', problem(baseUrl, 'headers_too_large')),
            request_timeout: problemExample('A request that did not arrive in time', problem(baseUrl, 'request_timeout')),
          }),
        },
        ServerError: {
          description: 'A fault of the service or of an engine in front of it (5xx), as problem+json with the code of the error catalogue.',
          headers: mergedHeaders(PROBLEM_HEADERS, UNCACHED_PROBLEM_HEADERS),
          content: problemContent({
            service_unavailable: problemExample('An engine that cannot answer for now', problem(baseUrl, 'service_unavailable')),
          }),
        },
      },
    },
  };
}
