// The other side of bench:slow-readers: a bare node:http server answering each route's identity bytes from a Map.
//
// usage: node --import tsx bench/slow-readers-bare.ts <out-dir> — prints `READY <port>` once listening.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { readBuild } from '../src/artifact/manifest.ts';

const [outDir = ''] = process.argv.slice(2);
// The build's own fingerprint: this side serves what it holds, whatever code wrote it.
const { builtFrom } = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as { builtFrom: string };
const table = readBuild(outDir, builtFrom);
if (table === undefined) throw new Error(`${outDir}/ holds no build of these inputs`);
const answers = new Map([...table.routes].map(([path, route]) => [path, { type: route.contentType, body: route.identity.body }]));
const missing = { type: 'text/plain', body: Buffer.alloc(0) };
const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '') ?? missing;
  res.writeHead(answer === missing ? 404 : 200, { 'Content-Type': answer.type, 'Content-Length': answer.body.length });
  res.end(answer.body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`READY ${typeof address === 'object' && address !== null ? address.port : 0}\n`);
});
