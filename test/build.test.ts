// The build stops on bad fixtures with the file, place and reason, leaves dist/ untouched, is deterministic, and keeps pages from growing with the market count.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import { artifactFiles, writeArtifact } from '../src/artifact.ts';
import { buildRouteTable } from '../src/build.ts';
import { synthetic } from '../bench/synthetic-markets.ts';
import { main } from '../src/cli.ts';
import { ContractError, DataError } from '../src/errors.ts';
import { FOOTER_MARKET_LIMIT } from '../src/render/pages/layout.tsx';
import { ADAPTERS } from '../src/sources/index.ts';
import type { SourceAdapter, SourceLoad } from '../src/sources/types.ts';
import { FIXTURES_DIR, buildTable, fixtureReader } from './support/data.ts';

const ACS = 'census-acs-5yr/acs5-2024-detailed-place.json';
const ACS_PROFILE = 'census-acs-5yr/acs5-2024-profile-place.json';
const FHFA = 'fhfa-hpi/HPI_AT_metro.csv';
const BPS = 'census-bps/place-annual-2025.txt';

/** Replaces the first occurrence, failing loudly if the fixture no longer has the text the case relies on. */
const replace =
  (from: string | RegExp, to: string) =>
  (text: string): string => {
    const out = text.replace(from, to);
    assert.notEqual(out, text, `fixture edit found nothing to replace: ${String(from)}`);
    return out;
  };

interface Case {
  name: string;
  file: string;
  edit: (text: string) => string;
  code: string;
  /** Text the message must contain: the place (line, column or pointer) and the reason. */
  message: RegExp[];
}

const cases: Case[] = [
  {
    name: 'a missing field (ACS header lacks a variable)',
    file: ACS,
    edit: replace('"B25064_001E",', ''),
    code: 'missing_field',
    message: [/census-acs-5yr\/acs5-2024-detailed-place\.json:2/, /B25064_001E/],
  },
  {
    name: 'a missing field (empty BPS place name)',
    file: BPS,
    edit: replace(',12,Phoenix,', ',12,,'),
    code: 'missing_field',
    message: [/census-bps\/place-annual-2025\.txt:3/, /Place Name/],
  },
  {
    name: 'a non-numeric value (ACS rent)',
    file: ACS,
    edit: replace('"1712"', '"1,712"'),
    code: 'not_numeric',
    message: [/acs5-2024-detailed-place\.json:3/, /pointer|at \/1/, /B25064_001E/, /"1,712"/],
  },
  {
    name: 'a non-numeric value (FHFA index)',
    file: FHFA,
    edit: replace(',2024,1,346.92,', ',2024,1,n/a,'),
    code: 'not_numeric',
    message: [/HPI_AT_metro\.csv:1/, /index/, /"n\/a"/],
  },
  {
    name: 'an unknown market code (FHFA CBSA)',
    file: FHFA,
    edit: replace(',12060,2024,1,', ',99999,2024,1,'),
    code: 'unknown_market_code',
    message: [/HPI_AT_metro\.csv:1/, /CBSA 99999/],
  },
  {
    name: 'an unknown market code (ACS place)',
    file: ACS_PROFILE,
    edit: replace('"05000"', '"05001"'),
    code: 'unknown_market_code',
    message: [/acs5-2024-profile-place\.json:3/, /place 05001/],
  },
  {
    name: 'a duplicate row (FHFA quarter)',
    file: FHFA,
    edit: (t) => t + t.split('\n')[0] + '\n',
    code: 'duplicate_row',
    message: [/HPI_AT_metro\.csv:161/, /first is on line 1/],
  },
  {
    name: 'a duplicate row (BPS place)',
    file: BPS,
    edit: (t) => t + t.split('\r\n')[2] + '\r\n',
    code: 'duplicate_row',
    message: [/place-annual-2025\.txt:23/, /first is on line 3/],
  },
  {
    name: 'a formula in a text field: leading =',
    file: ACS,
    edit: replace('"Austin city, Texas"', '"=HYPERLINK(\\"http://x\\")"'),
    code: 'formula_text',
    message: [/acs5-2024-detailed-place\.json:3/, /NAME/, /formula/],
  },
  {
    name: 'a formula in a text field: leading +',
    file: FHFA,
    edit: replace('"Atlanta-Sandy Springs-Roswell, GA",12060,2024,1,', '"+Atlanta",12060,2024,1,'),
    code: 'formula_text',
    message: [/HPI_AT_metro\.csv:1/, /metro name/],
  },
  {
    name: 'a formula in a text field: leading -',
    file: BPS,
    edit: replace(',12,Phoenix,', ',12,-Phoenix,'),
    code: 'formula_text',
    message: [/place-annual-2025\.txt:3/, /Place Name/],
  },
  {
    name: 'a formula in a text field: leading @',
    file: ACS_PROFILE,
    edit: replace(/"Austin city, Texas"/, '"@SUM(A1)"'),
    code: 'formula_text',
    message: [/acs5-2024-profile-place\.json:3/, /NAME/],
  },
  { name: 'malformed JSON', file: ACS, edit: (t) => t.slice(0, -5), code: 'bad_shape', message: [/acs5-2024-detailed-place\.json/, /not valid JSON/] },
  {
    name: 'a row with the wrong number of columns',
    file: BPS,
    edit: replace(',12,Phoenix,', ',12,Phoenix,extra,'),
    code: 'bad_shape',
    message: [/place-annual-2025\.txt:3/, /expected 41 fields, got 42/],
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

describe('the build command writes atomically', () => {
  const work = mkdtempSync(join(tmpdir(), 'mp-build-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const fixtures = join(work, 'fixtures');
  const out = join(work, 'dist');
  cpSync(FIXTURES_DIR, fixtures, { recursive: true });
  const quiet = { ...process.env, BASE_URL: 'http://localhost:3000' };

  test('a good build writes dist/ with a manifest and every route', async () => {
    const code = await main(['build', '--fixtures', fixtures, '--out', out], quiet);
    assert.equal(code, 0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { routes: { path: string }[] };
    assert.ok(manifest.routes.some((r) => r.path === '/api/markets/us-tx-austin/csv'));
    assert.ok(statSync(join(out, 'site/api/markets/us-tx-austin/index.json')).isFile());
    assert.ok(statSync(join(out, 'site/api/markets/us-tx-austin/csv/index.csv')).isFile());
  });

  for (const c of cases.slice(0, 4).concat(cases[6] as Case, cases[8] as Case)) {
    test(`after ${c.name}: exit code 1, a message naming the file, dist/ unchanged`, async () => {
      const before = treeHash(out);
      const original = readFileSync(join(fixtures, c.file), 'utf8');
      writeFileSync(join(fixtures, c.file), c.edit(original));
      const errors: string[] = [];
      const write = process.stderr.write;
      process.stderr.write = ((chunk: string) => (errors.push(String(chunk)), true)) as typeof process.stderr.write;
      try {
        assert.equal(await main(['build', '--fixtures', fixtures, '--out', out], quiet), 1);
      } finally {
        process.stderr.write = write;
        writeFileSync(join(fixtures, c.file), original);
      }
      assert.match(errors.join(''), new RegExp(c.file.replaceAll('.', '\\.')));
      assert.match(errors.join(''), /previous output was left as it was/);
      assert.equal(treeHash(out), before);
      assert.deepEqual(readdirSync(work).sort(), ['dist', 'fixtures'], 'no temporary folder left behind');
    });
  }

  test('a failure while writing leaves the previous output as it was', async () => {
    const before = treeHash(out);
    const files = artifactFiles(buildTable());
    files.set('site/api/markets/us-tx-austin/index.json/impossible', Buffer.from('x'));
    await assert.rejects(writeArtifact(files, out));
    assert.equal(treeHash(out), before);
    assert.deepEqual(readdirSync(work).sort(), ['dist', 'fixtures']);
  });
});

test('determinism: two builds give identical bytes for every file', () => {
  const first = artifactFiles(buildTable());
  const second = artifactFiles(buildTable());
  assert.deepEqual([...first.keys()].sort(), [...second.keys()].sort());
  for (const [path, bytes] of first) assert.ok(bytes.equals(second.get(path) ?? Buffer.alloc(0)), path);
});

describe('a profile that breaks the published contract stops the build', () => {
  const broken = (change: (load: SourceLoad) => void): SourceAdapter[] =>
    ADAPTERS.map((adapter) =>
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
  const build = (adapters: SourceAdapter[]): unknown => buildRouteTable({ baseUrl: 'http://localhost:3000', read: fixtureReader(), adapters });

  test('a source URL that is not absolute: market id, JSON pointer and reason', () => {
    assert.throws(
      () =>
        build(
          broken((l) => {
            l.source.sourceUrl = 'fhfa.gov/hpi';
          }),
        ),
      (error: unknown) => {
        assert.ok(error instanceof ContractError);
        assert.equal(error.place.marketId, 'us-az-phoenix');
        assert.equal(error.place.pointer, '/sources/2/sourceUrl');
        assert.match(error.message, /market us-az-phoenix/);
        assert.match(error.message, /must match format "uri"|must match pattern/);
        return true;
      },
    );
  });
  test('a value that is not a finite number is refused at assembly, naming the market and the fixture line', () => {
    assert.throws(
      () =>
        build(
          broken((l) => {
            l.observations[0]!.value = Number.NaN;
          }),
        ),
      (error: unknown) => {
        assert.ok(error instanceof DataError);
        assert.equal(error.place.file, 'fhfa-hpi/HPI_AT_metro.csv');
        assert.match(error.message, /market us-\S+: source fhfa-hpi produced NaN/);
        return true;
      },
    );
  });
});

describe('scale: a page does not grow with the number of markets', () => {
  // Past FOOTER_MARKET_LIMIT the footer links to the home page's table instead of listing every market, so each
  // market page keeps its size and the build stays linear (npm run bench:build measures the time).
  const marketPage = (n: number): { html: string; count: number } => {
    const table = buildRouteTable({ baseUrl: 'http://localhost:3000', ...synthetic(n) });
    const id = table.marketIds[0] ?? '';
    return { html: table.routes.get(`/markets/${id}`)?.identity.body.toString('utf8') ?? '', count: table.marketIds.length };
  };
  const small = marketPage(FOOTER_MARKET_LIMIT + 8);
  const large = marketPage(4 * FOOTER_MARKET_LIMIT);

  test('the same market page is the same size with four times the markets', () => {
    assert.equal(large.count, 4 * FOOTER_MARKET_LIMIT);
    assert.ok(small.html.length > 0);
    assert.ok(Math.abs(large.html.length - small.html.length) <= 16, `${small.html.length} vs ${large.html.length} bytes`);
  });

  test('past the limit the footer links to the comparison on the home page', () => {
    assert.match(large.html, new RegExp(`<a href="/#compare">All ${large.count} markets</a>, compared on the home page`));
    assert.equal((large.html.match(/href="\/markets\//g) ?? []).length, 0, 'no market is listed in the footer');
  });
});
