// The client's own bin as a user gets it: the client packed, installed into a fresh project outside the repository, and `npx --no -- market-profiles-client list` and `get` run there against the running server.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { PATHS } from '../../src/contract/paths.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { startEmbedded } from '../support/embedded.ts';

const CLIENT = fileURLToPath(new URL('../../client/', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('the client bin, installed from its tarball into a project of its own', () => {
  const home = mkdtempSync(join(tmpdir(), 'mp-client-bin-'));
  const project = join(home, 'project');
  let stop: () => Promise<void>;
  let table: RouteTable;
  let baseUrl: string;
  /** `npx --no -- market-profiles-client …` in the project: the installed bin, never a download. */
  const npx = (args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> =>
    new Promise((resolve) => {
      execFile(
        'npx',
        ['--no', '--', 'market-profiles-client', ...args],
        { cwd: project, encoding: 'utf8', env: { ...process.env, ...env } },
        (error, out, err) => {
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, out, err });
        },
      );
    });
  before(async () => {
    // lib/ is what npm ci built (the prepare script); --ignore-scripts packs it as it is, without building again.
    execFileSync(NPM, ['pack', '--ignore-scripts', '--silent', '--pack-destination', home], { cwd: CLIENT, stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(home).find((name) => name.endsWith('.tgz')) ?? assert.fail('npm pack wrote no tarball');
    execFileSync('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), '{ "name": "an-analysts-project", "private": true }\n');
    // The client has no dependencies: nothing is asked of a registry.
    execFileSync(NPM, ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(home, tarball)], {
      cwd: project,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const started = await startEmbedded();
    ({ table, baseUrl } = started);
    stop = () => started.running.close();
  });
  after(async () => {
    await stop();
    rmSync(home, { recursive: true, force: true });
  });
  const served = (path: string): string => table.routes.get(path)?.identity.body.toString('utf8') ?? '';

  test('in a strict project (skipLibCheck off) a misspelt metric id does not compile; a metric added later is read through metric()', () => {
    const files = {
      'reads.mts': [
        "import { createClient, isKnownMetricId, metric } from 'market-profiles-client';",
        "const client = createClient({ baseUrl: 'http://localhost:3000' });",
        "const austin = (await client.getProfile('us-tx-austin')).data;",
        'const rent: number | undefined = austin.profile.metrics.medianGrossRent?.value;',
        "const later: number | undefined = metric(austin, 'medianRentAddedLater')?.value;",
        'for (const row of (await client.getBulkCsv()).data)',
        '  if (isKnownMetricId(row.metric_id)) console.log(austin.profile.metrics[row.metric_id]?.value, rent, later);',
      ],
      'misspelt.mts': [
        "import { createClient } from 'market-profiles-client';",
        "const austin = (await createClient({ baseUrl: 'http://localhost:3000' }).getProfile('us-tx-austin')).data;",
        'console.log(austin.profile.metrics.medianGrosRent.value);',
      ],
      'unchecked.mts': [
        "import { createClient } from 'market-profiles-client';",
        "const client = createClient({ baseUrl: 'http://localhost:3000' });",
        "const austin = (await client.getProfile('us-tx-austin')).data;",
        'for (const row of (await client.getBulkCsv()).data) console.log(austin.profile.metrics[row.metric_id]);',
      ],
    };
    for (const [name, lines] of Object.entries(files)) writeFileSync(join(project, name), `${lines.join('\n')}\n`);
    const program = ts.createProgram(
      Object.keys(files).map((name) => join(project, name)),
      {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
        types: [],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      },
    );
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file === undefined ? '' : `${d.file.fileName.slice(project.length + 1)}: `}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    assert.deepEqual(diagnostics, [
      "misspelt.mts: Property 'medianGrosRent' does not exist on type 'ProfileMetrics'. Did you mean 'medianGrossRent'?",
      "unchecked.mts: Element implicitly has an 'any' type because expression of type 'AnyMetricId' can't be used to index type 'ProfileMetrics'.",
    ]);
  });

  test('list prints the index as served, exit code 0', async () => {
    const { code, out, err } = await npx(['list', '--base-url', baseUrl]);
    assert.equal(code, 0, err);
    assert.equal(err, '');
    assert.equal(out, served(PATHS.index));
  });

  test('get prints the profile, --csv the CSV with its caveats on stderr, --series --csv the series CSV; BASE_URL works as --base-url does', async () => {
    assert.equal((await npx(['get', 'us-tx-austin'], { BASE_URL: baseUrl })).out, served(PATHS.profile('us-tx-austin')));
    const csv = await npx(['get', 'us-tx-austin', '--csv', `--base-url=${baseUrl}`]);
    assert.equal(csv.code, 0, csv.err);
    assert.equal(csv.out, served(PATHS.marketCsv('us-tx-austin')));
    assert.match(csv.err, /^market-profiles-client: caveat: /m);
    const series = await npx(['get', 'us-tx-austin', '--series', '--csv=true', '--base-url', baseUrl]);
    assert.equal(series.out, served(PATHS.seriesCsv('us-tx-austin')));
  });

  test('--version and -v print the version and the schemaVersion it reads, exit code 0', async () => {
    const { version } = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v'])
      assert.deepEqual(await npx([flag]), { code: 0, out: `market-profiles-client ${version} (reads schemaVersion "1")\n`, err: '' }, flag);
  });

  test("list --csv prints every market's CSV; vintages the snapshots; get --vintage a snapshot's profile; each caveat once", async () => {
    const csv = await npx(['list', '--csv', '--base-url', baseUrl]);
    assert.equal(csv.code, 0, csv.err);
    assert.equal(csv.out, served(PATHS.bulkCsv));
    const caveats = csv.err.split('\n').filter((line) => line !== '');
    assert.ok(caveats.length > 0 && caveats.every((line) => line.startsWith('market-profiles-client: caveat: ')), csv.err);
    assert.equal(new Set(caveats).size, caveats.length, 'each caveat once');
    const vintages = await npx(['vintages', '--base-url', baseUrl]);
    assert.deepEqual(vintages, { code: 0, out: served(PATHS.vintages), err: '' });
    const [date = ''] = (JSON.parse(vintages.out) as { vintages: { snapshotDate: string }[] }).vintages.map((v) => v.snapshotDate);
    assert.equal((await npx(['get', 'us-tx-austin', '--vintage', date, '--base-url', baseUrl])).out, served(PATHS.vintageProfile(date, 'us-tx-austin')));
  });

  test('download writes the zip to the file the service names, never over one that exists; -o names another', async () => {
    const zip = table.routes.get(PATHS.download)?.identity.body ?? assert.fail('no /api/download');
    const first = await npx(['download', '--base-url', baseUrl]);
    assert.equal(first.code, 0, first.err);
    assert.equal(first.out, '');
    assert.match(first.err, new RegExp(`^market-profiles-client: download: wrote housing-markets\\.zip \\(${zip.length} bytes\\)\n`));
    assert.match(first.err, /^market-profiles-client: caveat: /m);
    assert.deepEqual(readFileSync(join(project, 'housing-markets.zip')), zip);
    assert.deepEqual(await npx(['download', '--base-url', baseUrl]), {
      code: 1,
      out: '',
      err: 'market-profiles-client: download: housing-markets.zip exists; -o housing-markets.zip replaces it\n',
    });
    const named = await npx(['download', '-o', 'all.zip', '--base-url', baseUrl]);
    assert.equal(named.code, 0, named.err);
    assert.deepEqual(readFileSync(join(project, 'all.zip')), zip);
  });

  test("the same exit codes and messages as the service's list and get, under the bin's name", async () => {
    const unknown = await npx(['get', 'us-zz-nowhere', '--base-url', baseUrl]);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.out, '');
    assert.match(unknown.err, /^market-profiles-client: get: market_not_found \(404\): .* Known market ids: /);
    assert.deepEqual(await npx(['get', '--base-url', baseUrl]), {
      code: 2,
      out: '',
      err: 'market-profiles-client: get: needs exactly one market id, e.g. market-profiles-client get us-tx-austin (market-profiles-client get --help says more)\n',
    });
    assert.deepEqual(await npx(['get', 'us-tx-austin', '--cvs']), {
      code: 2,
      out: '',
      err: 'market-profiles-client: unknown option --cvs; did you mean --csv? (market-profiles-client --help says more)\n',
    });
    assert.deepEqual(await npx(['lsit']), {
      code: 2,
      out: '',
      err: 'market-profiles-client: unknown command "lsit"; did you mean list? (market-profiles-client --help says more)\n',
    });
    assert.deepEqual(await npx(['vintages', '--csv']), {
      code: 2,
      out: '',
      err: 'market-profiles-client: vintages: --csv is an option of list and get, not of vintages (market-profiles-client --help says more)\n',
    });
    const help = await npx(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.out, /^usage: market-profiles-client <command> \[options\]\n\ncommands:\n {2}list /);
  });
});
