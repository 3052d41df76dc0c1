// Which links `verify` follows: every URL string under a `links` object of a JSON document, and the href and src of a page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonLinks, pageLinks } from '../../src/commands/verify/links.ts';

test("a JSON document's links: every string under a links object, however deep, each with where it was found; no other string", () => {
  const doc = {
    schemaVersion: '1',
    homepage: 'http://example.org/not-a-link-field',
    links: { self: 'http://x/api/markets', schema: 'http://x/api/schema' },
    markets: [{ id: 'us-tx-austin', links: { json: 'http://x/api/markets/us-tx-austin', formats: ['http://x/a.csv'] } }],
    vintages: [{ links: { markets: { 'us-tx-austin': { csv: 'http://x/v/us-tx-austin/csv' } } } }],
  };
  assert.deepEqual(jsonLinks(doc, '/api/markets'), [
    ['http://x/api/markets', '/api/markets /links/self'],
    ['http://x/api/schema', '/api/markets /links/schema'],
    ['http://x/api/markets/us-tx-austin', '/api/markets /markets/0/links/json'],
    ['http://x/a.csv', '/api/markets /markets/0/links/formats/0'],
    ['http://x/v/us-tx-austin/csv', '/api/markets /vintages/0/links/markets/us-tx-austin/csv'],
  ]);
});

test("a page's links: href and src resolved against the page, &amp; read as &, mailto: and the like left out", () => {
  const html = '<a href="/methodology#scores">m</a><img src="chart.svg"><a href="?a=1&amp;b=2">q</a><a href="mailto:x@example.org">mail</a>';
  assert.deepEqual(
    pageLinks(html, 'http://x/markets/us-tx-austin').map(([url]) => url),
    ['http://x/methodology#scores', 'http://x/markets/chart.svg', 'http://x/markets/us-tx-austin?a=1&b=2'],
  );
});
