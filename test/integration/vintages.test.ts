// Vintages: each published snapshot archived whole and never rewritten; a second snapshot leaves the first addressable byte for byte, and a changed archived byte stops the build.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readArchive } from '../../src/archive/archive.ts';
import { main } from '../../src/commands/cli.ts';
import { ArchiveError } from '../../src/contract/errors.ts';
import type { VintageIndex } from '../../src/contract/vintages.ts';
import { captureOutput } from '../support/capture.ts';
import { FIXTURES_DIR, fhfaNextQuarter } from '../support/data.ts';

const FIRST = '2026-11-24';
const SECOND = '2027-03-01';
const AUSTIN = 'us-tx-austin';

/** Runs the command line, returning its exit code and what it printed on each stream. */
async function run(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const { value, out, err } = await captureOutput(() => main(args, { BASE_URL: 'http://localhost:3000' }));
  return { code: value, out, err };
}

/** FHFA's file one quarter on (every series gains 2026 Q1, 1 % above its 2025 Q4), retrieved on SECOND: a new snapshot. */
function nextQuarter(fixtures: string): void {
  const file = join(fixtures, 'fhfa-hpi/hpi_at_metro.csv');
  writeFileSync(file, fhfaNextQuarter(readFileSync(file, 'utf8')));
  writeFileSync(join(fixtures, 'fhfa-hpi/retrieval.json'), JSON.stringify({ vintage: '2026 Q1', latestReleaseDate: '2026-05-26', latestRetrievedAt: SECOND }));
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
        ['census-acs-5yr', 2],
        ['census-bps', 4],
        ['fhfa-hpi', 1],
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
    assert.deepEqual([now.profile.metrics['homePriceIndex']?.asOf, now.profile.metrics['homePriceIndex']?.value], ['2026 Q1', 510.76]);
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
});

describe('an archived snapshot unlike what `archive` writes stops the build at its file, and nothing outside the archive is read', () => {
  const ARCHIVE = new URL('../../archive/', import.meta.url).pathname;
  const work = mkdtempSync(join(tmpdir(), 'mp-archive-shape-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const hash = (body: Buffer): string => createHash('sha256').update(body).digest('hex');
  interface Written {
    file: string;
    bytes: number;
    sha256: string;
  }

  /**
   * The message readArchive throws for a copy of the committed archive in which `change` rewrote the first snapshot's
   * record or files (`write` keeps the record's size and hash of a file true to its new bytes, so only the shape is wrong).
   */
  function refusal(change: (record: Record<string, unknown> & { documents: Written[] }, write: (file: string, body: string) => void) => unknown): string {
    const dir = mkdtempSync(join(work, 'case-'));
    cpSync(ARCHIVE, dir, { recursive: true });
    const recordFile = join(dir, FIRST, 'snapshot.json');
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as Record<string, unknown> & { documents: Written[] };
    const write = (file: string, body: string): void => {
      writeFileSync(join(dir, FIRST, file), body);
      const entry = record.documents.find((d) => d.file === file);
      if (entry !== undefined) Object.assign(entry, { bytes: Buffer.byteLength(body), sha256: hash(Buffer.from(body)) });
    };
    const replaced = change(record, write);
    writeFileSync(recordFile, typeof replaced === 'string' ? replaced : JSON.stringify(record));
    try {
      readArchive(dir);
    } catch (error) {
      assert.ok(error instanceof ArchiveError, `an ArchiveError, not ${String(error)}`);
      assert.equal(error.code, 'archive_shape');
      return error.message;
    }
    return assert.fail('the archive was read');
  }
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
});
