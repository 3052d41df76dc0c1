// The benchmark rows, shared by the driver and the target processes so both answer and ask for the same bytes.

export interface Row {
  name: string;
  kind: 'ok' | 'not-modified' | 'not-found';
  /** Route path (static file servers that cannot map it are sent the file's path instead). */
  path: string;
  acceptEncoding?: string;
  status: number;
}

export const ROWS: readonly Row[] = [
  { name: 'profile JSON', kind: 'ok', path: '/api/markets/us-tx-austin', status: 200 },
  { name: 'CSV, gzip accepted', kind: 'ok', path: '/api/markets/us-tx-austin/csv', acceptEncoding: 'gzip', status: 200 },
  { name: '304 (If-None-Match)', kind: 'not-modified', path: '/api/markets/us-ca-san-diego', status: 304 },
  { name: '404 unknown market', kind: 'not-found', path: '/api/markets/us-zz-nowhere', status: 404 },
];
