// Vintages: each published snapshot archived whole and never rewritten; a second snapshot leaves the first addressable byte for byte, and a changed archived byte stops the build.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readArchive, snapshotDocuments, writeSnapshot } from '../../src/archive/archive.ts';
import { main, runnersFor } from '../../src/commands/cli.ts';
import { ArchiveError, type ArchiveErrorCode } from '../../src/contract/errors.ts';
import type { VintageIndex } from '../../src/contract/vintages.ts';
import { fixturesOnDisk } from '../../src/sources/load.ts';
import { captureOutput } from '../support/capture.ts';
import { FIXTURES_DIR, fhfaMasterNextQuarter, fhfaNextQuarter } from '../support/data.ts';
import { ARCHIVE_DIR, WORLD_INPUTS, buildWorld, buildWorldSnapshot, copyWorldArchive } from '../world/world.ts';

const FIRST = '2026-11-29';
/** The first release, archived before FIRST and committed beside it: a copy of the committed archive holds both. */
const FIRST_RELEASE = '2026-11-24';
const SECOND = '2027-03-01';
const AUSTIN = 'us-tx-austin';

/** Runs the command line on the test world, returning its exit code and what it printed on each stream. */
async function run(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const { value, out, err } = await captureOutput(() => main(args, { BASE_URL: 'http://localhost:3000' }, runnersFor(WORLD_INPUTS)));
  return { code: value, out, err };
}

/** FHFA's files one quarter on (every series gains 2026 Q3, 1 % above its 2026 Q2), retrieved on SECOND: a new snapshot. */
function nextQuarter(fixtures: string): void {
  const file = join(fixtures, 'fhfa-hpi/hpi_at_metro.csv');
  writeFileSync(file, fhfaNextQuarter(readFileSync(file, 'utf8')));
  const master = join(fixtures, 'fhfa-hpi/hpi_master.csv');
  writeFileSync(master, fhfaMasterNextQuarter(readFileSync(master, 'utf8')));
  writeFileSync(join(fixtures, 'fhfa-hpi/retrieval.json'), JSON.stringify({ vintage: '2026 Q3', latestReleaseDate: '2026-11-24', latestRetrievedAt: SECOND }));
}

describe('vintages: snapshots archived for ever', () => {
  const work = mkdtempSync(join(tmpdir(), 'mp-vintages-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const fixtures = join(work, 'fixtures');
  const archive = join(work, 'archive');
  const dist = join(work, 'dist');
  cpSync(FIXTURES_DIR, fixtures, { recursive: true });
  const opts = ['--fixtures', fixtures, '--archive', archive];
  const site = (path: string): Buffer => readFileSync(join(dist, 'site', path.slice(1), path.endsWith('/csv') ? 'index.csv' : 'index.json'));
  let firstProfile: Buffer;
  let firstCsv: Buffer;

  test('`archive` writes the current snapshot: its documents with the base URL left out, and a record of its sources and hashes', async () => {
    const { code, out } = await run(['archive', ...opts]);
    assert.equal(code, 0);
    assert.match(out, new RegExp(`archived the snapshot of ${FIRST}: 34 documents in .*/${FIRST}/`));
    const record = JSON.parse(readFileSync(join(archive, FIRST, 'snapshot.json'), 'utf8')) as {
      sources: { sourceId: string; files: unknown[] }[];
      documents: unknown[];
    };
    assert.deepEqual(
      record.sources.map((s) => [s.sourceId, s.files.length]),
      [
        ['census-acs-5yr', 5],
        ['census-bps', 4],
        ['fhfa-hpi', 2],
      ],
    );
    assert.equal(record.documents.length, 34);
    const profile = readFileSync(join(archive, FIRST, `markets/${AUSTIN}.json`), 'utf8');
    assert.ok(
      profile.includes('"html": "{base_url}/markets/us-tx-austin"') && !profile.includes('localhost'),
      'profile.includes(\'"html": "{base_url}/markets/us-tx-austin"\') && !profile.includes(\'localhost\')',
    );
    assert.equal((await run(['build', ...opts, '--out', dist])).code, 0);
    firstProfile = site(`/api/markets/${AUSTIN}`);
    firstCsv = site(`/api/markets/${AUSTIN}/csv`);
    assert.deepEqual(site(`/api/vintages/${FIRST}/markets/${AUSTIN}`), firstProfile, 'the vintage is the profile as served');
  });

  test('again on the same data: nothing is rewritten', async () => {
    const { code, out } = await run(['archive', ...opts]);
    assert.equal(code, 0);
    assert.match(out, new RegExp(`the snapshot of ${FIRST} is archived already, byte for byte`));
  });

  test('a second snapshot from changed fixtures: both addressable, the first unchanged byte for byte, the current one first', async () => {
    nextQuarter(fixtures);
    assert.equal((await run(['archive', ...opts])).code, 0);
    assert.equal((await run(['build', ...opts, '--out', dist])).code, 0);
    const index = JSON.parse(site('/api/vintages').toString()) as VintageIndex;
    assert.deepEqual(
      index.vintages.map((v) => [v.snapshotDate, v.current]),
      [
        [SECOND, true],
        [FIRST, false],
      ],
    );
    assert.deepEqual(site(`/api/vintages/${FIRST}/markets/${AUSTIN}`), firstProfile);
    assert.deepEqual(site(`/api/vintages/${FIRST}/markets/${AUSTIN}/csv`), firstCsv);
    assert.deepEqual(site(`/api/vintages/${SECOND}/markets/${AUSTIN}`), site(`/api/markets/${AUSTIN}`));
    const now = JSON.parse(site(`/api/markets/${AUSTIN}`).toString()) as { profile: { metrics: Record<string, { value: number; asOf: string }> } };
    assert.deepEqual([now.profile.metrics['homePriceIndex']?.asOf, now.profile.metrics['homePriceIndex']?.value], ['2026 Q3', 511.37]);
    const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as { routes: { path: string; headers: Record<string, string> }[] };
    const headers = (path: string): Record<string, string> | undefined => manifest.routes.find((r) => r.path === path)?.headers;
    assert.equal(headers(`/api/vintages/${FIRST}/markets/${AUSTIN}`)?.['Cache-Control'], 'public, max-age=31536000, immutable');
    assert.equal(headers(`/api/vintages/${SECOND}/markets/${AUSTIN}/csv`)?.['Content-Disposition'], `attachment; filename="${AUSTIN}-housing-${SECOND}.csv"`);
    assert.equal(headers('/api/vintages')?.['Cache-Control'], 'public, max-age=300');
    assert.deepEqual(readdirSync(archive).sort(), [FIRST, SECOND]);
  });

  test('an archived byte that changed stops the build, naming the file; the previous output stays', async () => {
    const file = join(archive, FIRST, `markets/${AUSTIN}.csv`);
    const original = readFileSync(file);
    writeFileSync(file, original.toString().replace('1729', '1730'));
    const before = site('/api/vintages');
    try {
      const { code, err } = await run(['build', ...opts, '--out', dist]);
      assert.equal(code, 1);
      assert.match(err, new RegExp(`build failed: ${FIRST}/markets/${AUSTIN}\\.csv: its bytes \\(\\d+, SHA-256 [0-9a-f]{64}\\) are not the ones archived`));
      assert.match(err, /the previous output was left as it was/);
      assert.deepEqual(site('/api/vintages'), before);
    } finally {
      writeFileSync(file, original);
    }
  });

  test('fixtures that change a value of an archived snapshot under the same date are refused: a changed snapshot needs a new date', async () => {
    const file = join(fixtures, 'census-bps/so2024a.txt');
    const original = readFileSync(file, 'utf8');
    // Austin's row: one more single-family unit (9,445), the retrieval date unchanged.
    const austin = original.split('\n').find((l) => l.startsWith('2024,48,033000,')) ?? assert.fail('no Austin row');
    const fields = austin.split(',');
    fields[18] = String(Number(fields[18]) + 1);
    writeFileSync(file, original.replace(austin, fields.join(',')));
    try {
      const { code, err } = await run(['build', ...opts, '--out', dist]);
      assert.equal(code, 1);
      assert.match(
        err,
        new RegExp(
          `${SECOND}/markets/${AUSTIN}\\.json, at /profile/metrics/permits: the fixtures give \\[9445,"2024","census-bps",null,false\\] where the archived snapshot of ${SECOND} has \\[9444,`,
        ),
      );
      const again = await run(['archive', ...opts]);
      assert.equal(again.code, 1);
    } finally {
      writeFileSync(file, original);
    }
  });

  test('fixtures retrieved before the newest archived snapshot are refused by build and archive, naming both dates; nothing is filed into the past', async () => {
    // A download dated between the two archived snapshots: FHFA's file of FIRST, retrieved on 2026-12-15.
    const older = join(work, 'older-fixtures');
    cpSync(FIXTURES_DIR, older, { recursive: true });
    writeFileSync(
      join(older, 'fhfa-hpi/retrieval.json'),
      JSON.stringify({ vintage: '2026 Q2', latestReleaseDate: '2026-08-25', latestRetrievedAt: '2026-12-15' }),
    );
    const before = site('/api/vintages');
    const olderOpts = ['--fixtures', older, '--archive', archive];
    const message = `fhfa-hpi/retrieval.json, at /latestRetrievedAt: the fixtures were retrieved on 2026-12-15, before the newest archived snapshot, ${SECOND}; fixtures older than the archive are refused (fetch the current files, or build with the archive they belong to)`;
    const built = await run(['build', ...olderOpts, '--out', dist]);
    assert.equal(built.code, 1);
    assert.equal(built.err, `market-profiles: build failed: ${message}\nmarket-profiles: the previous output was left as it was.\n`);
    assert.deepEqual(site('/api/vintages'), before, 'the previous dist/ stays');
    const archived = await run(['archive', ...olderOpts]);
    assert.equal(archived.code, 1);
    assert.ok(archived.err.includes(message), archived.err);
    assert.deepEqual(readdirSync(archive).sort(), [FIRST, SECOND], 'no snapshot filed before the newest');
  });
});

describe('an archived snapshot unlike what `archive` writes stops the build at its file, and nothing outside the archive is read', () => {
  const ARCHIVE = ARCHIVE_DIR;
  const work = mkdtempSync(join(tmpdir(), 'mp-archive-shape-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const hash = (body: Buffer): string => createHash('sha256').update(body).digest('hex');
  interface Written {
    file: string;
    bytes: number;
    sha256: string;
  }

  type SnapshotRecord = Record<string, unknown> & { documents: Written[] };
  /** Changes the first snapshot's record (returning its new text, or nothing to keep the object) or its files, in `folder`. */
  type Change = (record: SnapshotRecord, write: (file: string, body: string) => void, folder: string) => unknown;

  /**
   * A copy of the world's archive in which `change` rewrote the first snapshot's record or files (`write` keeps the
   * record's size and hash of a file true to its new bytes, so only what the change is about is wrong); its folder.
   */
  function alteredArchive(change: Change): string {
    const dir = mkdtempSync(join(work, 'case-'));
    copyWorldArchive(dir);
    const recordFile = join(dir, FIRST, 'snapshot.json');
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as SnapshotRecord;
    const write = (file: string, body: string): void => {
      writeFileSync(join(dir, FIRST, file), body);
      const entry = record.documents.find((d) => d.file === file);
      if (entry !== undefined) Object.assign(entry, { bytes: Buffer.byteLength(body), sha256: hash(Buffer.from(body)) });
    };
    const before = JSON.stringify(record);
    const replaced = change(record, write, join(dir, FIRST));
    // The record is rewritten only when the change touched it, so an archive left as it was keeps its bytes.
    if (typeof replaced === 'string') writeFileSync(recordFile, replaced);
    else if (JSON.stringify(record) !== before) writeFileSync(recordFile, JSON.stringify(record));
    return dir;
  }

  /** The message of the ArchiveError `read` throws, failing if it throws anything else or another code. */
  function thrown(read: () => unknown, code: ArchiveErrorCode): string {
    try {
      read();
    } catch (error) {
      assert.ok(error instanceof ArchiveError, `an ArchiveError, not ${String(error)}`);
      assert.equal(error.code, code, error.message);
      return error.message;
    }
    return assert.fail('nothing was refused');
  }

  /** The message readArchive throws for an archive so changed. */
  const refusal = (change: Change, code: ArchiveErrorCode = 'archive_shape'): string => thrown(() => readArchive(alteredArchive(change)), code);
  const record = `${FIRST}/snapshot.json`;
  const profile = `${FIRST}/markets/${AUSTIN}.json`;

  test('a record that is not a snapshot record: not an object, a field missing or of another type, another date', () => {
    assert.equal(
      refusal(() => 'null'),
      `${record}, at /: not a snapshot record: must be object`,
    );
    assert.equal(
      refusal(() => '{"snapshotDate": '),
      `${record}: the snapshot's record is not JSON: Unexpected end of JSON input`,
    );
    assert.equal(
      refusal((r) => {
        r.sources = [5];
      }),
      `${record}, at /sources/0: not a snapshot record: must be object`,
    );
    assert.equal(
      refusal((r) => {
        r.sources = [];
      }),
      `${record}, at /sources: not a snapshot record: must NOT have fewer than 1 items`,
    );
    assert.equal(
      refusal((r) => {
        r.methodologyVersion = 2;
      }),
      `${record}, at /methodologyVersion: not a snapshot record: must be string`,
    );
    assert.equal(
      refusal((r) => {
        (r.documents[0] as unknown as Record<string, unknown>).bytes = '5';
      }),
      `${record}, at /documents/0/bytes: not a snapshot record: must be integer`,
    );
    assert.equal(
      refusal((r) => {
        r.snapshotDate = '2026-10-01';
      }),
      `${record}, at /snapshotDate: the record is of 2026-10-01, its folder of ${FIRST}`,
    );
  });

  test("a record whose documents are not a snapshot's: a name outside the folder is refused before any file is read", () => {
    // With a size and hash that would pass if the file were read, /etc/hostname would then be served as a vintage.
    const outside = '../../../../../../../../etc/hostname';
    assert.equal(
      refusal((r) => {
        r.documents.push({ file: outside, bytes: 0, sha256: '0'.repeat(64) });
      }),
      `${record}, at /documents: not the documents of a snapshot: it lists "${outside}", which is no document of a snapshot (markets.json, markets.csv, markets/<market-id>.json or .csv)`,
    );
    assert.equal(
      refusal((r) => {
        r.documents.push({ ...(r.documents[0] as Written) });
      }),
      `${record}, at /documents: not the documents of a snapshot: it lists markets.csv twice`,
    );
    assert.equal(
      refusal((r) => {
        r.documents = r.documents.filter((d) => d.file !== 'markets.json');
      }),
      `${record}, at /documents: not the documents of a snapshot: it lists no markets.json`,
    );
    assert.equal(
      refusal((r) => {
        r.documents = r.documents.filter((d) => d.file !== `markets/${AUSTIN}.csv`);
      }),
      `${record}, at /documents: not the documents of a snapshot: it lists markets/${AUSTIN}.json but not markets/${AUSTIN}.csv`,
    );
    assert.equal(
      refusal((r) => {
        r.documents = r.documents.filter((d) => d.file !== `markets/${AUSTIN}.json`);
      }),
      `${record}, at /documents: not the documents of a snapshot: it lists markets/${AUSTIN}.csv but not markets/${AUSTIN}.json`,
    );
  });

  test('a profile the build cannot read again: not JSON, a metric of another shape, another market', () => {
    const austin = JSON.parse(readFileSync(join(ARCHIVE, FIRST, `markets/${AUSTIN}.json`), 'utf8')) as {
      market: { id: string };
      profile: { metrics: Record<string, Record<string, unknown>> };
    };
    assert.match(
      refusal((_, write) => write(`markets/${AUSTIN}.json`, '{not json')),
      new RegExp(`^${profile}: the profile is not JSON: .+`),
    );
    assert.equal(
      refusal((_, write) => write(`markets/${AUSTIN}.json`, '{}')),
      `${profile}, at /: not a market profile: missing required property "market"`,
    );
    const edited = (edit: (copy: typeof austin) => void): string => {
      const copy = structuredClone(austin);
      edit(copy);
      return JSON.stringify(copy);
    };
    assert.equal(
      refusal((_, write) =>
        write(
          `markets/${AUSTIN}.json`,
          edited((p) => {
            (p.profile.metrics['permits'] ?? assert.fail('no permits metric')).value = '9444';
          }),
        ),
      ),
      `${profile}, at /profile/metrics/permits/value: not a market profile: must be number`,
    );
    assert.equal(
      refusal((_, write) =>
        write(
          `markets/${AUSTIN}.json`,
          edited((p) => {
            p.market.id = 'us-ny-new-york';
          }),
        ),
      ),
      `${profile}, at /market/id: the profile is of us-ny-new-york, its file of ${AUSTIN}`,
    );
  });

  test("an archive's folders: one not named by its date is refused; one being written and a plain file are passed over", () => {
    const dir = alteredArchive(() => undefined);
    writeFileSync(join(dir, 'README.md'), 'notes\n');
    mkdirSync(join(dir, '.2026-12-01.tmp-77'));
    writeFileSync(join(dir, '.2026-12-01.tmp-77', 'snapshot.json'), '{');
    // A second snapshot, its folder made after the first's but of an earlier date: read in order of date.
    const earlier = '2026-10-01';
    cpSync(join(dir, FIRST), join(dir, earlier), { recursive: true });
    const recordFile = join(dir, earlier, 'snapshot.json');
    writeFileSync(recordFile, readFileSync(recordFile, 'utf8').replace(`"snapshotDate": "${FIRST}"`, `"snapshotDate": "${earlier}"`));
    assert.deepEqual(
      readArchive(dir).map((p) => p.snapshotDate),
      [earlier, FIRST_RELEASE, FIRST],
    );
    for (const name of [`${FIRST}-old`, `x${FIRST}`]) {
      const bad = alteredArchive(() => undefined);
      cpSync(join(bad, FIRST), join(bad, name), { recursive: true });
      assert.equal(
        thrown(() => readArchive(bad), 'archive_shape'),
        `${name}: an archived snapshot is a folder named by its date, YYYY-MM-DD`,
      );
    }
  });

  test('files and record out of step: a listed file missing, a file not listed, a size not its bytes, no record at all', () => {
    const csv = `markets/${AUSTIN}.csv`;
    assert.equal(
      refusal((_, __, folder) => rmSync(join(folder, csv)), 'archive_tampered'),
      `${FIRST}/${csv}: the record lists it, but it is missing`,
    );
    assert.equal(
      refusal((_, __, folder) => writeFileSync(join(folder, 'markets', 'notes.txt'), 'x'), 'archive_tampered'),
      `${FIRST}/markets/notes.txt: snapshot.json does not list it`,
    );
    // The size alone is wrong: the hash is still the bytes'.
    const entry = (JSON.parse(readFileSync(join(ARCHIVE, FIRST, 'snapshot.json'), 'utf8')) as SnapshotRecord).documents.find((d) => d.file === csv);
    assert.ok(entry, `premise: the record lists ${csv}`);
    assert.equal(
      refusal((r) => {
        const d = r.documents.find((x) => x.file === csv);
        if (d !== undefined) d.bytes += 1;
      }, 'archive_tampered'),
      `${FIRST}/${csv}: its bytes (${entry.bytes}, SHA-256 ${entry.sha256}) are not the ones archived (${entry.bytes + 1}, ${entry.sha256}); an archived snapshot is never changed`,
    );
    const unrecorded = alteredArchive(() => undefined);
    rmSync(join(unrecorded, FIRST, 'snapshot.json'));
    assert.match(
      thrown(() => readArchive(unrecorded), 'archive_shape'),
      new RegExp(`^${FIRST}/snapshot\\.json: cannot read the snapshot's record: ENOENT`),
    );
  });

  test('the snapshot of the current date keeps its markets and values: a market more or fewer, a margin of error, a metric gone', () => {
    const json = `markets/${AUSTIN}.json`;
    const austin = readFileSync(join(ARCHIVE, FIRST, json), 'utf8');
    const built = (change: Change): string =>
      thrown(() => buildWorld({ baseUrl: 'http://localhost:3000', archive: readArchive(alteredArchive(change)) }), 'archive_changed');
    const renew = `a changed snapshot needs a new retrieval date`;
    assert.equal(
      built((r, _, folder) => {
        for (const file of [json, `markets/${AUSTIN}.csv`]) rmSync(join(folder, file));
        r.documents = r.documents.filter((d) => !d.file.startsWith(`markets/${AUSTIN}.`));
      }),
      `${FIRST}/${json}: the snapshot of ${FIRST} did not have market ${AUSTIN}; ${renew}`,
    );
    assert.equal(
      built((r, write, folder) => {
        for (const [file, body] of [
          ['markets/us-zz-extra.json', austin.replace(`"id": "${AUSTIN}"`, '"id": "us-zz-extra"')],
          ['markets/us-zz-extra.csv', readFileSync(join(folder, `markets/${AUSTIN}.csv`), 'utf8')],
        ] as const) {
          r.documents.push({ file, bytes: 0, sha256: '' });
          write(file, body);
        }
      }),
      `${FIRST}/markets/us-zz-extra.json: the snapshot of ${FIRST} had market us-zz-extra; ${renew}`,
    );
    /** Austin's archived profile with its metrics edited, its hash kept true. */
    const editMetrics =
      (edit: (metrics: Record<string, Record<string, unknown>>) => void): Change =>
      (_, write) => {
        const doc = JSON.parse(austin) as { profile: { metrics: Record<string, Record<string, unknown>> } };
        edit(doc.profile.metrics);
        write(json, JSON.stringify(doc));
      };
    // Austin's median gross rent: 1,729 ± 14 (ACS 2020-2024), its archived margin edited to ± 15.
    assert.equal(
      built(
        editMetrics((metrics) => {
          assert.equal(metrics['medianGrossRent']?.marginOfError, 14, 'premise: archived as ± 14');
          Object.assign(metrics['medianGrossRent'] ?? {}, { marginOfError: 15 });
        }),
      ),
      `${FIRST}/${json}, at /profile/metrics/medianGrossRent: the fixtures give [1729,"2020-2024","census-acs-5yr",14,false] where the archived snapshot of ${FIRST} has [1729,"2020-2024","census-acs-5yr",15,false]; ${renew} (fetch records one)`,
    );
    assert.equal(
      built(
        editMetrics((metrics) => {
          delete metrics['permits'];
        }),
      ),
      `${FIRST}/${json}, at /profile/metrics/permits: the fixtures give [9444,"2024","census-bps",null,false] where the archived snapshot of ${FIRST} has absent; ${renew} (fetch records one)`,
    );
  });

  test('a build under an archived date holds its documents to the archived bytes, as `archive` does: the same values in other words are refused', () => {
    const json = `markets/${AUSTIN}.json`;
    const csv = `markets/${AUSTIN}.csv`;
    const refused = (change: Change): string =>
      thrown(() => buildWorld({ baseUrl: 'http://localhost:3000', archive: readArchive(alteredArchive(change)) }), 'archive_changed');
    const differ = `this build's bytes differ from those archived for ${FIRST}; an archived snapshot is never rewritten (a changed snapshot needs a new retrieval date)`;
    // A caveat more in Austin's archived profile (its hash kept true): every value the same, the words not.
    assert.equal(
      refused((_, write) => write(json, readFileSync(join(ARCHIVE, FIRST, json), 'utf8').replace('"caveats": [', '"caveats": [\n    "One caveat more.",'))),
      `${FIRST}/${json}: ${differ}`,
    );
    // A row of the archived CSV whose label is written otherwise.
    assert.equal(
      refused((_, write) => write(csv, readFileSync(join(ARCHIVE, FIRST, csv), 'utf8').replace('Median gross rent', 'Median rent'))),
      `${FIRST}/${csv}: ${differ}`,
    );
    // The record names the sources' files: a difference there alone (a fixture byte no document shows) is `archive`'s to refuse.
    const recorded = alteredArchive((r) => {
      const file = (r['sources'] as { files: { sha256: string }[] }[])[0]?.files[0];
      if (file !== undefined) file.sha256 = '0'.repeat(64);
    });
    assert.doesNotThrow(() => buildWorld({ baseUrl: 'http://localhost:3000', archive: readArchive(recorded) }));
    assert.doesNotThrow(() => buildWorld({ baseUrl: 'http://localhost:3000', archive: readArchive(alteredArchive(() => undefined)) }));
  });

  test('`archive` never rewrites a byte, writes the record in order of name, and replaces a staging folder left behind', async () => {
    const same = alteredArchive(() => undefined);
    const again = await run(['archive', '--fixtures', FIXTURES_DIR, '--archive', same]);
    assert.deepEqual(again, { code: 0, out: `market-profiles: the snapshot of ${FIRST} is archived already, byte for byte (${same}/${FIRST}/)\n`, err: '' });
    // A caveat more in Austin's archived profile (its hash kept true): the same values, other bytes.
    const json = `markets/${AUSTIN}.json`;
    const changed = alteredArchive((_, write) =>
      write(json, readFileSync(join(ARCHIVE, FIRST, json), 'utf8').replace('"caveats": [', '"caveats": [\n    "One caveat more.",')),
    );
    const { snapshot, table } = buildWorldSnapshot({ baseUrl: 'http://localhost:3000', archive: readArchive(same) });
    assert.equal(
      thrown(() => writeSnapshot(changed, snapshot, table), 'archive_changed'),
      `${FIRST}/${json}: this build's bytes differ from those archived for ${FIRST}; an archived snapshot is never rewritten (a changed snapshot needs a new retrieval date)`,
    );
    // A new snapshot, with the staging folder of a run of this process that stopped half-way.
    const fixtures = join(work, 'fixtures-next');
    cpSync(FIXTURES_DIR, fixtures, { recursive: true });
    nextQuarter(fixtures);
    const dir = alteredArchive(() => undefined);
    const staging = join(dir, `.${SECOND}.tmp-${process.pid}`);
    mkdirSync(join(staging, 'markets'), { recursive: true });
    writeFileSync(join(staging, 'markets', 'half.json'), '{');
    const written = await run(['archive', '--fixtures', fixtures, '--archive', dir]);
    assert.equal(written.code, 0, written.err);
    assert.deepEqual(readdirSync(dir).sort(), [FIRST_RELEASE, FIRST, SECOND]);
    const names = (JSON.parse(readFileSync(join(dir, SECOND, 'snapshot.json'), 'utf8')) as SnapshotRecord).documents.map((d) => d.file);
    assert.deepEqual(names.slice(0, 4), ['markets.csv', 'markets.json', 'markets/us-az-phoenix.csv', 'markets/us-az-phoenix.json']);
    assert.deepEqual(names, [...names].sort());
  });

  test('the staging folders of runs killed before their rename: never read as snapshots, removed by the next `archive` unless their run is alive', async () => {
    const dir = alteredArchive(() => undefined);
    // A run SIGKILLed half-way: its process is gone (a child that has exited), its folder holds a document cut short.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const killed = `.${SECOND}.tmp-${dead}`;
    mkdirSync(join(dir, killed, 'markets'), { recursive: true });
    writeFileSync(join(dir, killed, 'markets.json'), '{');
    // A run still writing: its process (the one that started this test's) is alive.
    const writing = `.${SECOND}.tmp-${process.ppid}`;
    mkdirSync(join(dir, writing));
    writeFileSync(join(dir, writing, 'snapshot.json'), '{');
    const dist = join(work, 'dist-staging');
    const built = await run(['build', '--fixtures', FIXTURES_DIR, '--archive', dir, '--out', dist]);
    assert.equal(built.code, 0, built.err);
    const index = JSON.parse(readFileSync(join(dist, 'site/api/vintages/index.json'), 'utf8')) as VintageIndex;
    assert.deepEqual(
      index.vintages.map((v) => v.snapshotDate),
      [FIRST, FIRST_RELEASE],
      'only the archived snapshots are vintages',
    );
    const archived = await run(['archive', '--fixtures', FIXTURES_DIR, '--archive', dir]);
    assert.deepEqual(archived, {
      code: 0,
      out:
        `market-profiles: removed ${dir}/${killed}/, left by an interrupted archive run\n` +
        `market-profiles: the snapshot of ${FIRST} is archived already, byte for byte (${dir}/${FIRST}/)\n`,
      err: '',
    });
    assert.deepEqual(readdirSync(dir).sort(), [writing, FIRST_RELEASE, FIRST].sort());
  });

  test('a snapshot that cannot be put in place leaves no staging folder and nothing else changed', () => {
    const fixtures = join(work, 'fixtures-blocked');
    cpSync(FIXTURES_DIR, fixtures, { recursive: true });
    nextQuarter(fixtures);
    const dir = alteredArchive(() => undefined);
    const { snapshot, table } = buildWorldSnapshot({ baseUrl: 'http://localhost:3000', read: fixturesOnDisk(fixtures), archive: readArchive(dir) });
    // A link to nothing where the new folder goes: it does not exist, so the snapshot is written, and the rename onto it fails.
    symlinkSync(join(work, 'nowhere'), join(dir, SECOND));
    const first = readdirSync(join(dir, FIRST), { recursive: true }).sort();
    assert.throws(
      () => writeSnapshot(dir, snapshot, table),
      (error: NodeJS.ErrnoException) => error.code === 'ENOTDIR',
    );
    assert.deepEqual(readdirSync(dir).sort(), [FIRST_RELEASE, FIRST, SECOND], 'no staging folder left behind');
    assert.ok(lstatSync(join(dir, SECOND)).isSymbolicLink(), 'what stood in the way is as it was');
    assert.deepEqual(readdirSync(join(dir, FIRST), { recursive: true }).sort(), first);
  });

  test("two runs at once: the one that renames second finds the other's folder and says the date is archived already", () => {
    const fixtures = join(work, 'fixtures-race');
    cpSync(FIXTURES_DIR, fixtures, { recursive: true });
    nextQuarter(fixtures);
    const dir = alteredArchive(() => undefined);
    const { snapshot, table } = buildWorldSnapshot({ baseUrl: 'http://localhost:3000', read: fixturesOnDisk(fixtures), archive: readArchive(dir) });
    // The other run wins the race: its folder, the same bytes, is in place when this one's rename comes.
    const result = writeSnapshot(dir, snapshot, table, { beforeRename: (staging, target) => cpSync(staging, target, { recursive: true }) });
    assert.equal(result.written, false, 'archived already');
    assert.deepEqual(readdirSync(dir).sort(), [FIRST_RELEASE, FIRST, SECOND], 'no staging folder left behind');
    assert.equal(readArchive(dir).length, 3, 'every archived snapshot reads back, its hashes true');
  });

  test("two runs at once whose bytes differ: the second to rename is refused, naming the file, and the first's folder stays", () => {
    const fixtures = join(work, 'fixtures-race-differ');
    cpSync(FIXTURES_DIR, fixtures, { recursive: true });
    nextQuarter(fixtures);
    const dir = alteredArchive(() => undefined);
    const { snapshot, table } = buildWorldSnapshot({ baseUrl: 'http://localhost:3000', read: fixturesOnDisk(fixtures), archive: readArchive(dir) });
    const json = `markets/${AUSTIN}.json`;
    let winner = '';
    const message = thrown(
      () =>
        writeSnapshot(dir, snapshot, table, {
          beforeRename: (staging, target) => {
            cpSync(staging, target, { recursive: true });
            winner = readFileSync(join(target, json), 'utf8').replace('"caveats": [', '"caveats": [\n    "One caveat more.",');
            writeFileSync(join(target, json), winner);
          },
        }),
      'archive_changed',
    );
    assert.equal(
      message,
      `${SECOND}/${json}: this build's bytes differ from those archived for ${SECOND}; an archived snapshot is never rewritten (a changed snapshot needs a new retrieval date)`,
    );
    assert.deepEqual(readdirSync(dir).sort(), [FIRST_RELEASE, FIRST, SECOND], 'no staging folder left behind');
    assert.equal(readFileSync(join(dir, SECOND, json), 'utf8'), winner, "the winner's folder as it wrote it");
  });

  test('a build without a route the archive keeps is refused, naming the route', () => {
    const table = buildWorld({ baseUrl: 'http://localhost:3000' });
    assert.equal(
      thrown(() => snapshotDocuments({ ...table, routes: new Map() }), 'archive_shape'),
      'route /api/markets: the build has no such route to archive',
    );
  });
});
