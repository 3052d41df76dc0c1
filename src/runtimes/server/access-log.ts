// The optional access log: one JSON line per request, built from what the handler says it sent (no IP, no user agent).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Access-log fields, in the order they are written; docs/serving.md describes each. */
export interface AccessLogEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  /** Body bytes sent (0 for HEAD, 204 and 304). */
  bytes: number;
  encoding: string;
  ms: number;
}

/** What a handler sent for one request. */
export interface Sent {
  bytes: number;
  encoding: string;
}

export type LogLine = (line: string) => void;
export const stdoutLine: LogLine = (line) => process.stdout.write(`${line}\n`);

/** Wraps a handler that returns what it sent; the line is written once the answer is flushed, or the client went away. */
export function logged(handle: (req: IncomingMessage, res: ServerResponse) => Sent, logLine: LogLine): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = process.hrtime.bigint();
    const { bytes, encoding } = handle(req, res);
    const write = (): void => {
      const entry: AccessLogEntry = {
        time: new Date().toISOString(),
        method: req.method ?? '',
        path: (req.url ?? '').split('?')[0] ?? '',
        status: res.statusCode,
        bytes,
        encoding,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      };
      logLine(JSON.stringify(entry));
    };
    if (res.writableFinished) write();
    else {
      // 'close' covers a client that went away before the answer was flushed; one line either way.
      let done = false;
      const once = (): void => {
        if (done) return;
        done = true;
        write();
      };
      res.once('finish', once);
      res.once('close', once);
    }
  };
}

/** The one line of a request the HTTP parser refused before any handler ran; the parser's reason is added. */
export function logRefused(logLine: LogLine, method: string, status: number, bytes: number, error: string): void {
  const entry: AccessLogEntry & { error: string } = { time: new Date().toISOString(), method, path: '-', status, bytes, encoding: 'identity', ms: 0, error };
  logLine(JSON.stringify(entry));
}
