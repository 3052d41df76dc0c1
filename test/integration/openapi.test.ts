// /api/openapi: an OpenAPI 3.1 document an independent validator accepts, made from the contract's own schemas, the error catalogue and the served bytes; every response it lists is what the embedded server and nginx answer; a client generated from it compiles and works.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { validate } from '@readme/openapi-parser';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { PROFILE_CAVEATS } from '../../src/contract/schemas.ts';
import { EXAMPLE_UNKNOWN_DATE, EXAMPLE_UNKNOWN_MARKET } from '../../src/describe/openapi.ts';
import { judgeRequest } from '../../src/protocol/verdict.ts';
import { Answers } from '../../src/runtimes/server/answers.ts';
import { PROBLEM_CODES } from '../../src/protocol/problems.ts';
import { PATHS } from '../../src/contract/paths.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { nginxOverFreshBuild } from '../../scripts/nginx-run.ts';
import { BASE_URL, body, buildTable } from '../support/data.ts';
import { startEmbedded } from '../support/embedded.ts';
import { checkConformance } from '../support/openapi-conformance.ts';
import { worldInputs } from '../world/world.ts';
import { WORLD_MARKET_IDS } from '../world/world.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
type Json = Record<string, unknown>;
type Run = { status: number; stdout: string; stderr: string };
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const table = buildTable();
const doc = JSON.parse(body(table, PATHS.openApi)) as Json;
const components = obj(doc.components);
const schemas = obj(components.schemas);
const withoutMeta = (schema: Json): Json => Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema' && k !== '$id'));

/** Whether `part` is some of `whole`'s items, in their order, each an excerpt of its item. */
function isSubsequence(part: readonly unknown[], whole: readonly unknown[], same: (a: unknown, b: unknown) => boolean): boolean {
  let at = 0;
  for (const item of part) {
    while (at < whole.length && !same(item, whole[at])) at += 1;
    if (at === whole.length) return false;
    at += 1;
  }
  return true;
}

/**
 * True when `example` is `served` or a part of it: objects with some of its keys, arrays with some of their items in
 * their order, a CSV's header line with some of its lines, in their order.
 */
function isExcerpt(example: unknown, served: unknown): boolean {
  if (typeof example === 'string' && typeof served === 'string') {
    if (example === served) return true;
    const [head, ...lines] = example.split('\r\n');
    const [servedHead, ...servedLines] = served.split('\r\n');
    return example.endsWith('\r\n') && head === servedHead && isSubsequence(lines.slice(0, -1), servedLines, (a, b) => a === b);
  }
  if (Array.isArray(example)) return Array.isArray(served) && isSubsequence(example, served, isExcerpt);
  if (typeof example === 'object' && example !== null)
    return typeof served === 'object' && served !== null && Object.entries(example).every(([k, v]) => isExcerpt(v, (served as Json)[k]));
  return example === served;
}

describe('the OpenAPI document, as built', () => {
  test('an independent validator (@readme/openapi-parser) accepts it as OpenAPI 3.1, with no warning', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const result = await validate(structuredClone(doc) as never);
    assert.deepEqual(result, { valid: true, warnings: [], specification: 'OpenAPI' });
  });

  test('the validator is not a formality: a response without a description, and a path parameter left undeclared, are refused', async () => {
    const broken = structuredClone(doc) as Json;
    delete obj(obj(obj(obj(obj(broken.paths)[PATHS.index]).get).responses)['200']).description;
    assert.equal((await validate(broken as never)).valid, false);
    const undeclared = structuredClone(doc) as Json;
    delete obj(obj(undeclared.paths)['/api/markets/{marketId}']).get;
    obj(obj(undeclared.paths)['/api/markets/{marketId}']).get = { responses: { 200: { description: 'x' } } };
    assert.equal((await validate(undeclared as never)).valid, false);
  });

  test('describes every route under /api/ and /healthz, and nothing else', () => {
    const ids = obj(obj(obj(components.parameters).marketId).schema).enum as string[];
    const dates = obj(obj(obj(components.parameters).snapshotDate).schema).enum as string[];
    const described = Object.keys(obj(doc.paths))
      .flatMap((t) => (t.includes('{snapshotDate}') ? dates.map((d) => t.replace('{snapshotDate}', d)) : [t]))
      .flatMap((t) => (t.includes('{marketId}') ? ids.map((id) => t.replace('{marketId}', id)) : [t]));
    const routes = [...table.routes.keys()].filter((p) => p.startsWith('/api/') || p === PATHS.health);
    assert.deepEqual([...described].sort(), [...routes].sort());
  });

  test('the market-id parameter is the enumeration of the markets built, and the problem codes are the catalogue', () => {
    assert.deepEqual(obj(obj(obj(components.parameters).marketId).schema).enum, [...WORLD_MARKET_IDS].sort());
    assert.deepEqual(obj(obj(obj(schemas.Problem).properties).code).enum, PROBLEM_CODES);
  });

  test('its schemas are the published ones, from the one contract definition: the same bytes as /api/schema/*', () => {
    assert.deepEqual(schemas.MarketProfile, withoutMeta(JSON.parse(body(table, PATHS.profileSchema)) as Json));
    assert.deepEqual(schemas.MarketIndex, withoutMeta(JSON.parse(body(table, PATHS.indexSchema)) as Json));
    assert.deepEqual(schemas.MarketSeries, withoutMeta(JSON.parse(body(table, PATHS.seriesSchema)) as Json));
    assert.deepEqual(schemas.VintageIndex, withoutMeta(JSON.parse(body(table, PATHS.vintagesSchema)) as Json));
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    assert.ok(ajv.validate(schemas.CsvDescriptor as Json, JSON.parse(body(table, PATHS.csvDescriptor))), JSON.stringify(ajv.errors));
  });

  test('every example is the body served at its path, or an excerpt of it', () => {
    let count = 0;
    for (const [template, item] of Object.entries(obj(doc.paths))) {
      for (const [status, response] of Object.entries(obj(obj(obj(item).get).responses))) {
        for (const media of Object.values(obj(obj(response).content))) {
          for (const [name, ex] of Object.entries(obj(obj(media).examples))) {
            const value = obj(ex).value;
            count += 1;
            if (status !== '200') {
              assert.ok(PROBLEM_CODES.includes(obj(value).code as never) && obj(value).status === Number(status), `${template} ${status}: example ${name}`);
              continue;
            }
            const date = String(obj(obj(components.parameters).snapshotDate).example);
            const path = template.replace('{marketId}', name).replace('{snapshotDate}', date);
            const text = template === PATHS.openApi ? undefined : body(table, path);
            const served = text === undefined ? doc : table.routes.get(path)?.kind === 'csv' ? text : (JSON.parse(text) as unknown);
            assert.ok(isExcerpt(value, served), `${template}: example ${name} is not what ${path} serves`);
          }
        }
      }
    }
    assert.ok(count >= 12, `${count} examples`);
  });

  test("served compact, its examples one market each (a series, each metric's latest observation), the headers every response shares said once: under 200 KB", () => {
    const served = body(table, PATHS.openApi);
    assert.equal(served, `${JSON.stringify(doc)}\n`, 'compact JSON');
    assert.ok(Buffer.byteLength(served) < 200_000, `${Buffer.byteLength(served)} bytes`);
    const ok = (template: string): Json => obj(obj(obj(obj(obj(doc.paths)[template]).get).responses)['200']);
    const first = (template: string): unknown => obj(Object.values(obj(obj(Object.values(obj(ok(template).content))[0]).examples))[0]).value;
    const markets = [...WORLD_MARKET_IDS].sort();
    const csvExamples: [string, string][] = [
      [PATHS.bulkCsv, markets[0] ?? ''],
      [PATHS.bulkSeriesCsv, markets[0] ?? ''],
      ['/api/markets/{marketId}/series/csv', 'us-tx-austin'],
    ];
    for (const [template, market] of csvExamples) {
      const [, ...rows] = String(first(template)).split('\r\n').slice(0, -1);
      assert.deepEqual([...new Set(rows.map((row) => row.split(',')[0]))], [market], template);
      if (template.includes('series')) assert.equal(new Set(rows.map((row) => row.split(',')[1])).size, rows.length, `${template}: one row per metric`);
    }
    const series = obj(obj(first('/api/markets/{marketId}/series')).metrics);
    for (const [id, metric] of Object.entries(series)) assert.equal((obj(metric).observations as unknown[]).length, 1, id);
    assert.equal((obj(first(PATHS.index)).markets as unknown[]).length, 1);
    assert.deepEqual(obj(ok(PATHS.index).headers).ETag, { $ref: '#/components/headers/ETag' });
  });

  test('every path that names a market or a date declares the 404 it answers, with the body an unknown one gets', () => {
    const answers = new Answers(table);
    let vintage = 0;
    for (const [template, item] of Object.entries(obj(doc.paths))) {
      if (!template.includes('{')) continue;
      const notFound = obj(obj(obj(obj(item).get).responses)['404']);
      assert.ok(typeof notFound.description === 'string', `${template}: declares a 404`);
      if (!template.includes('{snapshotDate}')) continue;
      vintage += 1;
      const example = obj(Object.values(obj(obj(obj(notFound.content)['application/problem+json']).examples))[0]);
      const path = template.replace('{snapshotDate}', EXAMPLE_UNKNOWN_DATE).replace('{marketId}', 'us-tx-austin');
      assert.equal(example.summary, `GET ${path}`, template);
      const verdict = judgeRequest('GET', path, answers.route, answers.classify);
      assert.equal(verdict.kind, 'not_found', path);
      const answer = answers.notFound(verdict.kind === 'not_found' ? verdict.path : '');
      assert.equal(answer.status, 404, path);
      assert.deepEqual(example.value, JSON.parse(answer.body.toString('utf8')), `${template}: the example is the body served at ${path}`);
    }
    assert.equal(vintage, 4, 'the four vintage paths');
  });

  test('the data catalog page lists it with the Data Package, the served schemas, the client package and how to get it, the commands and docs/contract.md', () => {
    const html = body(table, PATHS.dataCatalog);
    for (const needle of [
      `href="${PATHS.openApi}"`,
      `href="${PATHS.dataPackage}"`,
      ...[PATHS.profileSchema, PATHS.indexSchema, PATHS.seriesSchema, PATHS.vintagesSchema, PATHS.csvDescriptor, PATHS.seriesCsvDescriptor].map(
        (p) => `href="${p}"`,
      ),
      'id="consumers"',
      'docs/contract.md',
      'market-profiles-client',
      '<code>npm pack</code> in its <code>client/</code> folder',
      'market-profiles list',
      'rel=&quot;service-desc&quot;',
    ])
      assert.ok(html.includes(needle), needle);
  });

  test("carries the caveats in its description, and the index's Link header names it (rel=service-desc), the index's links as listed", () => {
    for (const caveat of PROFILE_CAVEATS) assert.ok(String(obj(doc.info).description).includes(caveat), caveat);
    const link = table.routes.get(PATHS.index)?.headers.find(([k]) => k === 'Link')?.[1];
    assert.equal(link, `<${BASE_URL}${PATHS.indexSchema}>; rel="describedby", <${BASE_URL}${PATHS.openApi}>; rel="service-desc"`);
    assert.deepEqual(Object.keys(obj(obj(JSON.parse(body(table, PATHS.index))).links)), [
      'self',
      'bulkCsv',
      'profileSchema',
      'csvDescriptor',
      'indexSchema',
      'html',
      'bulkSeriesCsv',
      'vintages',
      'download',
    ]);
  });
});

/**
 * One embedded server for this file, started on first use and closed after its last test: the conformance check and
 * the generated client only read from it.
 */
let embedded: ReturnType<typeof startEmbedded> | undefined;
const sharedEmbedded = (): ReturnType<typeof startEmbedded> => (embedded ??= startEmbedded());
after(async () => {
  if (embedded !== undefined) await (await embedded).running.close();
});

for (const [name, start] of [
  [
    'the embedded server',
    async () => {
      const { baseUrl } = await sharedEmbedded();
      return { baseUrl, stop: () => Promise.resolve() };
    },
  ],
  ['nginx over dist/', () => nginxOverFreshBuild(worldInputs())],
] as const) {
  describe(`every response the OpenAPI document lists is what ${name} answers`, () => {
    let served: { baseUrl: string; stop: () => Promise<void> };
    before(async () => {
      served = await start();
    });
    after(() => served.stop());

    test('status, Content-Type, each header, and the body against its schema: 200 (identity and br), 304, 404, a malformed path', async () => {
      const document = (await (await fetch(`${served.baseUrl}${PATHS.openApi}`)).json()) as Json;
      assert.equal((document.servers as Json[])[0]?.url, served.baseUrl);
      const { checked } = await checkConformance(served.baseUrl, document, EXAMPLE_UNKNOWN_MARKET);
      assert.ok(checked.length >= 16 * 2 * 2 + 8 * 2 + 4, `${checked.length} requests`);
      assert.ok(checked.includes(`404 GET /api/markets/${EXAMPLE_UNKNOWN_MARKET}/csv`) && checked.includes('400 GET /api/markets/%zz'), checked.join('\n'));
    });
  });
}

describe('a client generated from the served document (openapi-typescript, openapi-fetch) compiles under tsc and works', () => {
  let served: { baseUrl: string; table: RouteTable };
  let dir: string;
  /** openapi-typescript's run, and one tsc program over both test programs (each file's diagnostics are its own). */
  let generate: Run;
  let compile: Run;

  // Asynchronous: the embedded server answers from this very process, so a blocking spawn would starve it.
  const node = (args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      execFile(process.execPath, args, { cwd: dir, encoding: 'utf8' }, (error, stdout, stderr) =>
        resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
      );
    });
  const tsconfig = (files: string[]): string =>
    JSON.stringify({
      compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out', types: [], skipLibCheck: false },
      files,
    });
  /** The first line of each diagnostic tsc printed (a message's further lines are indented). */
  const diagnostics = (output: string): string[] => output.split('\n').filter((line) => line !== '' && !line.startsWith(' '));

  before(async () => {
    const { baseUrl, running } = await sharedEmbedded();
    served = { baseUrl, table: running.table };
    // Under the repository, so the program finds openapi-fetch in node_modules; artifacts/ is ignored by git and every tool.
    mkdirSync(join(ROOT, 'artifacts'), { recursive: true });
    dir = mkdtempSync(join(ROOT, 'artifacts', 'openapi-client-'));
    generate = await node([join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), `${served.baseUrl}${PATHS.openApi}`, '-o', 'api.d.ts']);
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    // A program that uses the generated types as intended, which must compile cleanly and run...
    writeFileSync(
      join(dir, 'main.ts'),
      [
        "import createClient from 'openapi-fetch';",
        "import type { paths } from './api.js';",
        '',
        'const client = createClient<paths>({ baseUrl: process.argv[2] });',
        "const { data, error } = await client.GET('/api/markets/{marketId}', { params: { path: { marketId: 'us-tx-austin' } } });",
        'if (data === undefined) throw new Error(`no profile: ${JSON.stringify(error)}`);',
        'const rent: number | undefined = data.profile.metrics.medianGrossRent?.value;',
        "const version: '1' = data.schemaVersion;",
        'console.log(JSON.stringify({ id: data.market.id, version, rent, caveats: data.caveats.length }));',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'declare.d.ts'), 'declare const process: { argv: string[] };\n');
    // ...and a module that misuses them, which must not. Neither declares anything global, so in one program each file
    // gets exactly the diagnostics it would get alone, and tsc loads and checks the libraries once instead of twice.
    writeFileSync(
      join(dir, 'wrong.ts'),
      "import createClient from 'openapi-fetch';\nimport type { paths } from './api.js';\nconst client = createClient<paths>({ baseUrl: 'http://127.0.0.1:9' });\nexport const p = client.GET('/api/markets/{marketId}', { params: { path: { marketId: 'us-zz-nowhere' } } });\n",
    );
    writeFileSync(join(dir, 'tsconfig.json'), tsconfig(['declare.d.ts', 'main.ts', 'wrong.ts']));
    compile = await node([join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.']);
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test("openapi-typescript turns /api/openapi into types; a program using them fetches Austin's profile", async () => {
    assert.equal(generate.status, 0, `${generate.stdout}${generate.stderr}`);
    assert.deepEqual(
      diagnostics(compile.stdout).filter((line) => !line.startsWith('wrong.ts(')),
      [],
      `tsc reports errors outside wrong.ts:\n${compile.stdout}${compile.stderr}`,
    );
    const run = await node([join(dir, 'out/main.js'), served.baseUrl]);
    assert.equal(run.status, 0, run.stderr);
    const printed = JSON.parse(run.stdout) as Json;
    const austin = JSON.parse(body(served.table, PATHS.profile('us-tx-austin'))) as {
      profile: { metrics: { medianGrossRent: { value: number } } };
    };
    assert.deepEqual(printed, { id: 'us-tx-austin', version: '1', rent: austin.profile.metrics.medianGrossRent.value, caveats: PROFILE_CAVEATS.length });
  });

  test('the generated types are real: an id outside the enumeration does not compile', () => {
    assert.notEqual(compile.status, 0);
    assert.match(compile.stdout, /"us-zz-nowhere"/);
    assert.ok(
      diagnostics(compile.stdout).some((line) => line.startsWith('wrong.ts(') && line.includes('"us-zz-nowhere"')),
      `${compile.stdout}${compile.stderr}`,
    );
  });
});
