// A loopback listener that answers a byte at a time: a 200 that declares 100,000 bytes and sends one every 20 ms, never idle for long, so only a deadline on the whole exchange ends a request to it.
import { createServer, type AddressInfo } from 'node:net';

export interface Dripping {
  /** http://127.0.0.1:<port>, any path. */
  url: string;
  /** Stops listening; resolves once every connection to it has closed. */
  close(): Promise<void>;
}

export async function dripping(): Promise<Dripping> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n');
      const drip = setInterval(() => socket.write(' '), 20);
      socket.on('close', () => clearInterval(drip));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
