// `npm run serve:nginx` and `npm run serve:edge` serve the archive of the configured ARCHIVE_DIR, as the embedded server does: a past vintage answers 200 with its archived bytes; and serve:edge outlives a request that once stopped it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { freePort } from '../../scripts/nginx-run.ts';
import { ARCHIVE_BASE_URL } from '../../src/contract/paths.ts';
import { copyWorldArchive } from '../world/world.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The first release, which no current snapshot is: only the archive can serve it. */
const PAST = '2026-11-24';
const AUSTIN = 'us-tx-austin';

/**
 * Runs `npm run <script>` on a free port with the world's archive copied to a folder of its own (`--archive`, so the
 * default archive/ cannot be what answers), and hands the running address to `check`; the script's process group goes
 * at the end, whatever happens.
 */
async function withScript(script: string, check: (base: string, archive: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `mp-${script.replace(':', '-')}-archive-`));
  const archive = join(dir, 'archive');
  copyWorldArchive(archive);
  const port = await freePort();
  const npm = spawn('npm', ['run', script, '--', '--port', String(port), '--out', join(dir, 'dist'), '--archive', archive], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (c: Buffer) => (output += c.toString()));
  npm.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((done) => npm.once('exit', (code) => done(code)));
  try {
    // Ready when the script prints its serving line: it does so once its server answers.
    await new Promise<void>((ready, reject) => {
      const seen = (): void => {
        if (/\bserving\b/.test(output)) ready();
      };
      npm.stdout.on('data', seen);
      void exited.then(() => reject(new Error(`npm run ${script} exited before serving:\n${output}`)));
    });
    await check(`http://127.0.0.1:${port}`, archive);
    npm.kill('SIGTERM');
    assert.equal(await exited, 0, `npm's exit code\n${output}`);
  } finally {
    try {
      process.kill(-(npm.pid as number), 'SIGKILL');
    } catch {
      // the group is gone already
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The archived profile of Austin on PAST, as served at `port`: the archived bytes with the links' origin put back. */
const archived = (archive: string, port: string): string =>
  readFileSync(join(archive, PAST, `markets/${AUSTIN}.json`), 'utf8').replaceAll(ARCHIVE_BASE_URL, `http://localhost:${port}`);

for (const script of ['serve:nginx', 'serve:edge']) {
  describe(`npm run ${script} serves the configured archive`, () => {
    test(`/api/vintages/${PAST}/markets/${AUSTIN} answers 200 with the archived bytes, immutable`, async () => {
      await withScript(script, async (base, archive) => {
        const res = await fetch(`${base}/api/vintages/${PAST}/markets/${AUSTIN}`);
        const body = await res.text();
        assert.equal(res.status, 200, body.slice(0, 300));
        assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        assert.equal(body, archived(archive, new URL(base).port));
        const index = (await (await fetch(`${base}/api/vintages`)).json()) as { vintages: { snapshotDate: string }[] };
        assert.ok(
          index.vintages.some((v) => v.snapshotDate === PAST),
          `the vintage index lists ${PAST}: ${index.vintages.map((v) => v.snapshotDate).join()}`,
        );
      });
    });
  });
}

/** Sends `head` on a connection of its own and closes it at once, as a client that gives up would. */
const sendAndClose = (base: string, head: string): Promise<void> =>
  new Promise((done) => {
    const url = new URL(base);
    const socket = connect(Number(url.port), url.hostname, () => socket.end(head));
    socket.on('error', () => done());
    socket.on('close', () => done());
    socket.resume();
  });

describe('npm run serve:edge outlives any one request', () => {
  test('a body announced as 10^20 bytes and never sent, the connection closed at once: the next requests are answered', async () => {
    await withScript('serve:edge', async (base) => {
      for (const head of [
        'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n',
        'POST /api/markets HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n',
        'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab',
      ]) {
        await sendAndClose(base, head);
        // A dead port would leave the request hanging: the guard turns that into a failure, it measures nothing.
        const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(60_000) });
        assert.equal(res.status, 200, `after ${JSON.stringify(head.split('\r\n').slice(0, 3))}`);
        await res.text();
      }
    });
  });
});
