// The other side of bench:startup: a bare node:http server that answers 200 as soon as it listens, started through npm like `npm start`.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string', default: '3000' } } });
const body = Buffer.from('{"markets":[]}\n');
createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
}).listen(Number(values.port), '127.0.0.1');
