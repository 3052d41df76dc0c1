// `fetch` against a loopback server that replays the agencies' files: success, a dry run, and every failure shape, with a failed source's fixtures untouched, the others' written, and one line per source.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { main, runnersFor } from '../../src/commands/cli.ts';
import type { MarketProfile } from '../../src/contract/schemas.ts';
import { addressOf, FetchError, fetchSources, type FetchOptions } from '../../src/commands/fetch.ts';
import { codeOf, FILE as FHFA_FILE, MASTER as FHFA_MASTER } from '../../src/sources/fhfa-hpi/format.ts';
import { fixturesOnDisk } from '../../src/sources/load.ts';
import { captureOutput } from '../support/capture.ts';
import { FIXTURES_DIR, fhfaMasterNextQuarter, fhfaNextQuarter } from '../support/data.ts';
import { startReplay, type Replay, type Reply } from '../support/replay.ts';
import { WORLD_INPUTS, WORLD_MARKETS, WORLD_SOURCES, buildWorld } from '../world/world.ts';

/** Every file of a folder (or of one source's folder within it) with the SHA-256 of its bytes, to prove a failed fetch wrote nothing there. */
function snapshot(root: string, sourceId?: string): Record<string, string> {
  const dir = sourceId === undefined ? root : join(root, sourceId);
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/** The path and query a remote file is asked for (what the replay server keys on). */
const target = (url: string): string => {
  const u = new URL(url);
  return u.pathname + u.search;
};

const REMOTES = WORLD_SOURCES.flatMap((adapter) => adapter.remote.map((remote) => ({ adapter, remote })));

describe('fetch', () => {
  let replay: Replay;
  let dir: string;
  const lines: string[] = [];
  const options = (extra: Partial<FetchOptions> = {}): FetchOptions => ({
    markets: WORLD_MARKETS,
    sources: WORLD_SOURCES,
    fixturesDir: dir,
    upstream: replay.origin,
    // Only the test of the timeout itself runs into it; every other answer comes whole, however busy the machine.
    timeoutMs: 600_000,
    attempts: 2,
    backoffMs: 1,
    now: () => new Date('2026-10-06T12:00:00Z'),
    say: (line) => lines.push(line),
    warn: (line) => lines.push(line),
    ...extra,
  });
  /** Runs fetch when one source is meant to fail: that source's error (the others may pass). */
  const failed = async (opts: FetchOptions): Promise<FetchError> => {
    const report = await fetchSources(opts);
    assert.equal(report.ok, false, 'a source failed');
    const [error, ...more] = report.failures;
    assert.ok(error !== undefined && more.length === 0, `one source failed: ${report.failures.join('\n')}`);
    return error;
  };
  /** The agencies' files as the fixtures hold them, each at its address. */
  const serveFixtures = (): void => {
    replay.replies.clear();
    for (const { remote } of REMOTES) replay.replies.set(target(remote.url), { kind: 'file', body: readFileSync(join(FIXTURES_DIR, remote.file)) });
  };

  before(async () => {
    replay = await startReplay();
  });
  after(async () => {
    await replay.close();
  });
  beforeEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), 'mp-fetch-'));
    cpSync(FIXTURES_DIR, dir, { recursive: true });
    lines.length = 0;
    replay.seen.length = 0;
    serveFixtures();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('every source names at least one file at its agency', () => {
    for (const adapter of WORLD_SOURCES) {
      assert.ok(adapter.remote.length > 0, adapter.sourceId);
      for (const remote of adapter.remote) {
        assert.match(remote.url, /^https:\/\/(?:api\.census\.gov|www2?\.census\.gov|www\.fhfa\.gov)\//, remote.url);
        assert.ok(adapter.files.includes(remote.file), `${remote.file} is one of ${adapter.sourceId}'s files`);
        assert.ok(adapter.origins.includes(new URL(remote.url).origin), `${remote.url} is at one of ${adapter.sourceId}'s own origins`);
      }
    }
  });

  it('the Census API key is sent to the ACS only, and never recorded', async () => {
    const acs = WORLD_SOURCES.find((a) => a.sourceId === 'census-acs-5yr');
    const bps = WORLD_SOURCES.find((a) => a.sourceId === 'census-bps');
    assert.ok(acs?.remote[0] !== undefined && bps?.remote[0] !== undefined, 'acs?.remote[0] !== undefined && bps?.remote[0] !== undefined');
    assert.equal(new URL(addressOf(acs.remote[0], acs, { credentials: { CENSUS_API_KEY: 's3cret' } })).searchParams.get('key'), 's3cret');
    assert.equal(new URL(addressOf(bps.remote[0], bps, { credentials: { CENSUS_API_KEY: 's3cret' } })).searchParams.get('key'), null);
    // The replay server keys on path and query, so the ACS addresses are served with the key as the agency would see them.
    for (const remote of acs.remote) {
      const body = readFileSync(join(FIXTURES_DIR, remote.file));
      replay.replies.set(target(addressOf(remote, acs, { credentials: { CENSUS_API_KEY: 's3cret' } })), { kind: 'file', body });
    }
    await fetchSources(options({ credentials: { CENSUS_API_KEY: 's3cret' } }));
    assert.ok(
      replay.seen.some((s) => s.includes('key=s3cret')),
      "replay.seen.some((s) => s.includes('key=s3cret'))",
    );
    for (const file of Object.keys(snapshot(dir))) assert.ok(!readFileSync(join(dir, file), 'utf8').includes('s3cret'), file);
    assert.ok(!lines.some((l) => l.includes('s3cret')), "!lines.some((l) => l.includes('s3cret'))");
  });

  it('success: writes each download and a retrieval.json with its address, time, size and SHA-256', async () => {
    const report = await fetchSources(options());
    assert.equal(report.ok, true);
    assert.equal(report.written, true);
    for (const { adapter, remote } of REMOTES) {
      const served = readFileSync(join(FIXTURES_DIR, remote.file));
      assert.deepEqual(readFileSync(join(dir, remote.file)), served, remote.file);
      const retrieval = JSON.parse(readFileSync(join(dir, adapter.sourceId, 'retrieval.json'), 'utf8')) as {
        latestRetrievedAt: string;
        files: { file: string; url: string; bytes: number; sha256: string; retrievedAt: string }[];
      };
      assert.equal(retrieval.latestRetrievedAt, '2026-10-06');
      // A real download is the agency's data: the committed fixtures' "illustrative" mark is not carried over.
      assert.equal('illustrative' in retrieval, false, adapter.sourceId);
      const entry = retrieval.files.find((f) => f.file === remote.file);
      assert.deepEqual(entry, {
        file: remote.file,
        url: remote.url,
        retrievedAt: '2026-10-06T12:00:00.000Z',
        bytes: served.length,
        sha256: createHash('sha256').update(served).digest('hex'),
      });
    }
  });

  it('a gzip answer with the Content-Length of its compressed bytes, as CDNs send it, is read whole', async () => {
    for (const { remote } of REMOTES) replay.replies.set(target(remote.url), { kind: 'gzip', body: readFileSync(join(FIXTURES_DIR, remote.file)) });
    const report = await fetchSources(options());
    assert.equal(report.written, true);
    for (const { remote } of REMOTES) assert.deepEqual(readFileSync(join(dir, remote.file)), readFileSync(join(FIXTURES_DIR, remote.file)), remote.file);
    const acs = report.sources.find((s) => s.sourceId === 'census-acs-5yr');
    assert.equal(
      acs?.bytes,
      REMOTES.filter((r) => r.adapter.sourceId === 'census-acs-5yr').reduce((n, r) => n + readFileSync(join(FIXTURES_DIR, r.remote.file)).length, 0),
    );
  });

  it("the Census API's refusal of a request without a key is one message naming CENSUS_API_KEY and where to get a key", async () => {
    const acs = REMOTES.find((r) => r.adapter.sourceId === 'census-acs-5yr') ?? assert.fail('no ACS remote');
    const missingKey =
      '<!DOCTYPE html><html><head><title>Missing Key</title></head><body><p>A valid key must be included with each data API request.</p></body></html>';
    replay.replies.set(target(acs.remote.url), { kind: 'html', body: missingKey });
    const missing = await failed(options());
    assert.equal(missing.sourceId, 'census-acs-5yr');
    assert.match(
      missing.message,
      /the answer is an HTML page \(text\/html; charset=utf-8\), not the data file; CENSUS_API_KEY is not set, and this API refuses requests without a key: a key is free at https:\/\/api\.census\.gov\/data\/key_signup\.html, then set CENSUS_API_KEY$/,
    );
    replay.replies.set(target(addressOf(acs.remote, acs.adapter, { credentials: { CENSUS_API_KEY: 'wrong' } })), { kind: 'html', body: missingKey });
    assert.match((await failed(options({ credentials: { CENSUS_API_KEY: 'wrong' } }))).message, /; CENSUS_API_KEY is set: the API may have refused that key$/);
    // A 403 is a refusal too; a 404 is not, and says nothing of keys.
    replay.replies.set(target(acs.remote.url), { kind: 'status', status: 403 });
    assert.match((await failed(options())).message, /answered 403, not 200; CENSUS_API_KEY is not set/);
    replay.replies.set(target(acs.remote.url), { kind: 'status', status: 404 });
    assert.doesNotMatch((await failed(options())).message, /KEY/);
    // Another source's failure says nothing of keys.
    const bps = REMOTES.find((r) => r.adapter.sourceId === 'census-bps') ?? assert.fail('no BPS remote');
    serveFixtures();
    replay.replies.set(target(bps.remote.url), { kind: 'html' });
    const other = await failed(options());
    assert.equal(other.sourceId, 'census-bps');
    assert.doesNotMatch(other.message, /KEY/);
  });

  it("a redirect to the source's own origin is followed, and retrieval.json records where the bytes came from", async () => {
    const fhfa = REMOTES.find((r) => r.adapter.sourceId === 'fhfa-hpi') ?? assert.fail('no FHFA remote');
    // The same server by another name is another origin: declared here as the source's own.
    const own = replay.origin.replace('127.0.0.1', 'localhost');
    const mirror = `${own}/mirror${new URL(fhfa.remote.url).pathname}`;
    const sources = WORLD_SOURCES.map((s) => (s === fhfa.adapter ? { ...s, origins: [...s.origins, own] } : s));
    replay.replies.set(target(fhfa.remote.url), { kind: 'redirect', location: mirror });
    replay.replies.set(new URL(mirror).pathname, { kind: 'file', body: readFileSync(join(FIXTURES_DIR, fhfa.remote.file)) });
    await fetchSources(options({ sources, verbose: true }));
    const retrieval = JSON.parse(readFileSync(join(dir, 'fhfa-hpi', 'retrieval.json'), 'utf8')) as { files: { url: string; servedFrom?: string }[] };
    assert.equal(retrieval.files[0]?.url, fhfa.remote.url);
    assert.equal(retrieval.files[0]?.servedFrom, mirror);
    assert.ok(
      lines.some((l) => l.endsWith(`, served from ${mirror}`)),
      lines.join('\n'),
    );
    // Without a redirect there is no such field.
    const acs = JSON.parse(readFileSync(join(dir, 'census-acs-5yr', 'retrieval.json'), 'utf8')) as { files: { servedFrom?: string }[] };
    assert.ok(
      acs.files.every((f) => !('servedFrom' in f)),
      "acs.files.every((f) => !('servedFrom' in f))",
    );
  });

  it("a redirect to any other origin is refused before it is followed, naming the origin and never the page's body", async () => {
    const fhfa = REMOTES.find((r) => r.adapter.sourceId === 'fhfa-hpi') ?? assert.fail('no FHFA remote');
    const elsewhere = `${replay.origin.replace('127.0.0.1', 'localhost')}/elsewhere`;
    replay.replies.set(target(fhfa.remote.url), { kind: 'redirect', location: elsewhere });
    replay.replies.set('/elsewhere', { kind: 'file', body: 'SECRET-PAGE-TEXT,12420,2026,2,1.00,( 1.00)\n' });
    const before = snapshot(dir, 'fhfa-hpi');
    {
      const error = await failed(options());
      assert.equal(error.sourceId, 'fhfa-hpi');
      assert.match(
        error.message,
        new RegExp(`: a redirect led to ${new URL(elsewhere).origin}, which is not fhfa-hpi's own \\(${replay.origin}, https://www\\.fhfa\\.gov\\); refused$`),
      );
      assert.ok(!error.message.includes('SECRET'), error.message);
    }
    assert.ok(!replay.seen.includes('/elsewhere'), 'the other origin was never asked');
    assert.deepEqual(snapshot(dir, 'fhfa-hpi'), before);
    // A redirect that never ends is refused after the fifth.
    replay.replies.set(target(fhfa.remote.url), { kind: 'redirect', location: target(fhfa.remote.url) });
    assert.match((await failed(options())).message, /: more than 5 redirects; refused$/);
    assert.deepEqual(snapshot(dir, 'fhfa-hpi'), before);
  });

  it("an answer that is not the data is refused without a word of its body (the Census API's plain-text error)", async () => {
    const acs = REMOTES.find((r) => r.adapter.sourceId === 'census-acs-5yr') ?? assert.fail('no ACS remote');
    replay.replies.set(target(acs.remote.url), { kind: 'file', body: "error: error: unknown variable 'B25064_001X'" });
    {
      const error = await failed(options());
      assert.match(error.message, /the download does not pass the build's checks: census-acs-5yr\/acs5-2024-detailed-place\.json(?::\d+)?: not valid JSON/);
      // The addresses name the API's variables; what follows them is the reason, which quotes nothing of the answer.
      const reason = error.message.slice(error.message.indexOf(": the download does not pass the build's checks: "));
      assert.ok(!/unknown|variable|error: err/.test(reason), reason);
      assert.ok(!/unknown|variable|error: err/.test(error.outcome), error.outcome);
    }
  });

  it('a redirect from https down to http is refused, naming both', async () => {
    const fhfa = REMOTES.find((r) => r.adapter.sourceId === 'fhfa-hpi') ?? assert.fail('no FHFA remote');
    // The agency's own https address, answered as if redirected to plain http (no network: the answer is made here).
    const downgraded = (async () =>
      Object.assign(new Response('"Austin",12420,2025,4,505.70,( 1.10)\n', { status: 200 }), {})) as unknown as typeof globalThis.fetch;
    const fetchThat: typeof globalThis.fetch = async (input, init) => {
      const response = await downgraded(input, init);
      Object.defineProperty(response, 'url', { value: 'http://mirror.example/hpi_at_metro.csv' });
      return response;
    };
    const error = await failed({ ...options({ only: ['fhfa-hpi'], fetch: fetchThat }), upstream: undefined });
    assert.equal(error.url, fhfa.remote.url);
    assert.match(error.message, /a redirect led from https to http \(http:\/\/mirror\.example\); refused$/);
  });

  /** The world's markets' codes in FHFA's file: each one's metro, and the divisions that hold its city. */
  const FHFA_MARKET_CODES = new Set(WORLD_MARKETS.flatMap((m) => [m.cbsaCode, ...m.divisions.map((d) => d.code)]));
  const fhfaLines = (): string[] =>
    readFileSync(join(FIXTURES_DIR, FHFA_FILE), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
  const joined = (lines: readonly string[]): string => `${lines.join('\n')}\n`;
  /** A file of the world with the lines a test picks removed. */
  const without = (file: string, drop: (line: string, i: number, lines: readonly string[]) => boolean): string => {
    const lines = readFileSync(join(FIXTURES_DIR, file), 'utf8').split('\n');
    return lines.filter((l, i) => !drop(l, i, lines)).join('\n');
  };
  const AUSTIN = WORLD_MARKETS.find((m) => m.id === 'us-tx-austin') ?? assert.fail('no Austin');
  /** The world's HPI_master.csv without the lines of one quarter (the last of each series: a release a quarter older). */
  const masterWithout = (year: number, quarter: number): string =>
    without(FHFA_MASTER, (l) => l.endsWith(`,${year},${quarter},${l.split(',').at(-4) ?? ''},,,`));
  /** Both of FHFA's files one quarter on, as a new release would hold them. */
  const serveNextFhfaRelease = (lastModified?: string): void => {
    for (const { remote } of REMOTES.filter((r) => r.adapter.sourceId === 'fhfa-hpi')) {
      const text = readFileSync(join(FIXTURES_DIR, remote.file), 'utf8');
      const body = remote.file === FHFA_FILE ? fhfaNextQuarter(text) : fhfaMasterNextQuarter(text);
      replay.replies.set(target(remote.url), { kind: 'file', body, ...(remote.file === FHFA_FILE && lastModified !== undefined ? { lastModified } : {}) });
    }
  };

  /**
   * The six downloads issue 48 found written though they publish less or older data, and a history cut at its start, each
   * served by a hostile upstream:
   * the file, its body, and the reason the refusal gives. The build's own checks may refuse one first (they name the
   * source's file); either way the download is refused and the fixtures stay.
   */
  /** What fetch says of the series outside the markets cut to their first quarter: they end earlier. */
  const OTHER_SERIES_ENDED = /17 series of the files end earlier than they did: 10180 \(205 of 206 periods, 1975 Q2 to 2026 Q2\), /;
  const HOSTILE: { shape: string; file: string; body: () => string; reason: RegExp }[] = [
    {
      shape: "FHFA's file cut at a line end before a market's latest quarter, with the Content-Length of what was sent",
      file: FHFA_FILE,
      body: () => {
        const lines = fhfaLines();
        const last = lines.length - 1 - [...lines].reverse().findIndex((l) => FHFA_MARKET_CODES.has(codeOf(l) ?? ''));
        return joined(lines.slice(0, last));
      },
      reason:
        /2 values go back to an earlier period: us-[a-z-]+ homePriceChange 2025 Q2 to 2026 Q2 → 2025 Q1 to 2026 Q1, us-[a-z-]+ homePriceIndex 2026 Q2 → 2026 Q1 \(--allow-older/,
    },
    {
      shape: "the previous quarter's FHFA file",
      file: FHFA_FILE,
      body: () => joined(fhfaLines().filter((l) => !/",\d{5},2026,2,/.test(l))),
      reason: /the download holds vintage 2026 Q1, older than the fixtures' 2026 Q2; 32 values go back to an earlier period: /,
    },
    {
      shape: "FHFA's file with every market's series gone",
      file: FHFA_FILE,
      body: () => joined(fhfaLines().filter((l) => !FHFA_MARKET_CODES.has(codeOf(l) ?? ''))),
      reason:
        /16 markets have values in the fixtures and none in the download: us-az-phoenix, us-ca-los-angeles, us-ca-san-diego, us-ca-san-francisco, us-co-denver and 11 more/,
    },
    {
      shape: "FHFA's file with one market a year stale",
      file: FHFA_FILE,
      body: () => {
        const lines = fhfaLines();
        const austin = lines.flatMap((l, i) => (codeOf(l) === AUSTIN.cbsaCode ? [i] : []));
        const stale = new Set(austin.slice(-4));
        return joined(lines.filter((_, i) => !stale.has(i)));
      },
      reason:
        /2 values go back to an earlier period: us-tx-austin homePriceChange 2025 Q2 to 2026 Q2 → 2024 Q2 to 2025 Q2, us-tx-austin homePriceIndex 2026 Q2 → 2025 Q2 \(--allow-older/,
    },
    {
      shape: "the ACS places' answer without a market's row",
      file: 'census-acs-5yr/acs5-2024-detailed-place.json',
      body: () => without('census-acs-5yr/acs5-2024-detailed-place.json', (l) => l.startsWith(`["${AUSTIN.placeName}"`)),
      reason: /1 market has values in the fixtures and none in the download: us-tx-austin$/,
    },
    {
      shape: "a BPS region's file without a market's row",
      file: 'census-bps/so2024a.txt',
      body: () => without('census-bps/so2024a.txt', (l) => /^2024,48,\d+,\d+,\d+,05000 /.test(l)),
      reason: /1 market has values in the fixtures and none in the download: us-tx-austin$/,
    },
    {
      shape: "FHFA's file with a market's first twenty quarters cut (its series would start later)",
      file: FHFA_FILE,
      body: () => {
        const lines = fhfaLines();
        const first = lines.findIndex((l) => FHFA_MARKET_CODES.has(codeOf(l) ?? ''));
        return joined(lines.filter((_, i) => i < first || i >= first + 20));
      },
      reason:
        /2 series lose their first periods: us-[a-z-]+ homePriceChange from \d{4} Q\d to \d{4} Q\d → from \d{4} Q\d to \d{4} Q\d, us-[a-z-]+ homePriceIndex from \d{4} Q\d → from \d{4} Q\d$/,
    },
    {
      shape: "FHFA's file cut in the middle of its last line, with the Content-Length of what was sent",
      file: FHFA_FILE,
      body: () => readFileSync(join(FIXTURES_DIR, FHFA_FILE), 'utf8').slice(0, -9),
      reason: /fhfa-hpi\/hpi_at_metro\.csv: it ends mid-line \(its last line, \d+ bytes, has no line end, as every line of the fixture has\)$/,
    },
    {
      shape: "a BPS region's file cut in the middle of its last line",
      file: 'census-bps/we2024a.txt',
      body: () => readFileSync(join(FIXTURES_DIR, 'census-bps/we2024a.txt'), 'utf8').slice(0, -5),
      reason: /census-bps\/we2024a\.txt: it ends mid-line/,
    },
    {
      shape: "FHFA's file with every series outside the markets cut to its first quarter",
      file: FHFA_FILE,
      body: () => {
        const seen = new Set<string>();
        return joined(
          fhfaLines().filter((l) => {
            const code = codeOf(l) ?? '';
            if (FHFA_MARKET_CODES.has(code) || !seen.has(code)) return seen.add(code);
            return false;
          }),
        );
      },
      reason: OTHER_SERIES_ENDED,
    },
    {
      shape: "FHFA's file with every series outside the markets cut to its latest quarter",
      file: FHFA_FILE,
      body: () => {
        const lines = fhfaLines();
        return joined(lines.filter((l, i) => FHFA_MARKET_CODES.has(codeOf(l) ?? '') || codeOf(lines[i + 1] ?? '') !== codeOf(l)));
      },
      reason: /17 series of the files lose periods they had: 10180 \(205 of 206 periods, 1975 Q1 to 2026 Q1\), /,
    },
    {
      shape: 'a quarter gone from the middle of a series outside the markets',
      file: FHFA_FILE,
      body: () => {
        const lines = fhfaLines();
        const other = lines.findIndex((l) => !FHFA_MARKET_CODES.has(codeOf(l) ?? ''));
        return joined(lines.filter((_, i) => i !== other + 100));
      },
      reason: /1 series of the files loses periods it had: 10180 \(1 of 206 periods, 2000 Q1\)$/,
    },
  ];
  for (const { shape, file, body, reason } of HOSTILE) {
    it(`refused, the fixtures untouched: ${shape}`, async () => {
      const text = body();
      assert.notEqual(text, readFileSync(join(FIXTURES_DIR, file), 'utf8'), 'the case changes the file');
      const { adapter, remote } = REMOTES.find((r) => r.remote.file === file) ?? assert.fail(`no remote ${file}`);
      // Its length declared, as an agency's server sends it: nothing at the transport says a line is missing.
      replay.replies.set(target(remote.url), { kind: 'file', body: text, declared: true });
      const before = snapshot(dir, adapter.sourceId);
      const error = await failed(options());
      assert.equal(error.sourceId, adapter.sourceId);
      const ours = new RegExp(`: refused, it would publish less or older data than the fixtures: ${reason.source}`);
      const theBuilds = new RegExp(`: the download does not pass the build's checks: ${adapter.sourceId}/`);
      assert.ok(ours.test(error.message) || theBuilds.test(error.message), error.message);
      // Its line says the same without the address.
      const line = new RegExp(`^refused: it would publish less or older data than the fixtures: ${reason.source}`);
      assert.ok(
        line.test(error.outcome) || error.outcome.startsWith(`refused: the download does not pass the build's checks: ${adapter.sourceId}/`),
        error.outcome,
      );
      assert.deepEqual(snapshot(dir, adapter.sourceId), before);
    });
  }

  it('--allow-older accepts series outside the markets that end earlier or are gone (a re-delineation), never one that loses a period among its others', async () => {
    const { remote } = REMOTES.find((r) => r.remote.file === FHFA_FILE) ?? assert.fail('no FHFA remote');
    const retired = (codeOf(fhfaLines().find((l) => !FHFA_MARKET_CODES.has(codeOf(l) ?? '')) ?? '') ?? '').trim();
    const redrawn = joined(fhfaLines().filter((l) => codeOf(l) !== retired));
    replay.replies.set(target(remote.url), { kind: 'file', body: redrawn, declared: true });
    assert.match((await failed(options())).outcome, new RegExp(`: 1 series of the files is not in the download: ${retired} \\(--allow-older`));
    const report = await fetchSources(options({ only: ['fhfa-hpi'], allowOlder: true }));
    assert.equal(report.written, true);
    assert.equal(readFileSync(join(dir, FHFA_FILE), 'utf8'), redrawn);
    assert.ok(
      lines.includes(`market-profiles: fetch: fhfa-hpi: accepted with --allow-older: 1 series of the files is not in the download: ${retired}`),
      lines.join('\n'),
    );
    cpSync(FIXTURES_DIR, dir, { recursive: true });
    const ended = (HOSTILE.find((h) => h.reason === OTHER_SERIES_ENDED) ?? assert.fail('no such case')).body();
    replay.replies.set(target(remote.url), { kind: 'file', body: ended, declared: true });
    assert.equal((await fetchSources(options({ only: ['fhfa-hpi'], allowOlder: true }))).written, true);
    cpSync(FIXTURES_DIR, dir, { recursive: true });
    const holed = (HOSTILE.find((h) => h.shape === 'a quarter gone from the middle of a series outside the markets') ?? assert.fail('no such case')).body();
    replay.replies.set(target(remote.url), { kind: 'file', body: holed, declared: true });
    const before = snapshot(dir, 'fhfa-hpi');
    assert.match((await failed(options({ allowOlder: true }))).outcome, /1 series of the files loses periods it had/);
    assert.deepEqual(snapshot(dir, 'fhfa-hpi'), before);
  });

  it('--allow-older accepts an older vintage, says so on stderr, and still refuses less data', async () => {
    const previousQuarter = (HOSTILE.find((h) => h.shape === "the previous quarter's FHFA file") ?? assert.fail('no such case')).body();
    const { remote } = REMOTES.find((r) => r.remote.file === FHFA_FILE) ?? assert.fail('no FHFA remote');
    replay.replies.set(target(remote.url), { kind: 'file', body: previousQuarter });
    // The master file of the same, older release: without it the two files would be of two releases, which the load refuses.
    const master = REMOTES.find((r) => r.remote.file === FHFA_MASTER) ?? assert.fail('no FHFA master remote');
    replay.replies.set(target(master.remote.url), { kind: 'file', body: masterWithout(2026, 2) });
    const report = await fetchSources(options({ only: ['fhfa-hpi'], allowOlder: true }));
    assert.equal(report.written, true);
    assert.equal(readFileSync(join(dir, FHFA_FILE), 'utf8'), previousQuarter);
    assert.equal((JSON.parse(readFileSync(join(dir, 'fhfa-hpi', 'retrieval.json'), 'utf8')) as { vintage: string }).vintage, '2026 Q1');
    assert.ok(
      lines.includes("market-profiles: fetch: fhfa-hpi: accepted with --allow-older: the download holds vintage 2026 Q1, older than the fixtures' 2026 Q2"),
      lines.join('\n'),
    );
    // Fewer markets stay refused, with the flag or without.
    cpSync(FIXTURES_DIR, dir, { recursive: true });
    const acs = HOSTILE.find((h) => h.file.startsWith('census-acs-5yr/')) ?? assert.fail('no ACS case');
    const acsRemote = REMOTES.find((r) => r.remote.file === acs.file) ?? assert.fail('no ACS remote');
    replay.replies.set(target(acsRemote.remote.url), { kind: 'file', body: acs.body() });
    // Less data is refused either way: by the build's own load (a market's row gone) or, past it, by fetch's comparison.
    assert.match(
      (await failed(options({ allowOlder: true }))).message,
      /1 market has values in the fixtures and none in the download: us-tx-austin$|market us-tx-austin: the places answer has no row/,
    );
    // The ACS's refusal held back no other source: FHFA's older file, accepted with the flag, was written.
    assert.equal(readFileSync(join(dir, FHFA_FILE), 'utf8'), previousQuarter);
    // The command reads the flag (over the fixtures as they were).
    cpSync(FIXTURES_DIR, dir, { recursive: true });
    serveFixtures();
    replay.replies.set(target(remote.url), { kind: 'file', body: previousQuarter });
    replay.replies.set(target(master.remote.url), { kind: 'file', body: masterWithout(2026, 2) });
    const refused = await captureOutput(() => main(['fetch', '--fixtures', dir, '--upstream', replay.origin, '--dry-run'], {}, runnersFor(WORLD_INPUTS)));
    const allowed = await captureOutput(() =>
      main(['fetch', '--fixtures', dir, '--upstream', replay.origin, '--dry-run', '--allow-older'], {}, runnersFor(WORLD_INPUTS)),
    );
    assert.equal(refused.value, 1);
    assert.match(
      refused.err,
      /older than the fixtures' 2026 Q2.*\(--allow-older accepts an older vintage, period or series, never less data\)\n.*fixtures were left as they were/s,
    );
    assert.equal(allowed.value, 0, allowed.err);
    assert.match(allowed.err, /accepted with --allow-older: the download holds vintage 2026 Q1/);
  });

  it('a Last-Modified dates the release only when plausible: not over a day ahead of the fetch, not before its period ends', async () => {
    const { remote } = REMOTES.find((r) => r.remote.file === FHFA_FILE) ?? assert.fail('no FHFA remote');
    const body = fhfaNextQuarter(readFileSync(join(FIXTURES_DIR, FHFA_FILE), 'utf8')); // 2026 Q3, which ends on 2026-09-30
    const now = new Date('2026-12-01T09:00:00Z');
    const released = async (lastModified: string): Promise<string | undefined> => {
      serveNextFhfaRelease();
      replay.replies.set(target(remote.url), { kind: 'file', body, lastModified });
      cpSync(FIXTURES_DIR, dir, { recursive: true });
      lines.length = 0;
      await fetchSources(options({ only: ['fhfa-hpi'], now: () => now }));
      const retrieval = JSON.parse(readFileSync(join(dir, 'fhfa-hpi', 'retrieval.json'), 'utf8')) as {
        latestReleaseDate?: string;
        files: { lastModified?: string }[];
      };
      assert.equal(retrieval.files[0]?.lastModified, retrieval.latestReleaseDate === undefined ? undefined : lastModified);
      return retrieval.latestReleaseDate;
    };
    assert.equal(await released('Tue, 24 Nov 2026 14:00:00 GMT'), '2026-11-24');
    // Within the day of clock skew allowed.
    assert.equal(await released('Tue, 01 Dec 2026 20:00:00 GMT'), '2026-12-01');
    assert.equal(await released('Wed, 30 Sep 2026 10:00:00 GMT'), '2026-09-30');
    // Implausible: ignored and said; a new vintage then has no release date (the old one dated another vintage).
    for (const [header, why] of [
      ['Thu, 01 Jan 2099 00:00:00 GMT', 'is after the time of the fetch (2026-12-01T09:00:00.000Z), by more than a day'],
      ['Thu, 03 Dec 2026 09:00:01 GMT', 'is after the time of the fetch (2026-12-01T09:00:00.000Z), by more than a day'],
      ['Tue, 29 Sep 2026 23:59:59 GMT', 'is before the end of the period the file covers (2026 Q3, ending 2026-09-30)'],
      ['yesterday', 'is not an HTTP date'],
    ] as const) {
      assert.equal(await released(header), undefined, header);
      assert.ok(
        lines.includes(`market-profiles: fetch: fhfa-hpi: ${FHFA_FILE}: Last-Modified "${header}" ${why}; ignored, it dates no release`),
        lines.join('\n'),
      );
    }
  });

  it('a dry run downloads and checks everything, prints the changes, and writes nothing', async () => {
    const before = snapshot(dir);
    const report = await fetchSources(options({ dryRun: true }));
    assert.equal(report.ok, true);
    assert.equal(report.written, false);
    assert.deepEqual(snapshot(dir), before);
    assert.ok(
      lines.some((l) => /dry run/.test(l)),
      'lines.some((l) => /dry run/.test(l))',
    );
    assert.equal(replay.seen.length, REMOTES.length);
  });

  it('--source fetches one source only', async () => {
    await fetchSources(options({ only: ['fhfa-hpi'], dryRun: true }));
    const fhfa = WORLD_SOURCES.find((a) => a.sourceId === 'fhfa-hpi');
    assert.deepEqual(
      replay.seen,
      fhfa?.remote.map((r) => target(r.url)),
    );
    await assert.rejects(fetchSources(options({ only: ['no-such-source'] })), {
      name: 'ConfigError',
      message: '--source must be one of census-acs-5yr, census-bps, fhfa-hpi, got "no-such-source"',
    });
    await assert.rejects(fetchSources(options({ only: ['census_bps'] })), {
      name: 'ConfigError',
      message: '--source must be one of census-acs-5yr, census-bps, fhfa-hpi, got "census_bps"; did you mean census-bps?',
    });
  });

  it('a 503 is tried again, and the second answer is used', async () => {
    const first = REMOTES[0];
    assert.ok(first !== undefined, 'first !== undefined');
    replay.replies.set(target(first.remote.url), { kind: 'flaky', failures: 1, body: readFileSync(join(FIXTURES_DIR, first.remote.file)) });
    const report = await fetchSources(options());
    assert.equal(report.written, true);
    assert.equal(replay.seen.filter((s) => s === target(first.remote.url)).length, 2);
  });

  it('an answer another attempt would not change (404, HTML, empty, over the size limit) is asked for once', async () => {
    const { remote } = REMOTES[0] ?? assert.fail('no remote file');
    const finals: [Reply, RegExp][] = [
      [{ kind: 'status', status: 404 }, /answered 404, not 200$/],
      [{ kind: 'html' }, /HTML page/],
      [{ kind: 'file', body: '' }, /the answer is empty$/],
      [{ kind: 'file', body: readFileSync(join(FIXTURES_DIR, remote.file)) }, /the answer (declares \d+ bytes, more than|is larger than) the limit of 100/],
    ];
    for (const [reply, message] of finals) {
      replay.seen.length = 0;
      replay.replies.set(target(remote.url), reply);
      // The first source alone: with a limit of 100 bytes, every other source's files are over it too.
      assert.match((await failed(options({ only: ['census-acs-5yr'], maxBytes: 100 }))).message, message);
      assert.equal(replay.seen.filter((s) => s === target(remote.url)).length, 1, String(message));
    }
  });

  it('a 429, a 408 or any 5xx is asked for again, as a reset is; another status is not, and only a 200 is data', async () => {
    const { remote } = REMOTES[0] ?? assert.fail('no remote file');
    for (const status of [429, 408, 503, 599]) {
      replay.seen.length = 0;
      replay.replies.set(target(remote.url), { kind: 'status', status });
      assert.match((await failed(options())).message, new RegExp(`answered ${status} \\(after 2 attempts\\)$`));
      assert.equal(replay.seen.filter((s) => s === target(remote.url)).length, 2, String(status));
    }
    // Any other status is final, a 2xx other than 200 among them (a part of the file is not the file).
    for (const status of [203, 206, 499]) {
      replay.seen.length = 0;
      replay.replies.set(target(remote.url), { kind: 'status', status });
      assert.match((await failed(options())).message, new RegExp(`answered ${status}, not 200$`));
      assert.equal(replay.seen.filter((s) => s === target(remote.url)).length, 1, String(status));
    }
  });

  it('the size limit: a body of exactly the limit is read, one byte more is refused, its length declared or not', async () => {
    const fhfa = REMOTES.find((r) => r.remote.file === FHFA_FILE) ?? assert.fail('no FHFA remote');
    const body = readFileSync(join(FIXTURES_DIR, fhfa.remote.file));
    const only = { only: ['fhfa-hpi'], dryRun: true };
    for (const declared of [true, false]) {
      replay.replies.set(target(fhfa.remote.url), { kind: 'file', body, declared });
      const report = await fetchSources(options({ ...only, maxBytes: body.length }));
      assert.equal(report.ok, true, `declared: ${declared}`);
      assert.match(
        (await failed(options({ ...only, maxBytes: body.length - 1 }))).message,
        new RegExp(
          declared
            ? `the answer declares ${body.length} bytes, more than the limit of ${body.length - 1}$`
            : `the answer is larger than the limit of ${body.length - 1} bytes$`,
        ),
      );
    }
  });

  it('an HTML page is refused by its type or by its first bytes', async () => {
    // FHFA's file: a source without a credential, so the message ends with the reason (the ACS adds where to get a key).
    const { remote } = REMOTES.find((r) => r.adapter.sourceId === 'fhfa-hpi') ?? assert.fail('no FHFA remote');
    const replies: [Reply, string][] = [
      [{ kind: 'file', body: 'not markup at all\n', type: 'text/html' }, 'text/html'],
      [{ kind: 'file', body: '\n  <!doctype html><title>Moved</title>', type: 'text/csv' }, 'text/csv'],
      [{ kind: 'file', body: '<HTML><body>Down</body></HTML>', type: 'application/octet-stream' }, 'application/octet-stream'],
    ];
    for (const [reply, type] of replies) {
      replay.replies.set(target(remote.url), reply);
      assert.match((await failed(options())).message, new RegExp(`: the answer is an HTML page \\(${type.replace('/', '\\/')}\\), not the data file$`));
    }
  });

  const failures: [string, (body: Buffer) => Reply, RegExp][] = [
    ['a 500 on every attempt', () => ({ kind: 'status', status: 500 }), /answered 500 \(after 2 attempts\)/],
    ['a 404', () => ({ kind: 'status', status: 404 }), /answered 404, not 200/],
    ['an HTML page instead of the data', () => ({ kind: 'html' }), /HTML page/],
    ['a truncated body', (body) => ({ kind: 'truncated', body }), /truncated|terminated|closed|socket/i],
    ['an answer slower than the timeout', () => ({ kind: 'silent' }), /no complete answer within 300 ms/],
    ['an empty file', () => ({ kind: 'file', body: '' }), /empty/],
    ['a file the adapter cannot read', () => ({ kind: 'file', body: 'this is not the agency file\n' }), /the download does not pass the build's checks: /],
  ];
  for (const [shape, reply, message] of failures) {
    for (const { adapter, remote } of REMOTES) {
      it(`${shape} from ${adapter.sourceId} (${remote.file}): one line naming the source and why, the address with --verbose; its fixtures untouched, the others fetched`, async () => {
        replay.replies.set(target(remote.url), reply(readFileSync(join(FIXTURES_DIR, remote.file))));
        const before = snapshot(dir, adapter.sourceId);
        // A short timeout only where the timeout is what is tested: the silent answer never comes, so it always fires.
        const timeoutMs = reply(Buffer.alloc(0)).kind === 'silent' ? 300 : 600_000;
        const report = await fetchSources(options({ timeoutMs }));
        assert.equal(report.ok, false);
        const [error, ...more] = report.failures;
        assert.ok(error !== undefined && more.length === 0, report.failures.join('\n'));
        assert.equal(error.sourceId, adapter.sourceId);
        // The error (what --verbose prints) names the address; the source's line says why without it.
        assert.ok(
          error.message.includes(remote.url.replace(/^https:\/\/[^/]+/, replay.origin)) || error.message.includes(new URL(remote.url).pathname),
          error.message,
        );
        assert.match(error.message, message);
        assert.match(error.outcome, message);
        assert.ok(lines.includes(`${adapter.sourceId}: ${error.outcome}`), lines.join('\n'));
        for (const line of lines) assert.ok(!line.includes(replay.origin) && !line.includes(new URL(remote.url).pathname), line);
        assert.deepEqual(snapshot(dir, adapter.sourceId), before);
        // Every other source was fetched, checked and written.
        const others = WORLD_SOURCES.filter((s) => s !== adapter).map((s) => s.sourceId);
        assert.deepEqual(
          report.sources.map((s) => s.sourceId),
          others,
        );
        for (const id of others) {
          const retrieval = JSON.parse(readFileSync(join(dir, id, 'retrieval.json'), 'utf8')) as { files: { retrievedAt: string }[] };
          assert.equal(retrieval.files[0]?.retrievedAt, '2026-10-06T12:00:00.000Z', id);
        }
      });
    }
  }

  it('a fetch of a newer release followed by a build needs no hand edit: snapshot, as-of periods, release dates and freshness follow the files', async () => {
    // FHFA's file one quarter on: every series gains a 2026 Q3 row, 1 % above its 2026 Q2 index, after its last row.
    serveNextFhfaRelease('Tue, 24 Nov 2026 14:00:00 GMT');
    await fetchSources(options({ now: () => new Date('2026-12-01T09:00:00Z') }));
    assert.ok(lines.includes('fhfa-hpi: fetched 2026 Q3, 2 files, 32 values changed'), lines.join('\n'));
    assert.ok(
      lines.includes('  us-tx-austin homePriceIndex 506.31 → 511.37 (2026 Q2 → 2026 Q3)'),
      'fetch prints the change, market by market, under its source',
    );
    const table = buildWorld({ baseUrl: 'http://localhost:3000', read: fixturesOnDisk(dir) });
    const austin = JSON.parse(table.routes.get('/api/markets/us-tx-austin')?.identity.body.toString() ?? '{}') as MarketProfile;
    assert.equal(austin.generatedAt, '2026-12-01');
    assert.deepEqual(
      { value: austin.profile.metrics['homePriceIndex']?.value, asOf: austin.profile.metrics['homePriceIndex']?.asOf },
      { value: 511.37, asOf: '2026 Q3' },
    );
    assert.equal(austin.profile.metrics['homePriceChange']?.asOf, '2025 Q3 to 2026 Q3');
    const source = austin.sources.find((x) => x.sourceId === 'fhfa-hpi');
    assert.equal(source?.latestReleaseDate, '2026-11-24');
    assert.equal(source?.latestRetrievedAt, '2026-12-01');
    assert.match(source?.datasetName ?? '', /through 2026 Q3/);
    // The ACS and BPS files did not change and their answers carry no date: the recorded release dates stay.
    assert.equal(austin.sources.find((x) => x.sourceId === 'census-acs-5yr')?.latestReleaseDate, '2026-01-29');
    // FHFA's new quarter is fresh; the profile is as fresh as its oldest source, BPS's 2024 file (released 2025-05-01).
    assert.match(austin.profile.freshness.note ?? '', /fhfa-hpi \(quarterly\) released 2026-11-24, 7 days before the snapshot: fresh/);
    assert.match(austin.profile.freshness.note ?? '', /census-bps \(annually\) released 2025-05-01, 579 days before the snapshot: aging/);
    assert.equal(austin.profile.freshness.freshness, 'aging');
  });

  it("a source the network cannot reach is one line with the network's code; the sources after it are still fetched and written", async () => {
    const bps = WORLD_SOURCES.find((a) => a.sourceId === 'census-bps') ?? assert.fail('no BPS');
    const unreachable = new Set(bps.remote.map((r) => new URL(r.url).pathname));
    // No connection to BPS's host (as undici reports a refused connection); every other address is answered by the replay server.
    const offline: typeof globalThis.fetch = async (input, init) => {
      const url = new URL(String(input));
      if (unreachable.has(url.pathname)) {
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 192.0.2.1:443'), { code: 'ECONNREFUSED' }) });
      }
      const answer = await globalThis.fetch(`${replay.origin}${url.pathname}${url.search}`, init);
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    };
    const before = snapshot(dir, 'census-bps');
    const report = await fetchSources({ ...options({ fetch: offline }), upstream: undefined });
    assert.equal(report.ok, false);
    assert.deepEqual(lines, [
      'census-acs-5yr: fetched 2020-2024, 5 files, unchanged',
      'fhfa-hpi: fetched 2026 Q2, 2 files, unchanged',
      'census-bps: could not reach the agency (ECONNREFUSED)',
      `market-profiles: fetch: wrote 9 files to ${dir}/`,
      'market-profiles: fetch: 1 of 3 sources failed (census-bps); its fixtures were left as they were (--verbose names each address)',
    ]);
    assert.deepEqual(snapshot(dir, 'census-bps'), before);
    // Through a mirror, the line names the mirror.
    lines.length = 0;
    await fetchSources(options({ fetch: offline, only: ['census-bps'] }));
    assert.deepEqual(lines, [
      `census-bps: could not reach ${replay.origin} (ECONNREFUSED)`,
      'market-profiles: fetch: 1 of 1 source failed (census-bps); its fixtures were left as they were (--verbose names each address)',
    ]);
    // With --verbose, each retry and the failure name the address.
    lines.length = 0;
    await fetchSources(options({ fetch: offline, only: ['census-bps'], verbose: true }));
    const address = addressOf(bps.remote[0] ?? assert.fail('no BPS file'), bps, { upstream: replay.origin });
    assert.deepEqual(lines, [
      `market-profiles: fetch: census-bps: ${address}: fetch failed (ECONNREFUSED); trying again`,
      `census-bps: could not reach ${replay.origin} (ECONNREFUSED)`,
      `market-profiles: fetch: census-bps: ${address}: fetch failed (ECONNREFUSED) (after 2 attempts)`,
      'market-profiles: fetch: 1 of 1 source failed (census-bps); its fixtures were left as they were',
    ]);
  });

  it('the command: one line per source, the failed one on stderr, exit code 1, the others written; --verbose adds the addresses; 0 on success', async () => {
    const { adapter, remote } = REMOTES[0] ?? assert.fail('no remote file');
    assert.equal(remote.file, 'census-acs-5yr/acs5-2024-detailed-place.json');
    replay.replies.set(target(remote.url), { kind: 'status', status: 404 });
    const before = snapshot(dir, adapter.sourceId);
    const failing = await captureOutput(() =>
      main(['fetch', '--fixtures', dir, '--upstream', replay.origin, '--fetch-timeout-ms', '2000'], {}, runnersFor(WORLD_INPUTS)),
    );
    assert.equal(failing.value, 1);
    assert.equal(
      failing.out,
      `fhfa-hpi: fetched 2026 Q2, 2 files, unchanged\ncensus-bps: fetched 2024, 4 files, unchanged\nmarket-profiles: fetch: wrote 8 files to ${dir}/\n`,
    );
    assert.equal(
      failing.err,
      'census-acs-5yr: failed: acs5-2024-detailed-place.json: the server answered 404, not 200\n' +
        'market-profiles: fetch: 1 of 3 sources failed (census-acs-5yr); its fixtures were left as they were (--verbose names each address)\n',
    );
    assert.deepEqual(snapshot(dir, adapter.sourceId), before);

    const verbose = await captureOutput(() =>
      main(['fetch', '--fixtures', dir, '--upstream', replay.origin, '--dry-run', '--verbose'], {}, runnersFor(WORLD_INPUTS)),
    );
    assert.equal(verbose.value, 1);
    const address = addressOf(remote, adapter, { upstream: replay.origin });
    assert.equal(
      verbose.err,
      'census-acs-5yr: failed: acs5-2024-detailed-place.json: the server answered 404, not 200\n' +
        `market-profiles: fetch: census-acs-5yr: ${address}: the server answered 404, not 200\n` +
        'market-profiles: fetch: 1 of 3 sources failed (census-acs-5yr); its fixtures were left as they were\n',
    );
    const fhfa = REMOTES.filter((r) => r.adapter.sourceId === 'fhfa-hpi');
    const bytesOf = (file: string): number => readFileSync(join(FIXTURES_DIR, file)).length;
    assert.ok(
      verbose.out.startsWith(
        `${fhfa.map((r) => `fhfa-hpi: ${addressOf(r.remote, r.adapter, { upstream: replay.origin })}: ${bytesOf(r.remote.file)} bytes\n`).join('')}fhfa-hpi: fetched 2026 Q2, 2 files, unchanged\n`,
      ),
      verbose.out,
    );
    assert.match(verbose.out, /\nmarket-profiles: fetch: dry run, 8 files not written\n$/);

    serveFixtures();
    const succeeding = await captureOutput(() => main(['fetch', '--fixtures', dir, '--upstream', replay.origin, '--dry-run'], {}, runnersFor(WORLD_INPUTS)));
    assert.equal(succeeding.value, 0);
    assert.equal(succeeding.err, '');
    assert.equal(
      succeeding.out,
      'census-acs-5yr: fetched 2020-2024, 5 files, unchanged\nfhfa-hpi: fetched 2026 Q2, 2 files, unchanged\ncensus-bps: fetched 2024, 4 files, unchanged\nmarket-profiles: fetch: dry run, 14 files not written\n',
    );
  });
});
