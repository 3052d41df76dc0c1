// A route's variants: each made once, on first read, kept only where smaller, and the build's data let go once made; their codings, strong ETags and Brotli qualities.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync, gunzipSync } from 'node:zlib';
import { brotliQuality, compressAll, etagOf, routeOf, variants } from '../../src/routes/variants.ts';

/** V8's collector, without starting node with --expose-gc. */
const collect = (): (() => void) => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
};

describe('variants', () => {
  test('the body is made once, when a variant is first read, and each variant once', () => {
    let calls = 0;
    const made = variants(() => {
      calls += 1;
      return Buffer.from('a,b\n'.repeat(200));
    });
    assert.equal(calls, 0, 'nothing is made before it is read');
    const { identity } = made;
    assert.equal(calls, 1);
    compressAll([made, made]);
    assert.equal(calls, 1, 'compressing reads the body already made');
    assert.equal(made.gzip, made.gzip, 'the same variant each read');
    assert.deepEqual(gunzipSync(made.gzip?.body ?? Buffer.alloc(0)), identity.body);
    assert.notEqual(made.gzip?.etag, identity.etag);
  });

  test('a compressed variant is kept only where it is smaller than the body', () => {
    const tiny = variants(() => Buffer.from('{}'));
    assert.equal(tiny.gzip, undefined);
    assert.equal(tiny.br, undefined);
    assert.equal(tiny.identity.body.toString(), '{}');
  });

  // The makers close over the build's data (a route's body is often made from the whole snapshot): a table a server
  // keeps must not keep that data alive once every variant is made (a thousand markets' snapshot is about 80 MB of heap).
  test('once every variant is made, what the body was made from can be freed', async () => {
    const gc = collect();
    let source: WeakRef<object> | undefined;
    const made = ((): ReturnType<typeof variants> => {
      const data = { rows: Array.from({ length: 1000 }, (_, i) => ({ i, label: `row ${i}` })) };
      source = new WeakRef(data);
      return variants(() => Buffer.from(data.rows.map((r) => r.label).join('\n')));
    })();
    compressAll([made]);
    // A WeakRef's target is kept until the job that made it ends.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    assert.equal(source?.deref(), undefined, 'the data the body was made from is still reachable from the variants');
    assert.ok(made.identity.body.toString().startsWith('row 0\nrow 1'), "made.identity.body.toString().startsWith('row 0\\nrow 1')");
  });
});

describe('what each variant is', () => {
  const body = Buffer.from('market_id,metric_id,value\n'.repeat(400));

  test('identity, gzip and br, each labelled with its coding, and each compressed one decompresses to the body', () => {
    const made = variants(() => body);
    assert.deepEqual(Object.keys(made), ['identity', 'gzip', 'br'], 'the variants are enumerable, in this order');
    assert.equal(made.identity.encoding, 'identity');
    assert.equal(made.gzip?.encoding, 'gzip');
    assert.equal(made.br?.encoding, 'br');
    assert.deepEqual(gunzipSync(made.gzip?.body ?? Buffer.alloc(0)), body);
    assert.deepEqual(brotliDecompressSync(made.br?.body ?? Buffer.alloc(0)), body);
  });

  test('each ETag is strong: 27 characters of the base64url SHA-256 of its own bytes, in quotes', () => {
    assert.equal(etagOf(Buffer.from('abc')), '"ungWv48Bz-pBQUDeXa4iI7ADYaO"');
    const made = variants(() => body);
    assert.equal(made.identity.etag, etagOf(body));
    assert.equal(made.gzip?.etag, etagOf(made.gzip?.body ?? Buffer.alloc(0)));
    assert.equal(made.br?.etag, etagOf(made.br?.body ?? Buffer.alloc(0)));
  });

  test('the compressed bytes are those of the settings docs/decisions.md gives: gzip level 9, Brotli at its quality', () => {
    const made = variants(() => body);
    assert.deepEqual(made.gzip?.body, gzipSync(body, { level: 9 }));
    const quality = { [constants.BROTLI_PARAM_QUALITY]: brotliQuality(body.length), [constants.BROTLI_PARAM_SIZE_HINT]: body.length };
    assert.deepEqual(made.br?.body, brotliCompressSync(body, { params: quality }));
  });

  test('Brotli quality: 7 below 64 KiB, 9 from 64 KiB, 5 from 4 MiB', () => {
    assert.equal(brotliQuality(0), 7);
    assert.equal(brotliQuality(64 * 1024 - 1), 7);
    assert.equal(brotliQuality(64 * 1024), 9);
    assert.equal(brotliQuality(4 * 1024 * 1024 - 1), 9);
    assert.equal(brotliQuality(4 * 1024 * 1024), 5);
  });

  test('a route reads its variants through, enumerable beside its own fields, without making them', () => {
    let calls = 0;
    const made = variants(() => {
      calls += 1;
      return body;
    });
    const route = routeOf({ path: '/x', kind: 'csv' }, made);
    assert.equal(calls, 0, 'making the route makes no body');
    assert.deepEqual(Object.keys(route), ['path', 'kind', 'identity', 'gzip', 'br']);
    assert.equal(route.identity, made.identity);
    assert.equal(route.gzip, made.gzip);
    assert.equal(route.br, made.br);
    assert.equal(calls, 1);
  });
});
