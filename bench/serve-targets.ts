// One benchmark target per child process, so no server shares an event loop with the load generator or another server.
//
// usage: node --import tsx bench/serve-targets.ts <embedded|ceiling|bare|fastify-static|sirv|express-static> <site-dir> <base-url>
// Prints `READY <url>` once listening; the parent kills the process when done. sirv, express and fastify come from
// bench/package.json (the parent installs them first).
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { buildRouteTable } from '../src/pipeline/build.ts';
import { fixturesOnDisk } from '../src/sources/load.ts';
import { marketProblem, problemText } from '../src/protocol/problems.ts';
import { startServer } from '../src/runtimes/server/listener.ts';
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

interface Answer {
  status: number;
  headers: string[];
  body: Buffer;
}

/** Answers each row's request target from a Map, nothing parsed, negotiated or validated. */
function answerFromMap(answers: Map<string, Answer>, quietKeepAlive: boolean): void {
  const missing: Answer = { status: 404, headers: ['Content-Type', 'text/plain', 'Content-Length', '0'], body: Buffer.alloc(0) };
  listen((req, res) => {
    const answer = answers.get(req.url ?? '') ?? missing;
    // The embedded server leaves node's Connection/Keep-Alive lines out of persistent HTTP/1.1 answers.
    if (quietKeepAlive && res.shouldKeepAlive) res.removeHeader('connection');
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
}

function fetchRaw(url: string, headers: Record<string, string>): Promise<Answer & { etag: string | undefined }> {
  return new Promise((done, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i] ?? '';
          // Node adds these itself on every answer.
          if (!['date', 'connection', 'keep-alive'].includes(name.toLowerCase())) raw.push(name, res.rawHeaders[i + 1] ?? '');
        }
        done({ status: res.statusCode ?? 0, headers: raw, body: Buffer.concat(chunks), etag: res.headers.etag });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The Node ceiling: for each benchmark row, the very bytes the embedded server answers (status, every header line
 * in its order, body; captured from it once at start-up), sent back from a Map keyed by the request target.
 * What separates the embedded server from this is only its work per request: reading the request, routing,
 * negotiation, conditionals and path safety.
 */
async function ceiling(): Promise<void> {
  const table = buildRouteTable({ baseUrl, read: fixturesOnDisk(fixtures) });
  const source = await startServer(table, { host: HOST, port: 0 });
  const answers = new Map<string, Answer>();
  for (const row of ROWS) {
    const headers: Record<string, string> = row.acceptEncoding === undefined ? {} : { 'Accept-Encoding': row.acceptEncoding };
    let answer = await fetchRaw(`${source.url}${row.path}`, headers);
    if (row.kind === 'not-modified') answer = await fetchRaw(`${source.url}${row.path}`, { ...headers, 'If-None-Match': answer.etag ?? '' });
    answers.set(row.path, { status: answer.status, headers: answer.headers, body: answer.body });
  }
  await source.close();
  answerFromMap(answers, true);
}

/**
 * A bare node:http server: the same bodies and statuses with only Content-Type and Content-Length, and node's
 * default Connection/Keep-Alive lines. Shows what the headers docs/contract.md 4 requires cost on each row.
 */
function bare(): void {
  const table = buildRouteTable({ baseUrl, read: fixturesOnDisk(fixtures) });
  const answers = new Map<string, Answer>();
  for (const row of ROWS) {
    const route = table.routes.get(row.path);
    if (row.kind === 'not-modified') {
      answers.set(row.path, { status: 304, headers: [], body: Buffer.alloc(0) });
    } else if (row.kind === 'not-found' || route === undefined) {
      const id = row.path.split('/')[3] ?? '';
      const body = Buffer.from(problemText(marketProblem(baseUrl, id, row.path, table.marketIds)));
      answers.set(row.path, { status: 404, headers: ['Content-Type', 'application/problem+json', 'Content-Length', String(body.length)], body });
    } else {
      const variant = row.acceptEncoding === 'gzip' && route.gzip !== undefined ? route.gzip : route.identity;
      answers.set(row.path, { status: 200, headers: ['Content-Type', route.contentType, 'Content-Length', String(variant.body.length)], body: variant.body });
    }
  }
  answerFromMap(answers, false);
}

async function main(): Promise<void> {
  switch (kind) {
    case 'embedded': {
      const table = buildRouteTable({ baseUrl, read: fixturesOnDisk(fixtures) });
      const running = await startServer(table, { host: HOST, port: 0 });
      ready(running.url);
      return;
    }
    case 'ceiling':
      await ceiling();
      return;
    case 'bare':
      bare();
      return;
    case 'sirv': {
      const { default: sirv } = await import('sirv');
      // extensions let sirv find <path>/index.json and <path>/index.csv for the extensionless routes.
      const serve = sirv(root, { dev: false, etag: true, gzip: true, brotli: true, extensions: ['json', 'csv', 'html'] });
      listen((req, res) =>
        serve(req, res, () => {
          res.writeHead(404, { 'Content-Type': 'text/plain', 'Content-Length': 9 });
          res.end('not found');
        }),
      );
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
