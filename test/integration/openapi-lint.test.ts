// /api/openapi through the linters API teams run in CI: Redocly CLI's recommended ruleset and Spectral's spectral:oas, as development dependencies, offline, on the document as built.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PATHS } from '../../src/contract/paths.ts';
import { body, buildTable } from '../support/data.ts';

type Json = Record<string, unknown>;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REDOCLY = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const SPECTRAL = join(ROOT, 'node_modules/@stoplight/spectral-cli/dist/index.js');

/** A linter run from the repository, so it reads the committed redocly.yaml and .spectral.yaml; its exit code is not what is judged, its findings are. */
const lint = (args: string[]): Promise<{ stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' } },
      (_error, stdout, stderr) => resolve({ stdout, stderr }),
    );
  });

/** Redocly's findings, as `<rule> <pointer>`, and its totals. */
async function redocly(file: string): Promise<{ totals: Json; problems: string[] }> {
  const { stdout, stderr } = await lint([REDOCLY, 'lint', '--format=json', file]);
  assert.ok(stdout.trim().startsWith('{'), `redocly printed no report: ${stderr}`);
  const report = JSON.parse(stdout) as { totals: Json; problems: { ruleId: string; location: { pointer: string }[] }[] };
  return { totals: report.totals, problems: report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}`) };
}

/** Spectral's findings of any severity (error, warning, information, hint), as `<rule> <path>`. */
async function spectral(file: string): Promise<string[]> {
  const { stdout, stderr } = await lint([SPECTRAL, 'lint', '--format=json', '--quiet', file]);
  assert.ok(stdout.trim().startsWith('['), `spectral printed no report: ${stdout}${stderr}`);
  return (JSON.parse(stdout) as { code: string; path: string[] }[]).map((r) => `${r.code} ${r.path.join('.')}`);
}

describe('the OpenAPI document passes the linters API teams run, with nothing switched off but one rule, for its reason', () => {
  let dir: string;
  /** The document as `npm start` serves it (BASE_URL http://localhost:3000), and as a deployment at a public address builds it. */
  const files: Record<string, string> = {};
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mp-openapi-lint-'));
    for (const [name, baseUrl] of [
      ['local', 'http://localhost:3000'],
      ['deployment', 'https://data.example.org'],
    ] as const) {
      files[name] = join(dir, `${name}.json`);
      writeFileSync(files[name], body(buildTable(baseUrl), PATHS.openApi));
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("Redocly CLI, recommended ruleset (redocly.yaml): 0 errors, 0 warnings, on the local build's document and a deployment's", async () => {
    for (const name of ['local', 'deployment']) {
      const { totals, problems } = await redocly(files[name] ?? '');
      assert.deepEqual({ totals, problems }, { totals: { errors: 0, warnings: 0, ignored: 0 }, problems: [] }, name);
    }
  });

  test("Spectral, spectral:oas (.spectral.yaml): no finding of any severity, on the local build's document and a deployment's", async () => {
    for (const name of ['local', 'deployment']) assert.deepEqual(await spectral(files[name] ?? ''), [], name);
  });

  test('the one rule switched off is the one redocly.yaml names, and a deployment passes it anyway', async () => {
    const config = readFileSync(join(ROOT, 'redocly.yaml'), 'utf8');
    assert.deepEqual(
      [...config.matchAll(/^ {2}([a-z0-9.-]+): off$/gm)].map((m) => m[1]),
      ['no-server-example.com'],
    );
    assert.match(config, /^extends:\n {2}- recommended$/m);
    assert.equal(readFileSync(join(ROOT, '.spectral.yaml'), 'utf8').replace(/^#.*\n/gm, ''), 'extends:\n  - spectral:oas\n');
    // With the recommended ruleset alone (no redocly.yaml), the deployment's document has nothing to report; the local one only its localhost server.
    const alone = async (file: string): Promise<string[]> => {
      const { stdout } = await lint([REDOCLY, 'lint', '--format=json', '--config', join(dir, 'none.yaml'), file]);
      return (JSON.parse(stdout) as { problems: { ruleId: string }[] }).problems.map((p) => p.ruleId);
    };
    writeFileSync(join(dir, 'none.yaml'), 'extends:\n  - recommended\n');
    assert.deepEqual(await alone(files.deployment ?? ''), []);
    assert.deepEqual(await alone(files.local ?? ''), ['no-server-example.com']);
  });

  test('the linters are no formality: the document without security, tags, 4xx answers, licence and contact fails both, as the issue found it', async () => {
    const doc = JSON.parse(readFileSync(files.deployment ?? '', 'utf8')) as Json;
    delete doc.security;
    delete doc.tags;
    const info = doc.info as Json;
    delete info.license;
    delete info.contact;
    for (const item of Object.values(doc.paths as Json)) {
      const get = (item as Json).get as Json;
      delete get.tags;
      delete (get.responses as Json)['4XX'];
      delete (get.responses as Json)['404'];
    }
    // The answer the 4XX entries referred to, which would otherwise be left unused (a finding of its own).
    delete ((doc.components as Json).responses as Json).ClientError;
    const bare = join(dir, 'bare.json');
    writeFileSync(bare, JSON.stringify(doc));
    const operations = Object.keys(doc.paths as Json).length;
    const found = await redocly(bare);
    const rules = (list: string[]): Record<string, number> =>
      Object.fromEntries([...new Set(list.map((p) => p.split(' ')[0] ?? ''))].map((r) => [r, list.filter((p) => p.startsWith(`${r} `)).length]));
    assert.deepEqual(rules(found.problems), { 'security-defined': operations, 'operation-4xx-response': operations, 'info-license': 1 });
    assert.deepEqual(rules(await spectral(bare)), { 'info-contact': 1, 'operation-tags': operations });
  });
});
