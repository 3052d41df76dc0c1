// The stock nginx bench:serve measures the generated configuration against: one worker, access_log off, etag on, one `location = /path` per row with `alias` to the very file and each header as a literal string; and the same with the file transport of our nginx.conf (sendfile, tcp_nopush, open_file_cache).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from '../src/artifact/nginx-syntax.ts';
import { findNginx, runNginx, type NginxRun } from '../scripts/nginx-run.ts';

/** What stock nginx answers at one path: the file it sends (or, for an error, the body), with our answer's headers. */
export interface StockAnswer {
  path: string;
  status: number;
  contentType: string;
  /** The file sent for a 200 (absolute), as our configuration sends it. */
  file?: string;
  /** The body of an error answer, as our configuration sends it. */
  body?: string;
  /** Every other header of our answer, as sent (not Content-Type, Content-Length, ETag, Last-Modified, Date, Server, Connection: nginx makes those). */
  headers: readonly (readonly [string, string])[];
}

/** Headers stock nginx makes itself, from the file or the connection: never added as literals. */
export const MADE_BY_NGINX = new Set([
  'content-type',
  'content-length',
  'etag',
  'last-modified',
  'date',
  'server',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** The minimal nginx.conf: nothing of the generated configuration, every answer a literal location. */
export function stockNginxConf(runDir: string, host: string, port: number, answers: readonly StockAnswer[], transport: boolean): string {
  const location = (a: StockAnswer): string[] => [
    `        location = ${quote(a.path)} {`,
    `            default_type ${quote(a.contentType)};`,
    ...a.headers.map(([name, value]) => `            add_header ${name} ${quote(value)}${a.status >= 400 ? ' always' : ''};`),
    a.file === undefined ? `            return ${a.status} ${quote(a.body ?? '')};` : `            alias ${quote(a.file)};`,
    '        }',
  ];
  return [
    `# Stock nginx for bench:serve: defaults but for one worker, no access log${transport ? ', our file transport' : ''} and the literal locations.`,
    'daemon off;',
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'worker_processes 1;',
    `pid ${quote(join(runDir, 'nginx.pid'))};`,
    `error_log ${quote(join(runDir, 'error.log'))} warn;`,
    'events {',
    '    worker_connections 1024;',
    '}',
    'http {',
    '    access_log off;',
    '    etag on;',
    // With `transport`, as the nginx.conf our configuration runs in (src/artifact/nginx.ts nginxMainConf): the ratio is
    // then the cost of http.conf and server.conf alone, not of how files reach the socket.
    ...(transport ? ['    sendfile on;', '    tcp_nopush on;', '    open_file_cache max=1000 inactive=30s;', '    open_file_cache_valid 5s;'] : []),
    '    types { }',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${quote(join(runDir, t))};`),
    '    server {',
    `        listen ${host}:${port};`,
    ...answers.flatMap(location),
    '    }',
    '}',
    '',
  ].join('\n');
}

/** Starts the stock nginx in the foreground; resolves once it listens. */
export async function startStockNginx(runDir: string, host: string, port: number, answers: readonly StockAnswer[], transport: boolean): Promise<NginxRun> {
  mkdirSync(runDir, { recursive: true });
  const confPath = join(runDir, 'nginx.conf');
  writeFileSync(confPath, stockNginxConf(runDir, host, port, answers, transport));
  const errorLog = join(runDir, 'error.log');
  return runNginx(findNginx(), ['-p', runDir, '-c', confPath, '-e', errorLog], confPath, host, port, errorLog);
}
