// Accept-Encoding evaluation (RFC 9110 12.5.3): which precompressed representation a request gets; nginx's maps mirror it.

export type Encoding = 'br' | 'gzip' | 'identity';

/** The q-value a request gives each coding we can send. */
export interface Acceptable {
  br: number;
  gzip: number;
  identity: number;
}

/** Without the header only identity is sent. */
export const NO_HEADER: Acceptable = { br: 0, gzip: 0, identity: 1 };
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Parses Accept-Encoding into the q-value of each coding we can send. */
export function parseAcceptEncoding(header: string | undefined): Acceptable {
  if (header === undefined) return NO_HEADER;
  const explicit = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const value = param.slice(eq + 1).trim();
      // A malformed q-value is read as a refusal: sending a coding the client did not ask for is the worse error.
      q = QVALUE.test(value) ? Number(value) : 0;
    }
    const key = name === 'x-gzip' ? 'gzip' : name;
    explicit.set(key, Math.max(explicit.get(key) ?? 0, q));
  }
  const star = explicit.get('*');
  const of = (coding: string, fallback: number): number => explicit.get(coding) ?? star ?? fallback;
  return { br: of('br', 0), gzip: of('gzip', 0), identity: of('identity', 1) };
}

/** Highest q wins; on a tie the smaller encoding (br, then gzip, then identity); a coding at q=0 is never chosen. */
export function chooseEncoding<T>(available: { identity: T; gzip: T | undefined; br: T | undefined }, accept: Acceptable): T {
  let best = available.identity;
  let bestQ = accept.identity;
  if (available.gzip !== undefined && accept.gzip > 0 && accept.gzip >= bestQ) {
    best = available.gzip;
    bestQ = accept.gzip;
  }
  if (available.br !== undefined && accept.br > 0 && accept.br >= bestQ) best = available.br;
  // When nothing is acceptable, identity is still sent (RFC 9110 12.5.3 allows ignoring the header).
  return best;
}
