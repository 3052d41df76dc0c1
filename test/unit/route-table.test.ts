// The route table: every path the fixtures make, each route's headers in order, the vintages' bytes and which bytes share variants, written out here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ENDPOINT_LIST, pathAt, type EndpointId } from '../../src/contract/endpoints.ts';
import { InvariantError } from '../../src/contract/errors.ts';
import type { PastSnapshot } from '../../src/methodology/series.ts';
import { buildRoutes, type Route, type RouteTable } from '../../src/routes/route-table.ts';
import { BASE_URL, body, buildTable } from '../support/data.ts';
import { WORLD_MARKET_IDS, buildWorld, buildWorldSnapshot, worldArchive } from '../world/world.ts';

const DATE = '2026-11-29';
const PAST = '2025-11-20';
const ID = 'us-tx-austin';

const table = buildTable();

const routeAt = (t: RouteTable, path: string): Route => t.routes.get(path) ?? assert.fail(`no route ${path}`);

type Headers = readonly (readonly [string, string])[];
/** The headers of a 200 as docs/contract.md gives them, in the order they are sent. */
const expected = (contentType: string, cacheControl: string, extra: Headers = [], page = false): Headers => [
  ['Content-Type', contentType],
  ['Cache-Control', cacheControl],
  ['Last-Modified', 'Sun, 29 Nov 2026 00:00:00 GMT'],
  ['Vary', 'Accept-Encoding'],
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', 'ETag, Link, Content-Disposition'],
  ['X-Content-Type-Options', 'nosniff'],
  ...(page
    ? ([
        [
          'Content-Security-Policy',
          "default-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ],
        ['Referrer-Policy', 'no-referrer'],
      ] as const)
    : []),
  ...extra,
];
const JSON_TYPE = 'application/json';
const CSV_TYPE = 'text/csv; charset=utf-8';
const OK = 'public, max-age=300';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const describedBy = (path: string): [string, string] => ['Link', `<${BASE_URL}${path}>; rel="describedby"`];
const attachment = (filename: string): [string, string] => ['Content-Disposition', `attachment; filename="${filename}"`];

/**
 * Every path a market has, and the headers of each, for market `id` of the snapshot `date`: its vintage with the ordinary
 * cache rule while the snapshot is not archived (`vintage` OK), immutable once it is.
 */
const marketRoutes = (id: string, date: string, vintage: string): [string, Headers][] => [
  [`/api/markets/${id}`, expected(JSON_TYPE, OK, [describedBy('/api/schema/market-profile')])],
  [`/api/markets/${id}/csv`, expected(CSV_TYPE, OK, [attachment(`${id}-housing.csv`), describedBy('/api/schema/market-csv')])],
  [`/api/markets/${id}/series`, expected(JSON_TYPE, OK, [describedBy('/api/schema/market-series')])],
  [`/api/markets/${id}/series/csv`, expected(CSV_TYPE, OK, [attachment(`${id}-series.csv`), describedBy('/api/schema/series-csv')])],
  [`/api/vintages/${date}/markets/${id}`, expected(JSON_TYPE, vintage, [describedBy('/api/schema/market-profile')])],
  [`/api/vintages/${date}/markets/${id}/csv`, expected(CSV_TYPE, vintage, [attachment(`${id}-housing-${date}.csv`), describedBy('/api/schema/market-csv')])],
  [`/markets/${id}`, expected('text/html; charset=utf-8', OK, [], true)],
];

/** The routes of the whole service, one of each market's included. */
const serviceRoutes = (date: string, vintage: string): [string, Headers][] => [
  [
    '/api/markets',
    expected(JSON_TYPE, OK, [['Link', `<${BASE_URL}/api/schema/market-index>; rel="describedby", <${BASE_URL}/api/openapi>; rel="service-desc"`]]),
  ],
  ['/api/markets/csv', expected(CSV_TYPE, OK, [attachment('housing-markets.csv'), describedBy('/api/schema/market-csv')])],
  ['/api/markets/series/csv', expected(CSV_TYPE, OK, [attachment('housing-markets-series.csv'), describedBy('/api/schema/series-csv')])],
  ['/api/vintages', expected(JSON_TYPE, OK, [describedBy('/api/schema/vintages')])],
  [`/api/vintages/${date}/markets`, expected(JSON_TYPE, vintage, [describedBy('/api/schema/market-index')])],
  [`/api/vintages/${date}/markets/csv`, expected(CSV_TYPE, vintage, [attachment(`housing-markets-${date}.csv`), describedBy('/api/schema/market-csv')])],
  ['/api/schema/market-profile', expected(JSON_TYPE, OK)],
  ['/api/schema/market-csv', expected(JSON_TYPE, OK)],
  ['/api/schema/market-index', expected(JSON_TYPE, OK)],
  ['/api/schema/market-series', expected(JSON_TYPE, OK)],
  ['/api/schema/series-csv', expected(JSON_TYPE, OK)],
  ['/api/schema/vintages', expected(JSON_TYPE, OK)],
  ...['/', '/data-status', '/methodology', '/data-sources', '/data-catalog', '/privacy', '/changelog'].map((path): [string, Headers] => [
    path,
    expected('text/html; charset=utf-8', OK, [], true),
  ]),
  ['/assets/site.css', expected('text/css; charset=utf-8', OK)],
  ['/healthz', expected(JSON_TYPE, 'no-store')],
  ['/robots.txt', expected('text/plain; charset=utf-8', OK)],
  ['/api/datapackage', expected(JSON_TYPE, OK)],
  ['/api/openapi', expected(JSON_TYPE, OK)],
  ['/sitemap.xml', expected('application/xml; charset=utf-8', OK)],
  ['/api/download', expected('application/zip', OK, [attachment('housing-markets.zip')])],
];

/** Every route of the table for a snapshot of `date`, with its headers: not yet archived unless `vintage` is IMMUTABLE. */
const allRoutes = (date: string, vintage = OK): [string, Headers][] => [
  ...serviceRoutes(date, vintage),
  ...WORLD_MARKET_IDS.flatMap((id) => marketRoutes(id, date, vintage)),
];

/** The endpoints whose paths the lists above write out (with the pages): the records of this test. */
const LISTED: readonly EndpointId[] = [
  'index',
  'profile',
  'marketCsv',
  'bulkCsv',
  'series',
  'seriesCsv',
  'bulkSeriesCsv',
  'vintages',
  'vintageIndex',
  'vintageProfile',
  'vintageCsv',
  'vintageBulkCsv',
  'download',
  'profileSchema',
  'indexSchema',
  'csvDescriptor',
  'seriesSchema',
  'seriesCsvDescriptor',
  'vintagesSchema',
  'dataPackage',
  'openApi',
  'health',
  'stylesheet',
  'robots',
  'sitemap',
];

/**
 * The paths of the records added after this test was written (a service record's once, a market record's for each
 * market): the table has them besides the routes above, and the test that comes with such a record lists them.
 */
const LATER: readonly string[] = ENDPOINT_LIST.flatMap(([id, record]) =>
  LISTED.includes(id)
    ? []
    : record.scope === 'service'
      ? [pathAt(record, '', '')]
      : record.scope === 'market'
        ? WORLD_MARKET_IDS.map((m) => pathAt(record, m, ''))
        : [],
);

describe('the route table', () => {
  test('every path the sixteen markets make, and no other: 7 per market and 26 for the service (and those of records added since)', () => {
    const paths = allRoutes(DATE).map(([path]) => path);
    assert.equal(WORLD_MARKET_IDS.length, 16, 'the fixtures hold sixteen markets');
    assert.equal(table.routes.size, 138 + LATER.length, 'routes');
    assert.deepEqual([...table.routes.keys()].sort(), [...paths, ...LATER].sort());
    assert.deepEqual(table.marketIds, [...WORLD_MARKET_IDS].sort(), 'the markets, by id');
  });

  test('each route with its headers, in the order they are sent, its Content-Type also on the route', () => {
    for (const [path, headers] of allRoutes(DATE)) {
      const route = routeAt(table, path);
      assert.deepEqual(route.headers, headers, path);
      assert.equal(route.contentType, headers[0]?.[1], `${path}: contentType`);
    }
  });

  test('Last-Modified is the snapshot date at midnight GMT, as an HTTP date', () => {
    assert.equal(table.snapshotDate, DATE);
    assert.equal(table.lastModified, 'Sun, 29 Nov 2026 00:00:00 GMT');
  });

  test('the links carry the base URL the table is built for', () => {
    const other = buildTable('https://data.example.org');
    assert.deepEqual(
      routeAt(other, `/api/markets/${ID}`).headers.find(([name]) => name === 'Link'),
      ['Link', '<https://data.example.org/api/schema/market-profile>; rel="describedby"'],
    );
    assert.equal(other.baseUrl, 'https://data.example.org');
  });

  test('the liveness probe answers {"status": "ok"}, pretty-printed like every JSON document', () => {
    assert.equal(body(table, '/healthz'), '{\n  "status": "ok"\n}\n');
  });

  test('the sitemap lists every page once, dated by the snapshot, and nothing that is not a page', () => {
    const sitemap = body(table, '/sitemap.xml');
    const locs = [...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    const pages = [
      '/',
      '/data-status',
      '/methodology',
      '/data-sources',
      '/data-catalog',
      '/privacy',
      '/changelog',
      ...WORLD_MARKET_IDS.map((id) => `/markets/${id}`),
    ];
    assert.deepEqual([...locs].sort(), pages.map((p) => `${BASE_URL}${p}`).sort());
    assert.equal([...sitemap.matchAll(/<lastmod>2026-11-29<\/lastmod>/g)].length, pages.length, 'one lastmod per page');
  });

  test('the HTML 404 page is a page of its own, not a route', () => {
    const page = table.notFoundPage.toString('utf8');
    assert.match(page, /^<!doctype html>/i, 'an HTML document');
    assert.match(page, /404|not found/i, 'says what happened');
    assert.equal(
      [...table.routes.values()].some((r) => r.identity.body.equals(table.notFoundPage)),
      false,
      'no route serves it',
    );
  });
});

describe('the vintages in the table', () => {
  test('the snapshot not yet archived: its vintage serves the current bytes, compressed once for both paths', () => {
    const pairs: [string, string][] = [
      ['/api/markets', `/api/vintages/${DATE}/markets`],
      ['/api/markets/csv', `/api/vintages/${DATE}/markets/csv`],
      ...WORLD_MARKET_IDS.flatMap((id): [string, string][] => [
        [`/api/markets/${id}`, `/api/vintages/${DATE}/markets/${id}`],
        [`/api/markets/${id}/csv`, `/api/vintages/${DATE}/markets/${id}/csv`],
      ]),
    ];
    for (const [current, vintage] of pairs) {
      const a = routeAt(table, current);
      const b = routeAt(table, vintage);
      assert.ok(a.identity.body.equals(b.identity.body), `${vintage}: the bytes of ${current}`);
      assert.equal(a.identity.etag, b.identity.etag, `${vintage}: the ETag of ${current}`);
      assert.equal(a.br, b.br, `${vintage}: the Brotli variant of ${current}, the same object`);
      assert.equal(a.gzip, b.gzip, `${vintage}: the gzip variant of ${current}, the same object`);
    }
  });

  const committed = worldArchive();
  /** The world's archive (the committed snapshots up to its date); its record of the current snapshot: the cases below build with it alone, or moved to another date. */
  const archived = committed.filter((p) => p.snapshotDate === DATE);

  test('the archived snapshot of the same date: its recorded bytes, with the base URL put back, and listed once', () => {
    assert.deepEqual(committed.map((p) => p.snapshotDate).sort(), ['2026-11-24', DATE], 'the committed archive: the first release, and the current snapshot');
    const record = archived[0]?.documents.get(`markets/${ID}.json`) ?? assert.fail('the archive holds Austin');
    assert.ok(record.toString('utf8').includes('{base_url}/'), 'the record is written with the placeholder');
    // The committed record holds today's bytes; one more line end tells the record from today's document.
    const marked = Buffer.concat([record, Buffer.from('\n')]);
    // The route table alone: the build would refuse an archive of its own date whose bytes are not its own (assertSameDocuments).
    const { snapshot } = buildWorldSnapshot({ baseUrl: BASE_URL, archive: archived });
    const archive = snapshot.archive.map((p): PastSnapshot => ({ ...p, documents: new Map([...p.documents, [`markets/${ID}.json`, marked]]) }));
    const t = buildRoutes({ baseUrl: BASE_URL, snapshot: { ...snapshot, archive } });
    assert.equal(t.routes.size, 138 + LATER.length, 'no route added or lost');
    assert.equal(body(t, `/api/vintages/${DATE}/markets/${ID}`), marked.toString('utf8').replaceAll('{base_url}', BASE_URL));
    assert.notEqual(body(t, `/api/vintages/${DATE}/markets/${ID}`), body(t, `/api/markets/${ID}`), "the record's bytes, not today's");
    // Archived: immutable from this build on.
    for (const [path, headers] of [...allRoutes(DATE, IMMUTABLE).filter(([path]) => path.startsWith(`/api/vintages/${DATE}/`))])
      assert.deepEqual(routeAt(t, path).headers, headers, path);
    const openApi = JSON.parse(body(t, '/api/openapi')) as unknown;
    assert.deepEqual(dateEnums(openApi), [[DATE]], "the OpenAPI document's vintage dates: one, not twice");
  });

  test('an archived snapshot of an earlier date: its own paths, immutable, with dated file names, beside the current one', () => {
    const earlier = archived.map((p): PastSnapshot => ({ ...p, snapshotDate: PAST }));
    const t = buildWorld({ baseUrl: BASE_URL, archive: earlier });
    assert.equal(t.routes.size, 138 + LATER.length + 34, 'an index, a bulk CSV and two documents per market');
    for (const [path, headers] of [...allRoutes(PAST, IMMUTABLE).filter(([path]) => path.startsWith(`/api/vintages/${PAST}/`))])
      assert.deepEqual(routeAt(t, path).headers, headers, path);
    // The current snapshot, not archived: at its vintage addresses with the ordinary rule, since a rebuild may change it.
    for (const [path, headers] of [...allRoutes(DATE).filter(([path]) => path.startsWith(`/api/vintages/${DATE}/`))])
      assert.deepEqual(routeAt(t, path).headers, headers, path);
    const record = (name: string): string => (earlier[0]?.documents.get(name) ?? assert.fail(name)).toString('utf8').replaceAll('{base_url}', BASE_URL);
    assert.equal(body(t, `/api/vintages/${PAST}/markets`), record('markets.json'));
    assert.equal(body(t, `/api/vintages/${PAST}/markets/csv`), record('markets.csv'));
    assert.equal(body(t, `/api/vintages/${PAST}/markets/${ID}/csv`), record(`markets/${ID}.csv`));
    // The current snapshot is not in that archive, so its vintage is the current bytes still.
    assert.equal(body(t, `/api/vintages/${DATE}/markets/${ID}`), body(t, `/api/markets/${ID}`));
    assert.deepEqual(dateEnums(JSON.parse(body(t, '/api/openapi')) as unknown), [[DATE, PAST]], 'newest first, each once');
  });

  test('two archived snapshots of one date stop the build at the first path both would serve', () => {
    const twice = archived.map((p): PastSnapshot => ({ ...p, snapshotDate: PAST }));
    assert.throws(
      () => buildWorld({ baseUrl: BASE_URL, archive: [...twice, ...twice] }),
      (error: unknown) => error instanceof InvariantError && error.message === `route /api/vintages/${PAST}/markets/csv is defined twice`,
    );
  });

  test('an archived file that no vintage path serves stops the build, naming the date and the file', () => {
    const stray = archived.map((p): PastSnapshot => ({ ...p, snapshotDate: PAST, documents: new Map([['notes.txt', Buffer.from('x')]]) }));
    assert.throws(
      () => buildWorld({ baseUrl: BASE_URL, archive: stray }),
      (error: unknown) => error instanceof InvariantError && error.message === `the archive of ${PAST} holds notes.txt, which no vintage path serves`,
    );
  });
});

/** Every distinct `enum` of dates in a document (the OpenAPI vintage-date parameter). */
function dateEnums(doc: unknown): string[][] {
  const found = new Map<string, string[]>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'enum' && Array.isArray(x) && x.every((d) => typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d)))
          found.set(JSON.stringify(x), x as string[]);
        else walk(x);
      }
    }
  };
  walk(doc);
  return [...found.values()];
}
