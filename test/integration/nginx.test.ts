// The shared HTTP contract suite, unchanged, against the real nginx serving a built dist/ with the generated configuration; and `npm run serve:nginx` under SIGTERM.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { freePort, nginxOverFreshBuild } from '../../scripts/nginx-run.ts';
import { defineHttpSuite } from '../support/http-suite.ts';
import { worldInputs } from '../world/world.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// A missing nginx makes start() throw with the install command: the suite fails, it is never skipped. One nginx serves
// the whole suite; its error log is read after the routes (no warning: one per request would fill it, and stall nginx on
// a pipe nobody drains) and at the end (no alert: a map's regex that fails is logged as one).
let served: Awaited<ReturnType<typeof nginxOverFreshBuild>> | undefined;
defineHttpSuite(
  'nginx over dist/',
  async () => {
    served = await nginxOverFreshBuild(worldInputs());
    return served;
  },
  { engine: 'nginx', log: () => served?.run.errorLog() ?? '' },
);

describe('npm run serve:nginx', () => {
  // A supervisor stops a service with SIGTERM to the command it started: nginx must go with it, not keep serving.
  test('SIGTERM to npm stops nginx and exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mp-serve-nginx-'));
    const port = await freePort();
    // Its own process group, so that whatever is left can be cleaned up by that group's id.
    const npm = spawn('npm', ['run', 'serve:nginx', '--', '--port', String(port), '--out', join(dir, 'dist')], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (c: Buffer) => (output += c.toString()));
    npm.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((done) => npm.once('exit', (code) => done(code)));
    try {
      const nginxPid = await new Promise<number>((resolvePid, reject) => {
        const seen = (): void => {
          const pid = /nginx \(pid (\d+)\) serving/.exec(output)?.[1];
          if (pid !== undefined) resolvePid(Number(pid));
        };
        npm.stdout.on('data', seen);
        void exited.then(() => reject(new Error(`npm run serve:nginx exited before serving:\n${output}`)));
      });
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
      npm.kill('SIGTERM');
      assert.equal(await exited, 0, `npm's exit code\n${output}`);
      const alive = (): boolean => {
        try {
          process.kill(nginxPid, 0);
          return true;
        } catch {
          return false;
        }
      };
      // nginx's graceful stop finishes the requests in flight (none here); a generous bound for a busy machine.
      for (let waited = 0; alive() && waited < 10_000; waited += 50) await new Promise((done) => setTimeout(done, 50));
      assert.equal(alive(), false, 'nginx has stopped');
      await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`), 'nothing listens any more');
    } finally {
      try {
        process.kill(-(npm.pid as number), 'SIGKILL');
      } catch {
        // the group is gone already
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
