// One benchmark target per child process, so no server shares an event loop with the load generator or another server.
//
// usage: node --import tsx bench/serve-targets.ts <embedded|ceiling|fastify-static|sirv|express-static> <site-dir> <base-url>
// Prints `READY <url>` once listening; the parent kills the process when done.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { buildRouteTable } from '../src/build.ts';
import { fixtureReader } from '../src/cli.ts';
import { marketNotFound } from '../src/render/problem.ts';
import { startServer } from '../src/server.ts';
import { ROWS } from './serve-rows.ts';

const [kind = '', root = '', baseUrl = ''] = process.argv.slice(2);
const HOST = '127.0.0.1';
const fixtures = new URL('../fixtures/', import.meta.url).pathname;

function ready(url: string): void {
  process.stdout.write(`READY ${url}\n`);
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): void {
  const server = createServer(handler);
  server.listen(0, HOST, () => {
    const address = server.address();
    ready(`http://${HOST}:${typeof address === 'object' && address !== null ? address.port : 0}`);
  });
}

/**
 * The Node ceiling: for each benchmark row, the exact bytes the embedded server answers, from a Map keyed by
 * the request target, with only Content-Type and Content-Length. Nothing is parsed, negotiated or validated.
 */
function ceiling(): void {
  const table = buildRouteTable({ baseUrl, read: fixtureReader(fixtures) });
  interface Answer { status: number; headers: Record<string, string | number>; body: Buffer }
  const answers = new Map<string, Answer>();
  for (const row of ROWS) {
    const route = table.routes.get(row.path);
    if (row.kind === 'not-modified') {
      answers.set(row.path, { status: 304, headers: {}, body: Buffer.alloc(0) });
    } else if (row.kind === 'not-found' || route === undefined) {
      const id = row.path.split('/')[3] ?? '';
      const body = Buffer.from(`${JSON.stringify(marketNotFound(baseUrl, id, row.path, table.marketIds), null, 2)}\n`);
      answers.set(row.path, { status: 404, headers: { 'Content-Type': 'application/problem+json', 'Content-Length': body.length }, body });
    } else {
      const variant = row.acceptEncoding === 'gzip' && route.gzip !== undefined ? route.gzip : route.identity;
      answers.set(row.path, { status: 200, headers: { 'Content-Type': route.contentType, 'Content-Length': variant.body.length }, body: variant.body });
    }
  }
  const missing: Answer = { status: 404, headers: { 'Content-Type': 'text/plain', 'Content-Length': 0 }, body: Buffer.alloc(0) };
  listen((req, res) => {
    const answer = answers.get(req.url ?? '') ?? missing;
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
}

async function main(): Promise<void> {
  switch (kind) {
    case 'embedded': {
      const table = buildRouteTable({ baseUrl, read: fixtureReader(fixtures) });
      const running = await startServer(table, { host: HOST, port: 0 });
      ready(running.url);
      return;
    }
    case 'ceiling':
      ceiling();
      return;
    case 'sirv': {
      const { default: sirv } = await import('sirv');
      // extensions let sirv find <path>/index.json and <path>/index.csv for the extensionless routes.
      const serve = sirv(root, { dev: false, etag: true, gzip: true, brotli: true, extensions: ['json', 'csv', 'html'] });
      listen((req, res) => serve(req, res, () => {
        res.writeHead(404, { 'Content-Type': 'text/plain', 'Content-Length': 9 });
        res.end('not found');
      }));
      return;
    }
    case 'express-static': {
      const { default: express } = await import('express');
      const app = express();
      app.disable('x-powered-by');
      app.use(express.static(root, { index: false, redirect: false, etag: true, lastModified: true }));
      const server = app.listen(0, HOST, () => {
        const address = server.address();
        ready(`http://${HOST}:${typeof address === 'object' && address !== null ? address.port : 0}`);
      });
      return;
    }
    case 'fastify-static': {
      const { default: Fastify } = await import('fastify');
      const { default: fastifyStatic } = await import('@fastify/static');
      const app = Fastify({ logger: false });
      await app.register(fastifyStatic, { root, preCompressed: true, index: false, redirect: false, etag: true, lastModified: true });
      const url = await app.listen({ port: 0, host: HOST });
      ready(url);
      return;
    }
    default:
      process.stderr.write(`unknown target ${kind}\n`);
      process.exit(2);
  }
}

// A clean exit on a signal, so `--cpu-prof` runs of a target still write their profile.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
await main();
