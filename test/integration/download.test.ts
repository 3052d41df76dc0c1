// The one-file download read by other tools: Python's zipfile and Info-ZIP's unzip unpack every file to the bytes served.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PATHS } from '../../src/contract/paths.ts';
import { unzip } from '../../src/commands/verify/unzip.ts';
import { buildTable } from '../support/data.ts';

const zip = buildTable().routes.get(PATHS.download)?.identity.body ?? assert.fail('no /api/download');

describe('the download, unpacked by other tools', () => {
  test("Python's zipfile and Info-ZIP's unzip read every file back, dated the snapshot day", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mp-zip-'));
    try {
      writeFileSync(join(dir, 'all.zip'), zip);
      const script = [
        'import sys, zipfile, hashlib, json',
        'z = zipfile.ZipFile(sys.argv[1])',
        'assert z.testzip() is None',
        'print(json.dumps({i.filename: [hashlib.sha256(z.read(i)).hexdigest(), list(i.date_time)] for i in z.infolist()}))',
      ].join('\n');
      const read = JSON.parse(execFileSync('python3', ['-c', script, join(dir, 'all.zip')], { encoding: 'utf8' })) as Record<string, [string, number[]]>;
      const entries = unzip(zip);
      assert.deepEqual(Object.keys(read).sort(), [...entries.keys()].sort());
      for (const [name, body] of entries) {
        assert.equal(read[name]?.[0], execFileSync('sha256sum', { input: body, encoding: 'utf8' }).split(' ')[0], name);
        assert.deepEqual(read[name]?.[1], [2026, 11, 29, 0, 0, 0], name);
      }
      execFileSync('unzip', ['-q', '-d', join(dir, 'out'), join(dir, 'all.zip')]);
      assert.deepEqual(readFileSync(join(dir, 'out', 'markets', 'us-tx-austin.csv')), entries.get('markets/us-tx-austin.csv'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
