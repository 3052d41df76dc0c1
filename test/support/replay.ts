// A loopback HTTP server that replays files at the agencies' paths, and each way a download goes wrong: the only upstream `fetch` tests talk to.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

/** How the server answers one path (path and query, as the agency's address has them). */
export type Reply =
  /** The file, chunked; with `declared`, a Content-Length of its bytes instead, as most agency servers send it. */
  | { kind: 'file'; body: Buffer | string; type?: string; lastModified?: string; declared?: boolean }
  | { kind: 'status'; status: number }
  | { kind: 'html'; body?: string }
  /** The file gzip-compressed, with Content-Encoding: gzip and the Content-Length of the compressed bytes, as a CDN sends it. */
  | { kind: 'gzip'; body: Buffer | string }
  /** A redirect (302) to this address. */
  | { kind: 'redirect'; location: string }
  | { kind: 'truncated'; body: Buffer | string }
  /** Never answers: the client's timeout must end the request. */
  | { kind: 'silent' }
  /** Answers 503 this many times, then the file. */
  | { kind: 'flaky'; failures: number; body: Buffer | string };

export interface Replay {
  origin: string;
  /** Replies by path and query; change them between runs. */
  replies: Map<string, Reply>;
  /** Requests seen, path and query. */
  seen: string[];
  close(): Promise<void>;
}

export async function startReplay(): Promise<Replay> {
  const replies = new Map<string, Reply>();
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  // Counted per reply, so a reply set for one test starts afresh whatever earlier tests asked of the same path.
  const answered = new WeakMap<Reply, number>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '/';
    seen.push(target);
    const reply = replies.get(target);
    if (reply === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not replayed\n');
      return;
    }
    const count = (answered.get(reply) ?? 0) + 1;
    answered.set(reply, count);
    switch (reply.kind) {
      case 'file':
        res
          .writeHead(200, {
            'Content-Type': reply.type ?? 'text/plain',
            ...(reply.lastModified === undefined ? {} : { 'Last-Modified': reply.lastModified }),
            ...(reply.declared === true ? { 'Content-Length': String(Buffer.byteLength(reply.body)) } : {}),
          })
          .end(reply.body);
        return;
      case 'status':
        res.writeHead(reply.status, { 'Content-Type': 'text/plain' }).end(`status ${reply.status}\n`);
        return;
      case 'html':
        res
          .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
          .end(reply.body ?? '<!DOCTYPE html><html><body><h1>We are down for maintenance</h1></body></html>\n');
        return;
      case 'gzip': {
        const body = gzipSync(Buffer.from(reply.body));
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip', 'Content-Length': String(body.length) }).end(body);
        return;
      }
      case 'redirect':
        res.writeHead(302, { Location: reply.location }).end();
        return;
      case 'truncated': {
        const body = Buffer.from(reply.body);
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(body.length) });
        res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
        return;
      }
      case 'silent':
        return;
      case 'flaky':
        if (count <= reply.failures) res.writeHead(503, { 'Content-Type': 'text/plain' }).end('busy\n');
        else res.writeHead(200, { 'Content-Type': 'text/plain' }).end(reply.body);
        return;
    }
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    replies,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
