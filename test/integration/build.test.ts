// The build stops on bad fixtures with the file, place and reason, leaves dist/ untouched, is deterministic, and keeps pages from growing with the market count.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import { artifactFiles, writeArtifact } from '../../src/artifact/write.ts';
import { synthetic } from '../support/upstream/index.ts';
import { builtOrBuild, main, runnersFor } from '../../src/commands/cli.ts';
import { loadConfig } from '../../src/commands/config.ts';
import { readArchive } from '../../src/archive/archive.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { ContractError, DataError } from '../../src/contract/errors.ts';
import { CHART_MARKET_LIMIT } from '../../src/render/pages/chart-parts.ts';
import { MAX_FIXTURE_BYTES, fixturesOnDisk } from '../../src/sources/load.ts';
import type { SourceModule, SourceLoad } from '../../src/sources/source.ts';
import { FIXTURES_DIR, FIXTURE_FILES, buildTable, fixtureReader } from '../support/data.ts';
import { WORLD_INPUTS, buildWorld, copyWorldArchive } from '../world/world.ts';
import { WORLD_SOURCES } from '../world/world.ts';

const ACS = 'census-acs-5yr/acs5-2024-detailed-place.json';
const ACS_STATES = 'census-acs-5yr/acs5-2024-detailed-state.json';
const FHFA = 'fhfa-hpi/hpi_at_metro.csv';
const BPS_WEST = 'census-bps/we2024a.txt';
const BPS_NORTHEAST = 'census-bps/ne2024a.txt';

/** Replaces the first occurrence, failing loudly if the fixture no longer has the text the case relies on. */
const replace =
  (from: string | RegExp, to: string) =>
  (text: string): string => {
    const out = text.replace(from, to);
    assert.notEqual(out, text, `fixture edit found nothing to replace: ${String(from)}`);
    return out;
  };

/** The 1-based line of the committed fixture on which `needle` first appears: where an error about that row must point. */
function lineOf(file: string, needle: string): number {
  const index = (FIXTURE_FILES.get(file) ?? '').split('\n').findIndex((line) => line.includes(needle));
  assert.ok(index >= 0, `${file} has no line with ${needle}`);
  return index + 1;
}
const lineCount = (file: string): number => (FIXTURE_FILES.get(file) ?? '').split('\n').filter((l) => l.trim() !== '').length;

const ACS_AUSTIN = lineOf(ACS, '"Austin city, Texas"');
const ACS_TEXAS = lineOf(ACS_STATES, '"Texas"');
const FHFA_AUSTIN_2026_Q2 = lineOf(FHFA, '"Austin-Round Rock-San Marcos, TX",12420,2026,2,');
const BPS_PHOENIX = lineOf(BPS_WEST, ',Phoenix,');
const BPS_BRONX = lineOf(BPS_NORTHEAST, ',Bronx borough,');

interface Case {
  name: string;
  file: string;
  edit: (text: string) => string;
  code: string;
  /** Text the message must contain: the place (line, column or pointer) and the reason. */
  message: RegExp[];
}

const at = (file: string, line: number): RegExp => new RegExp(`${file.replaceAll('.', '\\.')}:${line}\\b`);

const cases: Case[] = [
  {
    name: 'a missing field (ACS header lacks a variable)',
    file: ACS,
    edit: replace('"B25064_001E",', ''),
    code: 'missing_field',
    message: [at(ACS, 1), /B25064_001E/, /header has no/],
  },
  {
    name: 'a missing field (empty BPS place name)',
    file: BPS_WEST,
    edit: replace(',12,Phoenix,', ',12,,'),
    code: 'missing_field',
    message: [at(BPS_WEST, BPS_PHOENIX), /Place Name/],
  },
  {
    name: 'a non-numeric value (ACS rent)',
    file: ACS,
    edit: replace('"1729"', '"1,729"'),
    code: 'not_numeric',
    message: [at(ACS, ACS_AUSTIN), /B25064_001E/, /"1,729"/],
  },
  {
    name: 'a non-numeric value (FHFA index)',
    file: FHFA,
    edit: replace(',12420,2026,2,506.31,', ',12420,2026,2,n/a,'),
    code: 'not_numeric',
    message: [at(FHFA, FHFA_AUSTIN_2026_Q2), /index/, /"n\/a"/],
  },
  {
    name: "a duplicate row (ACS market's state)",
    file: ACS_STATES,
    edit: (t) => t.replace(/\]\s*$/, `,\n${(t.split('\n')[ACS_TEXAS - 1] ?? '').replace(/,$/, '')}\n]\n`),
    code: 'duplicate_row',
    message: [/acs5-2024-detailed-state\.json:\d+/, new RegExp(`first is on line ${ACS_TEXAS}\\b`)],
  },
  {
    name: 'a wrong column set (an ACS row shorter than the header)',
    file: ACS_STATES,
    edit: replace(/("Texas",)"[^"]*",/, '$1'),
    code: 'bad_shape',
    message: [at(ACS_STATES, ACS_TEXAS), /header names \d+ columns/],
  },
  {
    name: 'a duplicate row (FHFA quarter)',
    file: FHFA,
    edit: (t) => `${t}${t.split('\n')[FHFA_AUSTIN_2026_Q2 - 1]}\n`,
    code: 'duplicate_row',
    message: [at(FHFA, lineCount(FHFA) + 1), new RegExp(`first is on line ${FHFA_AUSTIN_2026_Q2}\\b`)],
  },
  {
    name: 'a duplicate row (BPS place)',
    file: BPS_WEST,
    edit: (t) => `${t}${t.split('\n')[BPS_PHOENIX - 1]}\n`,
    code: 'duplicate_row',
    message: [at(BPS_WEST, lineCount(BPS_WEST) + 2), new RegExp(`first is on ${BPS_WEST.replaceAll('.', '\\.')}:${BPS_PHOENIX}\\b`)],
  },
  {
    name: 'a New York City row in a county that is not a borough (BPS)',
    file: BPS_NORTHEAST,
    edit: replace(/2024,36,082500,005,/, '2024,36,082500,059,'),
    code: 'bad_shape',
    message: [at(BPS_NORTHEAST, BPS_BRONX), /county 059/, /not one of the 5/],
  },
  {
    name: 'a formula in a text field: leading =',
    file: ACS,
    edit: replace('"Austin city, Texas"', '"=HYPERLINK(\\"http://x\\")"'),
    code: 'formula_text',
    message: [at(ACS, ACS_AUSTIN), /NAME/, /formula/],
  },
  {
    name: 'a formula in a text field: leading +',
    file: FHFA,
    edit: replace('"Austin-Round Rock-San Marcos, TX",12420,2026,2,', '"+Austin",12420,2026,2,'),
    code: 'formula_text',
    message: [at(FHFA, FHFA_AUSTIN_2026_Q2), /name/],
  },
  {
    name: 'a formula in a text field: leading -',
    file: BPS_WEST,
    edit: replace(',12,Phoenix,', ',12,-Phoenix,'),
    code: 'formula_text',
    message: [at(BPS_WEST, BPS_PHOENIX), /Place Name/],
  },
  {
    name: 'a formula in a text field: leading @',
    file: ACS_STATES,
    edit: replace(/"Texas"/, '"@SUM(A1)"'),
    code: 'formula_text',
    message: [at(ACS_STATES, ACS_TEXAS), /NAME/],
  },
  { name: 'malformed JSON', file: ACS, edit: (t) => t.slice(0, -5), code: 'bad_shape', message: [/acs5-2024-detailed-place\.json/, /not valid JSON/] },
  {
    name: 'a row with the wrong number of columns',
    file: BPS_WEST,
    edit: replace(',12,Phoenix,', ',12,Phoenix,extra,'),
    code: 'bad_shape',
    message: [at(BPS_WEST, BPS_PHOENIX), /expected 41 fields, got 42/],
  },
  {
    name: 'an HTML page in place of a BPS file',
    file: BPS_NORTHEAST,
    edit: () => '<!DOCTYPE html>\n<html><body>Not Found</body></html>\n',
    code: 'bad_shape',
    message: [at(BPS_NORTHEAST, 1), /header/],
  },
];

describe('bad fixtures stop the build with file, place and reason', () => {
  for (const c of cases) {
    test(c.name, () => {
      assert.throws(
        () => buildTable(undefined, fixtureReader({ [c.file]: c.edit })),
        (error: unknown) => {
          assert.ok(error instanceof DataError, String(error));
          assert.equal(error.code, c.code);
          assert.equal(error.place.file, c.file);
          for (const pattern of c.message) assert.match(error.message, pattern);
          return true;
        },
      );
    });
  }
});

/** The artifact's files from a build of the committed fixtures, made once for the tests that only read them. */
let built: ReadonlyMap<string, Buffer> | undefined;
const builtFiles = (): ReadonlyMap<string, Buffer> => (built ??= artifactFiles(buildTable()));

/** A fingerprint of every file under a folder: path and sha256. */
function treeHash(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(`${relative(dir, path)}\0`).update(readFileSync(path));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/** The command line on the test world: its markets and sources, whatever the registry holds besides. */
const WORLD_RUNNERS = runnersFor(WORLD_INPUTS);

/** A temporary folder for a suite, removed after it: a copy of the world's fixtures and archive, and where its dist/ goes. */
function workFolder(prefix: string): { work: string; fixtures: string; archive: string; out: string; inputs: string[] } {
  const work = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(work, { recursive: true, force: true }));
  const fixtures = join(work, 'fixtures');
  const archive = join(work, 'archive');
  cpSync(FIXTURES_DIR, fixtures, { recursive: true });
  copyWorldArchive(archive);
  return { work, fixtures, archive, out: join(work, 'dist'), inputs: ['--fixtures', fixtures, '--archive', archive] };
}

describe('the build command writes atomically', () => {
  const { work, fixtures, out, inputs } = workFolder('mp-build-');
  const quiet = { ...process.env, BASE_URL: 'http://localhost:3000' };

  test('a good build writes dist/ with a manifest and every route', async () => {
    const code = await main(['build', ...inputs, '--out', out], quiet, WORLD_RUNNERS);
    assert.equal(code, 0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { routes: { path: string }[] };
    assert.ok(
      manifest.routes.some((r) => r.path === '/api/markets/us-tx-austin/csv'),
      "manifest.routes.some((r) => r.path === '/api/markets/us-tx-austin/csv')",
    );
    assert.ok(
      statSync(join(out, 'site/api/markets/us-tx-austin/index.json')).isFile(),
      "statSync(join(out, 'site/api/markets/us-tx-austin/index.json')).isFile()",
    );
    assert.ok(
      statSync(join(out, 'site/api/markets/us-tx-austin/csv/index.csv')).isFile(),
      "statSync(join(out, 'site/api/markets/us-tx-austin/csv/index.csv')).isFile()",
    );
  });

  const atomicCases = [
    'a missing field (ACS header lacks a variable)',
    'a missing field (empty BPS place name)',
    'a non-numeric value (FHFA index)',
    'a duplicate row (BPS place)',
    'a formula in a text field: leading =',
  ].map((name) => cases.find((c) => c.name === name) as Case);
  for (const c of atomicCases) {
    test(`after ${c.name}: exit code 1, a message naming the file, dist/ unchanged`, async () => {
      // refusedBuild asserts exit code 1, dist/ unchanged and no temporary folder left behind.
      const printed = await refusedBuild(c.file, (path, original) => writeFileSync(path, c.edit(original.toString('utf8'))));
      assert.match(printed, new RegExp(c.file.replaceAll('.', '\\.')));
      assert.match(printed, /previous output was left as it was/);
    });
  }

  /** Runs `build` over the fixtures with one file's bytes changed, and returns what it printed; the file is put back. */
  async function refusedBuild(file: string, change: (path: string, original: Buffer) => void): Promise<string> {
    const before = treeHash(out);
    const path = join(fixtures, file);
    const original = readFileSync(path);
    change(path, original);
    const errors: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => (errors.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      assert.equal(await main(['build', ...inputs, '--out', out], quiet, WORLD_RUNNERS), 1);
    } finally {
      process.stderr.write = write;
      writeFileSync(path, original);
    }
    assert.equal(treeHash(out), before, 'the previous output is as it was');
    assert.deepEqual(readdirSync(work).sort(), ['archive', 'dist', 'fixtures'], 'no temporary folder left behind');
    return errors.join('');
  }

  test('a fixture that is not valid UTF-8 is refused with its line and column, not published as U+FFFD', async () => {
    // A place name saved as Latin-1: "San Márcos" with the single byte 0xE1.
    const line = lineOf(FHFA, 'Austin-Round Rock-San Marcos');
    const printed = await refusedBuild(FHFA, (path, original) => {
      const at = original.indexOf('San Marcos');
      writeFileSync(path, Buffer.concat([original.subarray(0, at + 5), Buffer.from([0xe1]), original.subarray(at + 6)]));
    });
    const column = (FIXTURE_FILES.get(FHFA) ?? '').split('\n')[line - 1]?.indexOf('San Marcos') ?? -1;
    assert.match(printed, new RegExp(`${FHFA.replaceAll('.', '\\.')}:${line}: not valid UTF-8: byte 0xE1 at column ${column + 6} `));
    assert.match(printed, /previous output was left as it was/);
  });

  test("a byte-order mark before FHFA's first row is refused, not taken for a header (which dropped Austin's row)", async () => {
    const printed = await refusedBuild(FHFA, (path, original) => writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), original])));
    assert.match(printed, new RegExp(`${FHFA.replaceAll('.', '\\.')}:1: starts with a UTF-8 byte-order mark \\(EF BB BF\\)`));
  });

  test('a fixture larger than the download limit is refused from its size alone, before a byte of it is read', async () => {
    // A sparse file one byte over the limit: the refusal comes from stat, so no memory or disk is spent on it.
    const printed = await refusedBuild(BPS_WEST, (path) => truncateSync(path, MAX_FIXTURE_BYTES + 1));
    assert.match(
      printed,
      new RegExp(`${BPS_WEST.replaceAll('.', '\\.')}: the file is ${MAX_FIXTURE_BYTES + 1} bytes, more than the ${MAX_FIXTURE_BYTES} bytes a source may hold`),
    );
  });

  test('a failure while writing leaves the previous output as it was', async () => {
    const before = treeHash(out);
    const files = new Map(builtFiles());
    files.set('site/api/markets/us-tx-austin/index.json/impossible', Buffer.from('x'));
    await assert.rejects(writeArtifact(files, out));
    assert.equal(treeHash(out), before);
    assert.deepEqual(readdirSync(work).sort(), ['archive', 'dist', 'fixtures']);
  });
});

test('determinism: two builds give identical bytes for every file', () => {
  const first = builtFiles();
  const second = artifactFiles(buildTable());
  assert.deepEqual([...first.keys()].sort(), [...second.keys()].sort());
  for (const [path, bytes] of first) assert.ok(bytes.equals(second.get(path) ?? Buffer.alloc(0)), path);
});

describe('a profile that breaks the published contract stops the build', () => {
  const broken = (change: (load: SourceLoad) => void): SourceModule[] =>
    WORLD_SOURCES.map((adapter) =>
      adapter.sourceId !== 'fhfa-hpi'
        ? adapter
        : {
            ...adapter,
            load: (read, markets) => {
              const load = adapter.load(read, markets);
              change(load);
              return load;
            },
          },
    );
  const build = (adapters: SourceModule[]): unknown => buildWorld({ baseUrl: 'http://localhost:3000', sources: adapters });

  test('a source URL that is not absolute: market id, JSON pointer and reason', () => {
    assert.throws(
      () =>
        build(
          broken((l) => {
            l.source.sourceUrl = 'fhfa.gov/hpi';
          }),
        ),
      (error: unknown) => {
        assert.ok(error instanceof ContractError, 'error instanceof ContractError');
        assert.equal(error.place.marketId, 'us-az-phoenix');
        assert.equal(error.place.pointer, '/sources/2/sourceUrl');
        assert.match(error.message, /market us-az-phoenix/);
        assert.match(error.message, /must match format "uri"|must match pattern/);
        return true;
      },
    );
  });
  test('a value that is not a finite number is refused at load, naming the market and the fixture line', () => {
    assert.throws(
      () =>
        build(
          broken((l) => {
            const austin = l.observations.find((o) => o.marketId === 'us-tx-austin' && o.metricId === 'homePriceIndex');
            assert.ok(austin, 'austin');
            austin.value = Number.NaN;
          }),
        ),
      (error: unknown) => {
        assert.ok(error instanceof DataError, 'error instanceof DataError');
        assert.equal(error.code, 'out_of_range');
        assert.deepEqual(error.place, { file: FHFA, line: FHFA_AUSTIN_2026_Q2, marketId: 'us-tx-austin', column: 'homePriceIndex' });
        assert.equal(error.reason, "homePriceIndex is NaN, outside the metric's range (from 1 to 10000 index)");
        return true;
      },
    );
  });
});

describe('scale: a page does not grow with the number of markets', () => {
  // The footer lists no markets (the home page's table does), and past CHART_MARKET_LIMIT a band stands for the other
  // markets on each strip, so each market page keeps its size and the build stays linear (npm run bench:build measures the time).
  const marketPage = (n: number): { html: string; count: number } => {
    const table = buildWorld({ baseUrl: 'http://localhost:3000', ...synthetic(n) });
    const id = table.marketIds[0] ?? '';
    return { html: table.routes.get(`/markets/${id}`)?.identity.body.toString('utf8') ?? '', count: table.marketIds.length };
  };
  const small = marketPage(CHART_MARKET_LIMIT + 8);
  const large = marketPage(4 * CHART_MARKET_LIMIT);

  test('the same market page is the same size with four times the markets, numbers aside', () => {
    // The page places the market among all the others (ranks, quartiles), so its numbers change with the set of
    // markets; its shape must not: numbers are masked before the sizes are compared.
    const shape = (html: string): string => html.replace(/\d[\d,.]*/g, '#');
    assert.equal(large.count, 4 * CHART_MARKET_LIMIT);
    assert.ok(small.html.length > 0, 'small.html.length > 0');
    assert.ok(
      Math.abs(shape(large.html).length - shape(small.html).length) <= 16,
      `${shape(small.html).length} vs ${shape(large.html).length} characters with numbers masked`,
    );
    assert.ok(Math.abs(large.html.length - small.html.length) <= small.html.length / 100, `${small.html.length} vs ${large.html.length} bytes`);
  });

  test('past the chart limit each other market is no longer a tick of its own: a band over the middle half stands for them', () => {
    assert.ok(small.count > CHART_MARKET_LIMIT, 'small.count > CHART_MARKET_LIMIT');
    for (const { html } of [small, large]) {
      const strips = [...html.matchAll(/<svg class="strip"[\s\S]*?<\/svg>/g)].map((m) => m[0]);
      assert.ok(strips.length > 0, 'the strips are drawn');
      // Per strip: the market's own dot, one band, and the line itself.
      for (const strip of strips) {
        assert.equal((strip.match(/<circle /g) ?? []).length, 1);
        assert.equal((strip.match(/<rect /g) ?? []).length, 1);
        assert.equal((strip.match(/<line /g) ?? []).length, 1);
      }
    }
  });

  test('no market page lists the other markets: the footer points to the home page instead', () => {
    assert.equal((large.html.match(/href="\/markets\//g) ?? []).length, 0, 'no market is linked from a market page');
    assert.ok(large.html.includes('<a href="/#compare">every market</a>'), 'the footer links the comparison');
  });
});

describe('serve loads the table a build wrote only when it was built from the same inputs', () => {
  const { fixtures, archive, out, inputs } = workFolder('mp-built-');
  const env = { ...process.env, BASE_URL: 'http://localhost:3000' };
  const argv = [...inputs, '--out', out];
  const fresh = (baseUrl: string): RouteTable => buildWorld({ baseUrl, read: fixturesOnDisk(fixtures), archive: readArchive(archive) });

  test('the same inputs: the table read from dist/ is the one a build makes, route for route and byte for byte', async () => {
    assert.equal(await main(['build', ...argv], env, WORLD_RUNNERS), 0);
    const got = await builtOrBuild(loadConfig(env, argv), WORLD_INPUTS);
    assert.match(got.from, /^the table of .*, built from the same inputs$/);
    assert.deepStrictEqual(got.table, fresh('http://localhost:3000'));
  });

  test('another BASE_URL: built afresh, its links name the new origin (never the stale bytes)', async () => {
    const other = { ...env, BASE_URL: 'https://data.example' };
    const got = await builtOrBuild(loadConfig(other, argv), WORLD_INPUTS);
    assert.match(got.from, /^built now/);
    assert.equal(got.table.baseUrl, 'https://data.example');
    assert.match(got.table.routes.get('/api/markets/us-tx-austin')?.identity.body.toString() ?? '', /https:\/\/data\.example\//);
  });

  test('one fixture byte changed: built afresh', async () => {
    const file = join(fixtures, ACS);
    const original = readFileSync(file);
    writeFileSync(file, Buffer.concat([original, Buffer.from(' ')])); // still the same JSON, another byte
    try {
      const got = await builtOrBuild(loadConfig(env, argv), WORLD_INPUTS);
      assert.match(got.from, /^built now/);
      assert.deepStrictEqual(got.table, fresh('http://localhost:3000'));
    } finally {
      writeFileSync(file, original);
    }
    assert.match(
      (await builtOrBuild(loadConfig(env, argv), WORLD_INPUTS)).from,
      /built from the same inputs/,
      'the original byte back: the build matches again',
    );
  });

  test('a body is read from dist/ when first asked for; a file replaced by one of another length since is refused by name', async () => {
    const got = await builtOrBuild(loadConfig(env, argv), WORLD_INPUTS);
    assert.match(got.from, /built from the same inputs/);
    const file = join(out, 'site/api/markets/us-tx-austin/csv/index.csv');
    const original = readFileSync(file);
    truncateSync(file, 10);
    try {
      const csv = got.table.routes.get('/api/markets/us-tx-austin/csv');
      assert.throws(() => csv?.identity.body, /api\/markets\/us-tx-austin\/csv\/index\.csv: 10 bytes on disk, the manifest says \d+; rebuild/);
    } finally {
      writeFileSync(file, original);
    }
    const json = got.table.routes.get('/api/markets/us-tx-austin')?.identity.body;
    assert.deepStrictEqual(json, fresh('http://localhost:3000').routes.get('/api/markets/us-tx-austin')?.identity.body);
  });

  test('a file of dist/ cut short: built afresh', async () => {
    truncateSync(join(out, 'site/api/markets/us-tx-austin/index.json'), 10);
    const got = await builtOrBuild(loadConfig(env, argv), WORLD_INPUTS);
    assert.match(got.from, /^built now/);
    assert.deepStrictEqual(got.table, fresh('http://localhost:3000'));
  });
});
