// `market-profiles list` and `market-profiles get` as an operator runs them (the installed command, a child process) against the running server: data on stdout, messages on stderr, documented exit codes.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { CSV_CAVEATS } from '../../src/contract/schemas.ts';
import { PATHS } from '../../src/contract/paths.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { dripping } from '../support/dripping.ts';
import { startEmbedded } from '../support/embedded.ts';
import { WORLD_MARKET_IDS } from '../world/world.ts';
import { commandPath } from '../support/compiled.ts';

/** The installed command, asynchronously: this process keeps serving meanwhile. */
const run = (argv: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [commandPath(), ...argv],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, out: stdout, err: stderr });
      },
    );
  });

describe('list and get against the running server', () => {
  let stop: () => Promise<void>;
  let table: RouteTable;
  let baseUrl: string;
  before(async () => {
    const started = await startEmbedded();
    ({ table, baseUrl } = started);
    stop = () => started.running.close();
  });
  after(() => stop());
  const served = (path: string): string => table.routes.get(path)?.identity.body.toString('utf8') ?? '';

  test('list prints the index as JSON on stdout, nothing on stderr, exit code 0', async () => {
    const { code, out, err } = await run(['list', '--base-url', baseUrl]);
    assert.equal(code, 0, err);
    assert.equal(err, '');
    assert.equal(out, served(PATHS.index));
    assert.deepEqual(
      (JSON.parse(out) as { markets: { id: string }[] }).markets.map((m) => m.id),
      [...WORLD_MARKET_IDS].sort(),
    );
  });

  test('get prints the profile as JSON, caveats included; BASE_URL works as --base-url does', async () => {
    const { code, out, err } = await run(['get', 'us-tx-austin'], { BASE_URL: baseUrl });
    assert.equal(code, 0, err);
    assert.equal(err, '');
    assert.equal(out, served(PATHS.profile('us-tx-austin')));
  });

  test('get --csv prints the CSV exactly as served on stdout and its caveats on stderr', async () => {
    const { code, out, err } = await run(['get', 'us-tx-austin', '--csv', `--base-url=${baseUrl}`]);
    assert.equal(code, 0, err);
    assert.equal(out, served(PATHS.marketCsv('us-tx-austin')));
    assert.equal(err, CSV_CAVEATS.map((c) => `market-profiles: caveat: ${c}\n`).join(''));
  });

  test('get --series prints the series as JSON; with --csv, the series CSV exactly as served and its caveats on stderr', async () => {
    const json = await run(['get', 'us-tx-austin', '--series', '--base-url', baseUrl]);
    assert.equal(json.code, 0, json.err);
    assert.equal(json.err, '');
    assert.equal(json.out, served(PATHS.series('us-tx-austin')));
    const csv = await run(['get', 'us-tx-austin', '--series', '--csv', '--base-url', baseUrl]);
    assert.equal(csv.code, 0, csv.err);
    assert.equal(csv.out, served(PATHS.seriesCsv('us-tx-austin')));
    const { caveats } = JSON.parse(served(PATHS.seriesCsvDescriptor)) as { caveats: string[] };
    assert.ok(caveats.length > 0, 'premise: the series CSV descriptor has caveats');
    assert.equal(csv.err, caveats.map((c) => `market-profiles: caveat: ${c}\n`).join(''));
  });

  test('a bad id: exit code 1, the problem code and the known ids on stderr, nothing on stdout; a near one names the id meant', async () => {
    const known = `Known market ids: ${[...WORLD_MARKET_IDS].sort().join(', ')}.`;
    assert.deepEqual(await run(['get', 'us-zz-nowhere', '--base-url', baseUrl]), {
      code: 1,
      out: '',
      err: `market-profiles: get: market_not_found (404): there is no market "us-zz-nowhere". ${known}\n`,
    });
    for (const typed of ['us-tx-austn', 'US-TX-AUSTIN', 'austin'])
      assert.deepEqual(
        await run(['get', typed, '--csv', '--base-url', baseUrl]),
        { code: 1, out: '', err: `market-profiles: get: market_not_found (404): there is no market "${typed}"; did you mean us-tx-austin? ${known}\n` },
        typed,
      );
  });

  test("list --csv prints every market's CSV, --series --csv every market's series CSV, each caveat once; --series alone is refused", async () => {
    const csv = await run(['list', '--csv', '--base-url', baseUrl]);
    assert.equal(csv.code, 0, csv.err);
    assert.equal(csv.out, served(PATHS.bulkCsv));
    assert.equal(csv.err, CSV_CAVEATS.map((c) => `market-profiles: caveat: ${c}\n`).join(''));
    const series = await run(['list', '--series', '--csv', '--base-url', baseUrl]);
    assert.equal(series.code, 0, series.err);
    assert.equal(series.out, served(PATHS.bulkSeriesCsv));
    const refused = await run(['list', '--series', '--base-url', baseUrl]);
    assert.deepEqual(refused, {
      code: 2,
      out: '',
      err: "market-profiles: list: --series needs --csv: every market's series is one CSV (list --series --csv); get <market-id> --series gives one market's as JSON (market-profiles list --help says more)\n",
    });
  });

  test('get --vintage prints a profile (--csv its CSV) as a snapshot published it; an unknown date names the one meant', async () => {
    // This server serves one snapshot: the current one, at its vintage addresses too.
    const dates = (JSON.parse(served(PATHS.vintages)) as { vintages: { snapshotDate: string }[] }).vintages.map((v) => v.snapshotDate);
    const [date = ''] = dates;
    const json = await run(['get', 'us-tx-austin', '--vintage', date, '--base-url', baseUrl]);
    assert.equal(json.code, 0, json.err);
    assert.equal(json.out, served(PATHS.vintageProfile(date, 'us-tx-austin')));
    const csv = await run(['get', 'us-tx-austin', '--vintage', date, '--csv', '--base-url', baseUrl]);
    assert.equal(csv.out, served(PATHS.vintageCsv(date, 'us-tx-austin')));
    const typo = `${date.slice(0, -1)}${date.endsWith('9') ? '8' : '9'}`;
    assert.deepEqual(await run(['get', 'us-tx-austin', '--vintage', typo, '--base-url', baseUrl]), {
      code: 1,
      out: '',
      err: `market-profiles: get: not_found (404): there is no snapshot of "${typo}"; did you mean ${date}? The snapshot dates: ${dates.join(', ')}.\n`,
    });
    assert.deepEqual(await run(['get', 'us-tx-austn', '--vintage', date, '--base-url', baseUrl]), {
      code: 1,
      out: '',
      err: `market-profiles: get: not_found (404): the snapshot of ${date} has no market "us-tx-austn"; did you mean us-tx-austin?\n`,
    });
    assert.equal((await run(['get', 'us-tx-austin', '--vintage', 'last-week'])).code, 2);
  });

  test('a service that cannot be reached: exit code 1 and the address on stderr', async () => {
    const { code, out, err } = await run(['list', '--base-url', 'http://127.0.0.1:9']);
    assert.equal(code, 1);
    assert.equal(out, '');
    assert.match(err, /^market-profiles: list: GET http:\/\/127\.0\.0\.1:9\/api\/markets failed/);
  });

  test('a service that sends a byte now and then: cut at --timeout-ms, exit code 1 and the deadline on stderr', { timeout: 120_000 }, async () => {
    // Never idle for long, so only a deadline on the whole exchange ends it; the test's own timeout fails a regression.
    const slow = await dripping();
    try {
      const { code, out, err } = await run(['get', 'us-tx-austin', '--base-url', slow.url, '--timeout-ms', '1000']);
      assert.deepEqual(
        { code, out, err },
        { code: 1, out: '', err: `market-profiles: get: GET ${slow.url}/api/markets/us-tx-austin failed: no complete answer within 1000 ms\n` },
      );
    } finally {
      await slow.close();
    }
  });
});

describe('list and get: help and usage errors', () => {
  test("--help prints each command's usage with its options and exit codes, exit code 0", async () => {
    const help: Record<string, string> = {};
    for (const command of ['list', 'get']) {
      const { code, out } = await run([command, '--help']);
      assert.equal(code, 0);
      assert.match(out, new RegExp(`^usage: market-profiles ${command}`));
      assert.match(out, /--base-url VALUE/);
      assert.match(out, /exit codes: 0 the data was printed; 1 .*; 2 a usage error/s);
      help[command] = out;
    }
    assert.match(help['get'] ?? '', /--csv/);
    assert.match((await run(['--help'])).out, /^ {2}list {18}print the index/m);
  });

  test('a missing id, an extra argument or an unknown option: exit code 2 and one line on stderr saying what to do', async () => {
    const cases: [string[], string][] = [
      [['get'], 'market-profiles: get: needs exactly one market id, e.g. market-profiles get us-tx-austin (market-profiles get --help says more)\n'],
      [['get', ''], 'market-profiles: get: needs exactly one market id, e.g. market-profiles get us-tx-austin (market-profiles get --help says more)\n'],
      [
        ['get', 'us-tx-austin', 'us-fl-miami'],
        'market-profiles: get: needs exactly one market id, got also "us-fl-miami", e.g. market-profiles get us-tx-austin (market-profiles get --help says more)\n',
      ],
      [['list', 'extra'], 'market-profiles: list: takes no argument, got "extra" (market-profiles list --help says more)\n'],
      [['get', 'us-tx-austin', '--cvs'], 'market-profiles: get: unknown option --cvs; did you mean --csv?\n'],
    ];
    for (const [argv, line] of cases) {
      const { code, out, err } = await run(argv);
      assert.equal(code, 2, argv.join(' '));
      assert.equal(out, '');
      assert.equal(err, line);
    }
  });
});

describe('list and get against a hostile server: one line, exit code 1, nothing raw on the terminal', () => {
  const ESC = '\u001b';
  /** What the server answers at each path: status, content type, body. */
  const answers = new Map<string, [number, string, string]>();
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer((req, res) => {
      const [status, type, body] = answers.get(req.url ?? '') ?? [404, 'text/plain', 'no'];
      res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const profile = (id: string): string => PATHS.profile(id);
  const oneLine = (err: string): void => assert.match(err, /^market-profiles: get: [^\n]*\n$/, 'one line');

  test("a problem's detail with escape sequences (clear screen, a window title, colour) reaches stderr escaped", async () => {
    const detail = `${ESC}[2J${ESC}]0;pwned\u0007${ESC}[31mred\u009b1mC1\nsecond line`;
    answers.set(profile('us-tx-austin'), [
      404,
      'application/problem+json',
      JSON.stringify({ type: 'about:blank', title: 'x', status: 404, code: 'not_found', detail }),
    ]);
    const { code, out, err } = await run(['get', 'us-tx-austin', '--base-url', url]);
    assert.equal(code, 1);
    assert.equal(out, '');
    oneLine(err);
    // eslint-disable-next-line no-control-regex -- the control characters are what must not be there
    assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(err), `no control character written: ${JSON.stringify(err)}`);
    assert.equal(err, 'market-profiles: get: not_found (404): \\u001b[2J\\u001b]0;pwned\\u0007\\u001b[31mred\\u009b1mC1\\u000asecond line\n');
  });

  test('200,000 nested arrays: refused before they are parsed, in one line', async () => {
    const deep = `{"schemaVersion":"1","caveats":["c"],"x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    answers.set(PATHS.series('us-co-denver'), [200, 'application/json', deep]);
    const { code, out, err } = await run(['get', 'us-co-denver', '--series', '--base-url', url]);
    assert.deepEqual({ code, out }, { code: 1, out: '' });
    assert.equal(
      err,
      `market-profiles: get: GET ${url}/api/markets/us-co-denver/series: the JSON nests more than 64 levels deep, deeper than any document of the service; refused\n`,
    );
  });

  test('a profile far larger than a profile can be: refused at that size, naming it', async () => {
    const padded = `{"schemaVersion":"1","caveats":["c"],"pad":"${'0'.repeat(300 * 1024)}"}`;
    answers.set(profile('us-fl-miami'), [200, 'application/json', padded]);
    const { code, out, err } = await run(['get', 'us-fl-miami', '--base-url', url]);
    assert.deepEqual({ code, out }, { code: 1, out: '' });
    assert.equal(
      err,
      `market-profiles: get: GET ${url}/api/markets/us-fl-miami failed: the answer declares ${Buffer.byteLength(padded)} bytes, more than a market's profile can be (262144 bytes)\n`,
    );
  });

  test('a CSV with control characters in a cell: its line ends kept, the rest escaped', async () => {
    const descriptor = JSON.stringify({ schemaVersion: '1', caveats: ['c'] });
    answers.set(PATHS.csvDescriptor, [200, 'application/json', descriptor]);
    const header = 'market_id,market_name,metric_id,metric_label,value,unit,source_id,updated_date,methodology_version,production_mode,live_data';
    const csv = `${header}\r\nus-tx-austin,A${ESC}[2Jb,rent,Rent,1,USD,s,2026-11-29,v3.0,static-fixture,false\r\n`;
    answers.set(PATHS.marketCsv('us-tx-austin'), [200, 'text/csv; charset=utf-8', csv]);
    const { code, out } = await run(['get', 'us-tx-austin', '--csv', '--base-url', url]);
    assert.equal(code, 0);
    assert.equal(out, csv.replace(ESC, '\\u001b'));
  });
});
