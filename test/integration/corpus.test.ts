// The seeded malformed corpus on the three engines: the embedded server, nginx and the edge Worker answer each request alike (final status, an interim 100, whether the connection stays open), or differ in a way a row of CORPUS_DIFFERENCES names.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { edgeOverFreshBuild, type MiniflareRun } from '../../scripts/edge-run.ts';
import { freePort, startNginx, type FreshBuildRun, type NginxRun } from '../../scripts/nginx-run.ts';
import { writeBuild } from '../../src/artifact/write.ts';
import { startServer, type RunningServer } from '../../src/runtimes/server/listener.ts';
import { CORPUS_DIFFERENCES, askCorpus, corpusTable, type CorpusAnswer, type CorpusDifference, type OtherEngine, type Outcomes } from '../support/corpus.ts';
import { CORPUS_SEED, CORPUS_SIZE, malformedCorpus, type Malformed } from '../support/fuzz.ts';
import { buildWorld, worldInputs } from '../world/world.ts';

const allows = (o: Outcomes, status: CorpusAnswer['status']): boolean => o === 'any' || (status !== 'bare' && o.includes(status));

/** What differs between an engine's answer and the embedded server's: the status, else an interim 100, else whether the connection stays open. */
function differences(theirs: CorpusAnswer, embedded: CorpusAnswer): CorpusDifference['differs'][] {
  if (theirs.status !== embedded.status) return ['status'];
  const out: CorpusDifference['differs'][] = [];
  if (theirs.interim !== embedded.interim) out.push('interim');
  if (theirs.kept !== undefined && embedded.kept !== undefined && theirs.kept !== embedded.kept) out.push({ kept: theirs.kept });
  return out;
}

const sameKind = (a: CorpusDifference['differs'], b: CorpusDifference['differs']): boolean =>
  typeof a === 'string' || typeof b === 'string' ? a === b : a.kept === b.kept;

/** The row that names one difference of a request, if any. */
const rowFor = (
  engine: OtherEngine,
  m: Malformed,
  differs: CorpusDifference['differs'],
  theirs: CorpusAnswer,
  embedded: CorpusAnswer,
): CorpusDifference | undefined =>
  CORPUS_DIFFERENCES.find(
    (d) =>
      d.engine === engine &&
      sameKind(d.differs, differs) &&
      d.when(m.mutations) &&
      allows(d.theirs, theirs.status) &&
      allows(d.embedded, embedded.status) &&
      (d.own === undefined || d.own === theirs.own),
  );

const shown = (a: CorpusAnswer): string =>
  `${a.status}${a.interim ? ' after a 100' : ''}${a.kept === false ? ', closed' : a.kept === true ? ', kept' : ''}${a.own ? ' (its own)' : ''}`;

describe('the malformed corpus on the three engines', () => {
  let dir = '';
  let nginx: NginxRun | undefined;
  let edge: FreshBuildRun<MiniflareRun> | undefined;
  let embedded: RunningServer | undefined;
  let corpus: Malformed[] = [];
  let host = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mp-corpus-'));
    const [nginxPort, embeddedPort] = [await freePort(), await freePort()];
    const table = buildWorld({ baseUrl: `http://127.0.0.1:${nginxPort}` });
    await writeBuild(table, join(dir, 'dist'));
    nginx = await startNginx({ distDir: join(dir, 'dist'), runDir: join(dir, 'run'), host: '127.0.0.1', port: nginxPort });
    embedded = await startServer(table, { host: '127.0.0.1', port: embeddedPort });
    edge = await edgeOverFreshBuild(worldInputs());
    // The same bytes to every engine, Host included.
    host = `127.0.0.1:${nginxPort}`;
    corpus = malformedCorpus(table, host);
  });
  after(async () => {
    await nginx?.stop();
    await embedded?.close();
    await edge?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test(`seed ${CORPUS_SEED.toString(16)}: ${CORPUS_SIZE.toLocaleString('en-US')} requests, every difference from the embedded server one a row names`, async (t) => {
    const origins: Record<OtherEngine, string> = { nginx: nginx?.url ?? '', edge: edge?.run.url ?? '' };
    const seen = new Map<string, number>();
    const unnamed: string[] = [];
    const bare: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < corpus.length; i = next++) {
        const m = corpus[i] as Malformed;
        const [e, n, w] = await Promise.all([askCorpus(embedded?.url ?? '', m, host), askCorpus(origins.nginx, m, host), askCorpus(origins.edge, m, host)]);
        for (const [engine, theirs] of [
          ['nginx', n],
          ['edge', w],
        ] as const) {
          if (theirs.status === 'bare' || e.status === 'bare') bare.push(`${m.label}: ${engine} ${theirs.status}, embedded ${e.status}`);
          for (const differs of differences(theirs, e)) {
            const row = rowFor(engine, m, differs, theirs, e);
            if (row === undefined) unnamed.push(`${m.label}: ${engine} ${shown(theirs)}; embedded ${shown(e)}`);
            else seen.set(row.name, (seen.get(row.name) ?? 0) + 1);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    t.diagnostic(`${corpus.length} requests; differences by row: ${[...seen].map(([k, v]) => `${k} ${v}`).join('; ')}`);
    assert.equal(corpus.length, CORPUS_SIZE);
    assert.deepEqual(bare, [], 'never bytes without a status line');
    assert.deepEqual(unnamed, [], 'every difference is named in CORPUS_DIFFERENCES');
    // A row the corpus no longer meets is stale: the engines were aligned, or the corpus lost the shape.
    for (const d of CORPUS_DIFFERENCES) assert.ok((seen.get(d.name) ?? 0) > 0, `${d.engine}: ${d.name}: met by the corpus`);
  });
});

test("the docs' tables of the differences are the rows: docs/serving.md for nginx, docs/deploy.md for the edge", () => {
  for (const [engine, doc] of [
    ['nginx', 'serving.md'],
    ['edge', 'deploy.md'],
  ] as const) {
    const text = readFileSync(new URL(`../../docs/${doc}`, import.meta.url), 'utf8');
    const start = `<!-- corpus differences: ${engine} -->\n<!-- prettier-ignore-start -->\n`;
    const from = text.indexOf(start);
    assert.ok(from !== -1, `docs/${doc} has the table of ${engine}'s differences`);
    const table = text.slice(from + start.length, text.indexOf('\n<!-- prettier-ignore-end -->', from));
    assert.equal(table, corpusTable(engine), `docs/${doc}: regenerate the table from corpusTable('${engine}') in test/support/corpus.ts`);
  }
});
