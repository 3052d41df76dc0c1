// The problem builders, body by body: what each error answer says (RFC 9457 fields, the code, what is echoed and what is left out), written out here rather than rebuilt with the builders the engines use.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CATALOG_CODES,
  codeOfStatus,
  DOCUMENTED_CODES,
  marketProblem,
  methodDetail,
  notFoundProblem,
  pageHints,
  pageMeant,
  pathHints,
  problem,
  problemText,
  problemType,
  statusProblem,
  unknownPathProblem,
} from '../../src/protocol/problems.ts';

const BASE = 'https://data.example.org';
const IDS = ['us-tx-austin', 'us-wa-seattle'];
const NOT_FOUND_DETAIL = 'Nothing is published at this path. Paths are exact and lower case, without a trailing slash; the data catalog lists every endpoint.';
const ID_RULE = 'Market ids are lower case, of the form us-<state code>-<city slug>.';
const METHOD_RULE = 'is not allowed; every path is read-only and answers GET and HEAD.';

describe('which codes the data catalog lists, and where a type points', () => {
  test("the four codes of the service's own answers link their entry; the HTTP layer's are about:blank", () => {
    assert.deepEqual([...CATALOG_CODES], ['bad_request', 'not_found', 'market_not_found', 'method_not_allowed']);
    assert.equal(problemType(BASE, 'market_not_found'), 'https://data.example.org/data-catalog#problem-market-not-found');
    assert.equal(problemType(BASE, 'bad_request'), 'https://data.example.org/data-catalog#problem-bad-request');
    assert.equal(problemType(BASE, 'request_timeout'), 'about:blank');
  });

  test('the catalog page describes those four and the two answers a server gives before it reads a request', () => {
    assert.deepEqual([...DOCUMENTED_CODES], ['bad_request', 'not_found', 'market_not_found', 'method_not_allowed', 'headers_too_large', 'request_timeout']);
  });
});

describe('a problem body', () => {
  test("the catalogue's detail, or the request's; RFC 9457's members in the order served (RFC 9457 sets none), then the code and the extensions", () => {
    const body = problem(BASE, 'not_found', undefined, '/api/nothing', { catalog: 'x' });
    assert.deepEqual(Object.entries(body), [
      ['type', 'https://data.example.org/data-catalog#problem-not-found'],
      ['title', 'Not found'],
      ['status', 404],
      ['detail', NOT_FOUND_DETAIL],
      ['instance', '/api/nothing'],
      ['code', 'not_found'],
      ['catalog', 'x'],
    ]);
    assert.equal(problem(BASE, 'not_found', 'Something more precise.').detail, 'Something more precise.');
  });

  test('the path is echoed as instance only when it is made of unreserved characters and slashes', () => {
    assert.equal(problem(BASE, 'not_found', undefined, '/api/a_b.c~d-e').instance, '/api/a_b.c~d-e');
    for (const path of ['/api/<script>', '/api/a b', '/api/%41', 'api/no-slash', '']) {
      assert.equal(Object.hasOwn(problem(BASE, 'not_found', undefined, path), 'instance'), false, path);
    }
    assert.equal(Object.hasOwn(problem(BASE, 'not_found'), 'instance'), false);
  });

  test('a code whose detail depends on the request cannot be built without one', () => {
    assert.throws(() => problem(BASE, 'market_not_found'), { message: 'the problem market_not_found needs a detail' });
  });

  test('served as the one JSON serialiser writes it: two spaces, a final newline', () => {
    assert.equal(
      problemText(problem(BASE, 'forbidden')),
      `{\n  "type": "about:blank",\n  "title": "Forbidden",\n  "status": 403,\n  "detail": "Forbidden.",\n  "code": "forbidden"\n}\n`,
    );
  });
});

describe('the answers to a path without a route', () => {
  test('not_found links the data catalog', () => {
    assert.deepEqual(notFoundProblem(BASE, '/api/nothing'), {
      type: 'https://data.example.org/data-catalog#problem-not-found',
      title: 'Not found',
      status: 404,
      detail: NOT_FOUND_DETAIL,
      instance: '/api/nothing',
      code: 'not_found',
      catalog: 'https://data.example.org/data-catalog',
    });
  });

  test('an unknown market id is echoed when it is a safe token, with the known ids and the index', () => {
    assert.deepEqual(marketProblem(BASE, 'us-xx-nowhere', '/api/markets/us-xx-nowhere', IDS), {
      type: 'https://data.example.org/data-catalog#problem-market-not-found',
      title: 'Market not found',
      status: 404,
      detail: `There is no market with id "us-xx-nowhere". ${ID_RULE}`,
      instance: '/api/markets/us-xx-nowhere',
      code: 'market_not_found',
      marketId: 'us-xx-nowhere',
      knownMarketIds: IDS,
      index: 'https://data.example.org/api/markets',
    });
  });

  test('an id that is no safe token is not echoed anywhere; without a path there is no instance', () => {
    const body = marketProblem(BASE, 'a"b<c>', undefined, IDS);
    assert.equal(body.detail, `There is no market with that id. ${ID_RULE}`);
    assert.equal(Object.hasOwn(body, 'marketId'), false);
    assert.equal(Object.hasOwn(body, 'instance'), false);
    assert.deepEqual(body.knownMarketIds, IDS);
    assert.equal(body.index, 'https://data.example.org/api/markets');
  });

  test('outside /api/ the HTML page answers; an unknown id on a market path is market_not_found; anything else not_found', () => {
    const known = new Set(IDS);
    assert.equal(unknownPathProblem(BASE, '/no-such-page', known, IDS), undefined);
    assert.equal(unknownPathProblem(BASE, '/api/markets/us-xx-nowhere', known, IDS)?.code, 'market_not_found');
    assert.equal(unknownPathProblem(BASE, '/api/markets/us-xx-nowhere/csv', known, IDS)?.code, 'market_not_found');
    assert.equal(unknownPathProblem(BASE, '/api/markets/us-tx-austin/nope', known, IDS)?.code, 'not_found');
    assert.equal(unknownPathProblem(BASE, '/api/nothing', known, IDS)?.code, 'not_found');
  });
});

describe('the answers an engine decides on its own', () => {
  test('a method is named when it is a plain token of capitals and hyphens, at most 20; otherwise "used"', () => {
    for (const method of ['DELETE', 'A', 'BREW-COFFEE', 'ABCDEFGHIJKLMNOPQRST']) {
      assert.equal(methodDetail(method), `The method ${method} ${METHOD_RULE}`, method);
    }
    for (const method of [undefined, '', 'delete', 'ABCDEFGHIJKLMNOPQRSTU', 'X<script>', '<x>DELETE', 'DELETE<x>']) {
      assert.equal(methodDetail(method), `The method used ${METHOD_RULE}`, String(method));
    }
  });

  test('each status has its code: 400 and 405 the catalog entries, the rest their about:blank one; none for another', () => {
    assert.equal(codeOfStatus(400), 'bad_request');
    assert.equal(codeOfStatus(405), 'method_not_allowed');
    assert.equal(codeOfStatus(408), 'request_timeout');
    assert.equal(codeOfStatus(431), 'headers_too_large');
    assert.equal(codeOfStatus(505), 'http_version_not_supported');
    assert.throws(() => codeOfStatus(404), { message: 'no problem in the catalogue for status 404' });
    assert.throws(() => codeOfStatus(418), { message: 'no problem in the catalogue for status 418' });
  });

  test('400 says the request was no HTTP/1.1, 405 names no method, the others give the catalogue detail', () => {
    assert.deepEqual(statusProblem(BASE, 400), {
      type: 'https://data.example.org/data-catalog#problem-bad-request',
      title: 'Bad request',
      status: 400,
      detail: 'The request could not be parsed as HTTP/1.1 (RFC 9112).',
      code: 'bad_request',
    });
    assert.equal(statusProblem(BASE, 405).detail, `The method used ${METHOD_RULE}`);
    assert.equal(statusProblem(BASE, 405).code, 'method_not_allowed');
    assert.deepEqual(statusProblem(BASE, 408), {
      type: 'about:blank',
      title: 'Request timeout',
      status: 408,
      detail: 'Request timeout.',
      code: 'request_timeout',
    });
  });
});

describe('the page a path outside /api/ means', () => {
  const markets = [
    { id: 'us-tx-austin', name: 'Austin', slug: 'austin', state: 'Texas', stateCode: 'TX' },
    { id: 'us-ca-san-francisco', name: 'San Francisco', slug: 'san-francisco', state: 'California', stateCode: 'CA' },
    { id: 'us-or-portland', name: 'Portland', slug: 'portland', state: 'Oregon', stateCode: 'OR' },
    { id: 'us-me-portland', name: 'Portland', slug: 'portland', state: 'Maine', stateCode: 'ME' },
  ];
  const hints = { pages: pageHints(['/', '/methodology', '/assets/site.css', '/markets/us-tx-austin', '/api/markets'], markets, (id) => `/markets/${id}`) };
  const meant = (path: string): string | undefined => pageMeant(path, hints);

  test('a published page in other case or with trailing slashes', () => {
    assert.equal(meant('/METHODOLOGY'), '/methodology');
    assert.equal(meant('/methodology//'), '/methodology');
    assert.equal(meant('/Assets/Site.css/'), '/assets/site.css');
    // Its dot is a dot, not any character.
    assert.equal(meant('/assets/siteXcss'), undefined);
    // The home page is "/" in any case: nothing to point to.
    assert.equal(meant('//'), undefined);
  });

  test('a market by its id, city name or slug, with or without /markets/, its state before or after it', () => {
    for (const path of [
      '/markets/austin',
      '/Austin',
      '/market/austin/',
      '/markets/US-TX-AUSTIN',
      '/markets/tx-austin',
      '/austin-tx',
      '/Austin, Texas',
      '/markets/austin_tx',
    ])
      assert.equal(meant(path), '/markets/us-tx-austin', path);
    for (const path of ['/markets/san-francisco', '/markets/San Francisco', '/sanfrancisco', '/markets/San Francisco, CA', '/us-ca-san-francisco'])
      assert.equal(meant(path), '/markets/us-ca-san-francisco', path);
  });

  test('a name two markets share only with its state; nothing for a name no market has, or for a path under /api/', () => {
    assert.equal(meant('/markets/portland'), undefined);
    assert.equal(meant('/markets/portland-or'), '/markets/us-or-portland');
    assert.equal(meant('/markets/maine-portland'), '/markets/us-me-portland');
    assert.equal(meant('/markets/austinville'), undefined);
    assert.equal(meant('/markets/austin/csv'), undefined);
    assert.equal(meant('/api/markets/austin'), undefined);
    assert.equal(meant('/API/markets'), undefined);
  });

  test("the engines' hints carry them: pathHints keeps the table's page hints beside the API's", () => {
    const all = pathHints(['/api/markets', '/methodology'], hints.pages);
    assert.equal(all.pages, hints.pages);
    assert.equal(pageMeant('/Methodology', all), '/methodology');
  });
});
