// The one-file download read by other tools: Python's zipfile and Info-ZIP's unzip unpack every file to the bytes served, and the unpacked folder is a Data Package Frictionless reads offline.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { PATHS } from '../../src/contract/paths.ts';
import { unzip } from '../../src/commands/verify/unzip.ts';
import { BASE_URL } from '../support/data.ts';
import { frictionless } from '../support/frictionless.ts';
import { downloadFolder } from '../../src/render/site-files.ts';
import { WORLD_SNAPSHOT_DATE, buildWorld, worldArchive } from '../world/world.ts';

// The world with its archived snapshots: the download holds their documents too.
const table = buildWorld({ baseUrl: BASE_URL, archive: worldArchive() });
const zip = table.routes.get(PATHS.download)?.identity.body ?? assert.fail('no /api/download');
const FOLDER = downloadFolder(WORLD_SNAPSHOT_DATE);

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
      // One folder, named for the snapshot, and nothing beside it.
      assert.deepEqual(readdirSync(join(dir, 'out')), [FOLDER]);
      assert.deepEqual(readFileSync(join(dir, 'out', FOLDER, 'markets', 'us-tx-austin.csv')), entries.get(`${FOLDER}/markets/us-tx-austin.csv`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the download unpacked: a Data Package on its own, offline', () => {
  // The files as the unpacked folder holds them.
  const entries = new Map([...unzip(zip)].map(([name, body]) => [name.slice(FOLDER.length + 1), body]));
  const pkg = JSON.parse(entries.get('datapackage.json')?.toString('utf8') ?? '{}') as { resources: { path: string; bytes: number; hash: string }[] };

  test("datapackage.json names every CSV beside it (the archived snapshots' too), with their bytes and hashes; it is /api/datapackage otherwise", () => {
    const served = JSON.parse(table.routes.get(PATHS.dataPackage)?.identity.body.toString('utf8') ?? '{}') as typeof pkg;
    assert.deepEqual(pkg.resources.map((r) => r.path).sort(), [...entries.keys()].filter((name) => name.endsWith('.csv')).sort());
    assert.ok(
      pkg.resources.some((r) => r.path.startsWith('vintages/')),
      'the vintages are among them',
    );
    for (const [i, r] of pkg.resources.entries()) {
      const body = entries.get(r.path) ?? assert.fail(`${r.path} is not in the zip`);
      assert.equal(r.bytes, body.length, r.path);
      assert.equal(r.hash, `sha256:${createHash('sha256').update(body).digest('hex')}`, r.path);
      assert.deepEqual({ ...r, path: '' }, { ...served.resources[i], path: '' }, r.path);
    }
  });

  test("Frictionless Data's library loads the unpacked folder from disk, validates it and casts every row of every resource", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mp-zip-pkg-'));
    try {
      for (const [name, body] of entries) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), body);
      }
      const loaded = await frictionless().Package.load(join(dir, 'datapackage.json'));
      assert.deepEqual(
        loaded.errors.map((e) => e.message),
        [],
      );
      assert.equal(loaded.valid, true);
      for (const r of loaded.resources) {
        assert.ok(r.valid && r.tabular, r.name);
        const rows = await r.read({ keyed: true });
        assert.ok(rows.length > 0 && rows.every((row) => typeof row.value === 'number'), r.name);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
