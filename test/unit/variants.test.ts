// A route's variants: each made once, on first read, kept only where smaller, and the build's data let go once made.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gunzipSync } from 'node:zlib';
import { compressAll, variants } from '../../src/routes/variants.ts';

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
    assert.ok(made.identity.body.toString().startsWith('row 0\nrow 1'));
  });
});
