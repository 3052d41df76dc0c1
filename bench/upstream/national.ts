// The fixtures at the two extremes a real download spans: only the markets' own rows, and national-size files with every place around them.
import { fhfaSeriesCodes, MARKETS } from '../../src/contract/markets.ts';
import { withOtherAcsPlaces } from './census-acs-5yr.ts';
import { withOtherBpsPlaces } from './census-bps.ts';
import { withOtherFhfaSeries } from './fhfa-hpi.ts';

/** The national files' size: about 32,000 places in each ACS response, 80,000 FHFA lines, 20,000 rows in each of the four BPS files. */
export const NATIONAL = { acsPlaces: 32_000, fhfaLines: 80_000, bpsRows: 80_000 } as const;

/** The committed fixtures grown to national size, deterministic: the same input gives the same bytes. */
export function nationalFiles(files: ReadonlyMap<string, string>): Map<string, string> {
  const fhfaNow = (files.get('fhfa-hpi/hpi_at_metro.csv') ?? '').split('\n').filter((l) => l.trim() !== '').length;
  return withOtherBpsPlaces(withOtherFhfaSeries(withOtherAcsPlaces(files, NATIONAL.acsPlaces), Math.max(0, NATIONAL.fhfaLines - fhfaNow)), NATIONAL.bpsRows);
}

const placeKeys = new Set(MARKETS.map((m) => `${m.placeGeoid.state}:${m.placeGeoid.place}`));
const seriesCodes = new Set(MARKETS.flatMap((m) => fhfaSeriesCodes(m)));

/** The committed fixtures with every row that is not a market's removed: what a trimmed download would hold at the least. */
export function marketRowsOnly(files: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map(files);
  for (const [path, text] of files) {
    if (path.startsWith('census-acs-5yr/') && path.endsWith('-place.json')) {
      const [header = [], ...rows] = JSON.parse(text) as (string | null)[][];
      const state = header.indexOf('state');
      const place = header.indexOf('place');
      const kept = rows.filter((r) => placeKeys.has(`${r[state] ?? ''}:${r[place] ?? ''}`));
      out.set(path, `[${[header, ...kept].map((r) => JSON.stringify(r)).join(',\n')}]\n`);
    } else if (path === 'fhfa-hpi/hpi_at_metro.csv') {
      const kept = text.split('\n').filter((line) => {
        const code = line.slice(line.indexOf('",') + 2).split(',', 1)[0] ?? '';
        return seriesCodes.has(code);
      });
      out.set(path, `${kept.join('\n')}\n`);
    } else if (/^census-bps\/\w\w\d{4}a\.txt$/.test(path)) {
      const lines = text.split('\r\n');
      const kept = lines.filter((line) => {
        const fields = line.split(',', 6);
        if (!/^\d{4}$/.test((fields[0] ?? '').trim())) return line !== '';
        return placeKeys.has(`${(fields[1] ?? '').trim()}:${(fields[5] ?? '').trim()}`);
      });
      out.set(path, `${kept.join('\r\n')}\r\n`);
    }
  }
  return out;
}
