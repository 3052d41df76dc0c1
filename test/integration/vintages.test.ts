// Vintages: each published snapshot archived whole and never rewritten; a second snapshot leaves the first addressable byte for byte, and a changed archived byte stops the build.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { main } from '../../src/commands/cli.ts';
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
