// The shared HTTP contract suite, unchanged, against the real nginx serving a built dist/ with the generated configuration.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { nginxOverFreshBuild } from '../../scripts/nginx-run.ts';
import { defineHttpSuite } from '../support/http-suite.ts';

const FIXTURES = new URL('../../fixtures/', import.meta.url).pathname;

// A missing nginx makes start() throw with the install command: the suite fails, it is never skipped.
defineHttpSuite('nginx over dist/', () => nginxOverFreshBuild(FIXTURES));

describe('nginx error log', () => {
  let served: Awaited<ReturnType<typeof nginxOverFreshBuild>>;
  before(async () => {
    served = await nginxOverFreshBuild(FIXTURES);
  });
  after(() => served.stop());

  // A warning per request (an uninitialized variable, say) fills the log and, on a pipe nobody drains, stalls nginx.
  test('every route in every encoding, and its 304, leaves no warning or error in the log', async () => {
    const index = (await (await fetch(`${served.baseUrl}/api/markets`)).json()) as { markets: { id: string }[] };
    const paths = [
      '/',
      '/api/markets',
      '/api/markets/csv',
      '/healthz',
      '/api/schema/market-profile',
      '/data-status',
      ...index.markets.flatMap((m) => [`/api/markets/${m.id}`, `/api/markets/${m.id}/csv`, `/markets/${m.id}`]),
    ];
    for (const path of paths) {
      for (const encoding of ['identity', 'gzip', 'br']) {
        const res = await fetch(`${served.baseUrl}${path}`, { headers: { 'Accept-Encoding': encoding } });
        await res.arrayBuffer();
        assert.equal(res.status, 200, `${path} ${encoding}`);
        const etag = res.headers.get('etag') ?? '';
        const again = await fetch(`${served.baseUrl}${path}`, { headers: { 'Accept-Encoding': encoding, 'If-None-Match': etag } });
        await again.arrayBuffer();
        assert.equal(again.status, 304, `${path} ${encoding} 304`);
      }
    }
    assert.equal(
      served.run
        .errorLog()
        .split('\n')
        .filter((l) => /\[(?:warn|error|crit|alert|emerg)\]/.test(l))
        .join('\n'),
      '',
    );
  });
});
