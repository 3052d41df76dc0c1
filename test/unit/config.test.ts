// Configuration: defaults, environment, flags winning over environment, clear errors for bad values, the same for every command and in the README.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { RUNNERS, main, type Runner } from '../../src/commands/cli.ts';
import { DEFAULTS, loadConfig, loadReadConfig, loadVerifyConfig, parseCommandLine } from '../../src/commands/config.ts';
import { loadFetchConfig } from '../../src/commands/fetch.ts';
import { optionsTable, usageLines } from '../../src/commands/help.ts';
import { ConfigError } from '../../src/contract/errors.ts';
import { assertConfigError } from '../support/refused.ts';

test('defaults: 127.0.0.1:3000, links on http://localhost:3000, no log', () => {
  const c = loadConfig({});
  assert.deepEqual(c, {
    baseUrl: 'http://localhost:3000',
    baseUrlFollowsPort: true,
    host: '127.0.0.1',
    port: 3000,
    log: false,
    fixturesDir: DEFAULTS.fixturesDir,
    archiveDir: DEFAULTS.archiveDir,
    outDir: DEFAULTS.outDir,
  });
});

test('environment variables set every option; the base URL follows PORT unless given', () => {
  const c = loadConfig({ PORT: '8080', HOST: '0.0.0.0', LOG: '1' });
  assert.equal(c.baseUrl, 'http://localhost:8080');
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.log, true);
  assert.equal(loadConfig({ BASE_URL: 'https://data.example.org/' }).baseUrl, 'https://data.example.org');
  assert.equal(loadConfig({ BASE_URL: 'https://data.example.org/' }).baseUrlFollowsPort, false);
});

test('flags win over environment variables', () => {
  const c = loadConfig({ PORT: '8080', BASE_URL: 'https://a.example' }, ['serve', '--port', '9000', '--base-url=https://b.example', '--log']);
  assert.equal(c.port, 9000);
  assert.equal(c.baseUrl, 'https://b.example');
  assert.equal(c.log, true);
});

test('bad values are refused with a message naming the option', () => {
  assertConfigError(() => loadConfig({ PORT: 'eighty' }), /PORT/);
  assert.throws(() => loadConfig({ PORT: '70000' }), ConfigError);
  assert.throws(() => loadConfig({ BASE_URL: 'localhost:3000' }), /BASE_URL/);
  assert.throws(() => loadConfig({ BASE_URL: 'ftp://x.example' }), /BASE_URL/);
  assert.throws(() => loadConfig({ BASE_URL: 'https://x.example/?a=1' }), /BASE_URL/);
  assert.throws(() => loadConfig({ LOG: 'maybe' }), /LOG/);
});

test('a bad value is refused naming where it came from: the flag as typed, or the environment variable', () => {
  assertConfigError(() => loadConfig({}, ['serve', '--port', 'abc']), '--port must be an integer from 0 to 65535, got "abc"');
  assertConfigError(() => loadConfig({}, ['serve', '--port=abc']), '--port must be an integer from 0 to 65535, got "abc"');
  assertConfigError(() => loadConfig({ PORT: 'abc' }, ['serve']), 'PORT must be an integer from 0 to 65535, got "abc"');
  // A good environment variable under a bad flag: the flag is the value read, so the flag is named.
  assertConfigError(() => loadConfig({ PORT: '8080' }, ['serve', '--port', 'abc']), '--port must be an integer from 0 to 65535, got "abc"');
  // A bad environment variable under a good flag is never read.
  assert.equal(loadConfig({ PORT: 'abc' }, ['serve', '--port', '8080']).port, 8080);
  assertConfigError(() => loadConfig({}, ['serve', '--base-url', 'not a url']), '--base-url must be an absolute http(s) URL, got "not a url"');
  assertConfigError(() => loadConfig({ BASE_URL: 'ftp://x.example' }), 'BASE_URL must use http or https, got "ftp://x.example"');
  assertConfigError(
    () => loadConfig({}, ['serve', '--base-url=https://x.example/?a=1']),
    '--base-url must not carry a query, fragment or credentials, got "https://x.example/?a=1"',
  );
  assertConfigError(() => loadConfig({}, ['serve', '--host', '']), '--host must not be empty');
  assertConfigError(() => loadConfig({ HOST: '' }), 'HOST must not be empty');
  assertConfigError(() => loadReadConfig({}, ['list', '--port', '70000']), '--port must be an integer from 0 to 65535, got "70000"');
  assertConfigError(() => loadFetchConfig({}, ['fetch', '--upstream', 'mirror']), '--upstream must be an absolute http(s) URL, got "mirror"');
});

test('verify reads its options from the same table: defaults, and bad values refused like the others', () => {
  // 64 MiB: 67,108,864 bytes.
  assert.deepEqual(loadVerifyConfig(['verify', 'http://x.example']), {
    json: false,
    concurrency: 8,
    timeoutMs: 10_000,
    maxBytes: 67_108_864,
    manifest: undefined,
  });
  assert.deepEqual(
    loadVerifyConfig([
      'verify',
      'http://x.example',
      '--json',
      '--concurrency=3',
      '--timeout-ms',
      '500',
      '--max-bytes',
      '4096',
      '--manifest',
      'dist/manifest.json',
    ]),
    { json: true, concurrency: 3, timeoutMs: 500, maxBytes: 4096, manifest: 'dist/manifest.json' },
  );
  assertConfigError(() => loadVerifyConfig(['--max-bytes', '0']), /--max-bytes/);
  assertConfigError(() => loadVerifyConfig(['--concurrency', 'many']), /--concurrency/);
  assertConfigError(() => loadVerifyConfig(['--concurrency', '0']), /--concurrency/);
  assert.throws(() => loadVerifyConfig(['--timeout-ms', '-5']), ConfigError);
});

test('an unknown flag is refused, not ignored', () => {
  assertConfigError(() => loadConfig({}, ['serve', '--prot', '8080']), /--prot/);
  assertConfigError(() => loadVerifyConfig(['verify', '--conccurency', '2']), /--conccurency/);
});

test('a flag without its value, or --help given one, is refused naming the flag; the first such flag is the one reported', () => {
  assert.equal(parseCommandLine(['serve', '--port']).problem, '--port needs a value');
  assert.equal(parseCommandLine(['serve', '--help=yes']).problem, '--help takes no value');
  assert.equal(parseCommandLine(['serve', '--help=yes', '--port']).problem, '--help takes no value');
  assert.equal(parseCommandLine(['serve', '--port', '8080', '--log']).problem, undefined);
  assert.equal(parseCommandLine(['serve', '--log=yes', '--port']).problem, '--port needs a value');
  assertConfigError(() => loadConfig({}, ['serve', '--base-url']), '--base-url needs a value');
});

test('every switch is on bare, and takes true/false, 1/0, yes/no or on/off after = in any case, as its variable does', () => {
  const on = ['true', '1', 'yes', 'on', 'TRUE', 'Yes', 'On'];
  const off = ['false', '0', 'no', 'off', 'FALSE', 'No', 'OFF'];
  for (const word of on) {
    assert.equal(loadConfig({}, ['serve', `--log=${word}`]).log, true, word);
    assert.equal(loadConfig({ LOG: word }, ['serve']).log, true, word);
  }
  for (const word of off) {
    assert.equal(loadConfig({}, ['serve', `--log=${word}`]).log, false, word);
    assert.equal(loadConfig({ LOG: word }, ['serve']).log, false, word);
  }
  // The flag wins over the variable, whichever way each points.
  assert.equal(loadConfig({ LOG: '1' }, ['serve', '--log=false']).log, false);
  assert.equal(loadConfig({ LOG: 'off' }, ['serve', '--log']).log, true);
  // The last of a repeated flag wins.
  assert.equal(loadConfig({}, ['serve', '--log', '--log=no']).log, false);
  // The switches of the other commands read the same words.
  assert.equal(loadVerifyConfig(['verify', 'http://x.example', '--json=no']).json, false);
  assert.equal(loadVerifyConfig(['verify', 'http://x.example', '--json=YES']).json, true);
  const read = loadReadConfig({}, ['get', 'x', '--csv=on', '--series=0']);
  assert.deepEqual({ csv: read.csv, series: read.series }, { csv: true, series: false });
  const fetch = loadFetchConfig({}, ['fetch', '--dry-run=true', '--allow-older=off']);
  assert.deepEqual({ dryRun: fetch.dryRun, allowOlder: fetch.allowOlder }, { dryRun: true, allowOlder: false });
});

test('a switch given another word is refused naming the flag (or its variable) and the words it takes', () => {
  assertConfigError(() => loadConfig({}, ['serve', '--log=maybe']), '--log must be true/false, 1/0, yes/no or on/off, got "maybe"');
  assertConfigError(() => loadConfig({ LOG: 'maybe' }, ['serve']), 'LOG must be true/false, 1/0, yes/no or on/off, got "maybe"');
  assertConfigError(() => loadVerifyConfig(['verify', 'x', '--json=pretty']), '--json must be true/false, 1/0, yes/no or on/off, got "pretty"');
  assertConfigError(() => loadFetchConfig({}, ['fetch', '--dry-run=y']), '--dry-run must be true/false, 1/0, yes/no or on/off, got "y"');
});

test("an unknown flag is answered with the nearest of the command's flags, or of every command's when there is no command", () => {
  const problem = (argv: string[]): string | undefined => parseCommandLine(argv).problem;
  assert.equal(problem(['serve', '--prot']), 'unknown option --prot; did you mean --port?');
  assert.equal(problem(['serve', '--hlep']), 'unknown option --hlep; did you mean --help?');
  // verify takes no --port, so nothing of its own is near, and the line says where its flags are listed.
  assert.equal(problem(['verify', 'http://x.example', '--prot']), 'unknown option --prot (market-profiles verify --help lists the options)');
  assert.equal(problem(['serve', '--zzzz']), 'unknown option --zzzz (market-profiles serve --help lists the options)');
  // No command, or one that does not exist: every command's flags are candidates.
  assert.equal(problem(['--prot']), 'unknown option --prot; did you mean --port?');
  assert.equal(problem(['sevre', '--conccurency']), 'unknown option --conccurency; did you mean --concurrency?');
  assert.equal(problem(['--zzzz']), 'unknown option --zzzz (market-profiles --help lists the options)');
});

test('list and get: the address: --base-url, else BASE_URL, else http://localhost:<PORT>', () => {
  assert.deepEqual(loadReadConfig({}, ['get', 'x']), { baseUrl: 'http://localhost:3000', csv: false, series: false, vintage: undefined, timeoutMs: 10_000 });
  assert.deepEqual(loadReadConfig({ PORT: '8080' }, ['get', 'x', '--csv']), {
    baseUrl: 'http://localhost:8080',
    csv: true,
    series: false,
    vintage: undefined,
    timeoutMs: 10_000,
  });
  assert.deepEqual(loadReadConfig({}, ['get', 'x', '--series', '--csv', '--timeout-ms=500', '--vintage', '2026-11-24']), {
    baseUrl: 'http://localhost:3000',
    csv: true,
    series: true,
    vintage: '2026-11-24',
    timeoutMs: 500,
  });
  assert.equal(loadReadConfig({}, ['list', '--timeout-ms', '2500']).timeoutMs, 2_500);
  assertConfigError(() => loadReadConfig({}, ['list', '--timeout-ms', '0']), /^--timeout-ms must be an integer/);
  assert.equal(loadReadConfig({ BASE_URL: 'https://a.example/' }, ['list', '--base-url', 'https://b.example/data/']).baseUrl, 'https://b.example/data');
});

test('list and get read PORT only when no base URL names the service, so only then is a bad one refused', () => {
  assert.equal(loadReadConfig({ PORT: 'eighty', BASE_URL: 'https://a.example' }, ['list']).baseUrl, 'https://a.example');
  assertConfigError(() => loadReadConfig({ PORT: 'eighty' }, ['list']), /^PORT must be an integer/);
});

test("fetch: its options, then each source's credential from its environment variable only; an empty one is refused by name", () => {
  assert.deepEqual(loadFetchConfig({}, ['fetch']), {
    fixtures: DEFAULTS.fixturesDir,
    dryRun: false,
    allowOlder: false,
    source: undefined,
    upstream: undefined,
    fetchTimeoutMs: 60_000,
    verbose: false,
    credentials: {},
  });
  assert.deepEqual(
    loadFetchConfig({ CENSUS_API_KEY: 's3cret', FETCH_UPSTREAM: 'https://mirror.example/' }, [
      'fetch',
      '--dry-run',
      '--source',
      'census-bps',
      '--fetch-timeout-ms=5000',
      '--verbose',
    ]),
    {
      fixtures: DEFAULTS.fixturesDir,
      dryRun: true,
      allowOlder: false,
      source: 'census-bps',
      upstream: 'https://mirror.example',
      fetchTimeoutMs: 5000,
      verbose: true,
      credentials: { CENSUS_API_KEY: 's3cret' },
    },
  );
  assertConfigError(() => loadFetchConfig({ CENSUS_API_KEY: '' }, ['fetch']), 'CENSUS_API_KEY must not be empty');
  assertConfigError(
    () => loadFetchConfig({ FETCH_UPSTREAM: 'ftp://mirror.example' }, ['fetch']),
    'FETCH_UPSTREAM must be an absolute http(s) URL, got "ftp://mirror.example"',
  );
  assert.equal(loadFetchConfig({}, ['fetch', '--upstream', 'https://mirror.example/']).upstream, 'https://mirror.example');
  // An option without an environment variable reads none, not even one named "undefined".
  assert.deepEqual(loadFetchConfig({ undefined: '1' }, ['fetch']), loadFetchConfig({}, ['fetch']));
  // A secret has no flag: one would stay in shell histories and process lists.
  assert.match(parseCommandLine(['fetch', '--census-api-key', 's3cret']).problem ?? '', /^unknown option --census-api-key/);
});

test('every command refuses a bad value with exit code 2 and a message naming the option', async () => {
  const messages: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    messages.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    assert.equal(await main(['serve', '--port', 'eighty'], {}), 2);
    assert.equal(await main(['build', '--out', 'x'], { PORT: '99999' }), 2);
    assert.equal(await main(['verify', 'http://127.0.0.1:9', '--concurrency', 'lots'], {}), 2);
    assert.equal(await main(['build', '--nope'], {}), 2);
  } finally {
    process.stderr.write = write;
  }
  assert.match(messages[0] ?? '', /^market-profiles: serve: --port must be an integer/);
  assert.match(messages[1] ?? '', /^market-profiles: build: PORT must be an integer/);
  assert.match(messages[2] ?? '', /^market-profiles: verify: --concurrency must be an integer/);
  assert.match(messages[3] ?? '', /^market-profiles: build: .*--nope/);
});

test('the command line takes a switch with a word: serve --log=true runs, --log=maybe is exit code 2 naming the flag and the words', async () => {
  // serve's runner stands in for the real one (no socket here): it reads its options as serve does and exits 0 when the log is on.
  const runners = { ...RUNNERS, serve: (async (_args, env, argv) => (loadConfig(env, argv).log ? 0 : 1)) as Runner };
  const messages: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    messages.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    assert.equal(await main(['serve', '--log=true'], {}, runners), 0);
    assert.equal(await main(['serve', '--log=FALSE'], { LOG: '1' }, runners), 1);
    assert.equal(await main(['serve', '--log=maybe'], {}, runners), 2);
  } finally {
    process.stderr.write = write;
  }
  assert.deepEqual(messages, ['market-profiles: serve: --log must be true/false, 1/0, yes/no or on/off, got "maybe"\n']);
});

test("the README's options table is the one generated from the options table", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  assert.ok(readme.includes(`\n${optionsTable()}\n`), 'README.md: regenerate the Options table from optionsTable() in src/config.ts');
});

test("the usage text keeps its columns: every option's environment name and help start at the same place, however long the flag or name", () => {
  const lines = (['serve', 'build', 'verify', 'fetch'] as const).flatMap((command) => usageLines(command));
  const fetchTimeout = lines.find((line) => line.startsWith('  --fetch-timeout-ms VALUE '));
  const apiKey = lines.find((line) => line.includes('CENSUS_API_KEY'));
  assert.ok(fetchTimeout !== undefined && apiKey !== undefined, 'fetchTimeout !== undefined && apiKey !== undefined');
  const helpAt = fetchTimeout.indexOf('Time allowed');
  assert.equal(apiKey.indexOf('Census Data API key'), helpAt);
  assert.equal(apiKey.indexOf('CENSUS_API_KEY') + 'CENSUS_API_KEY'.length < helpAt, true);
  for (const line of lines) assert.match(line.slice(helpAt - 2, helpAt), /^ {2}$/, line);
  for (const line of lines) assert.match(line.charAt(helpAt), /\S/, line);
});
