// The CSV format of the contract (docs/contract.md 2.6) in both directions: RFC 4180 quoting and plain decimals for the writer, a strict reader for the checks.

/** Quotes a field when RFC 4180 requires it: a comma, a double quote, CR or LF. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * Writes a finite number as a plain decimal: no exponent, no thousands separator, no negative zero. JavaScript writes
 * numbers plainly from 1e-6 up to 1e21 (and -0 as "0"); outside that range it uses an exponent, which is expanded here.
 */
export function plainDecimal(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`cannot write ${value} as a CSV decimal`);
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (match === null) return text;
  const [, sign = '', lead = '', fraction = '', exponent = '0'] = match;
  const digits = lead + fraction;
  const point = 1 + Number(exponent);
  // Below 1e-6 the point sits left of every digit; from 1e21 on it sits right of all of them (17 digits at most).
  return point <= 0 ? `${sign}0.${'0'.repeat(-point)}${digits}` : `${sign}${digits}${'0'.repeat(point - digits.length)}`;
}

// A strict RFC 4180 reader: the build's CSV ties and `verify` read what was served with it, so it rejects what the contract does not allow.

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/**
 * Parses CSV text with CRLF line ends into records of fields. Quoted fields may hold commas, CR, LF and doubled
 * quotes; every record, the last included, must end with CRLF; a bare CR or LF outside quotes is an error.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let line = 1;
  let i = 0;
  let atFieldStart = true;
  while (i < text.length) {
    const ch = text[i];
    if (atFieldStart && ch === '"') {
      // Quoted field: runs to the closing quote, "" is one quote.
      const opened = line;
      i += 1;
      for (;;) {
        if (i >= text.length) throw new CsvSyntaxError(opened, 'a quoted field opened here is never closed');
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (c === '\n') line += 1;
        field += c;
        i += 1;
      }
      const after = text[i];
      if (after !== ',' && after !== '\r' && after !== undefined) throw new CsvSyntaxError(line, `unexpected ${JSON.stringify(after)} after a closing quote`);
      atFieldStart = false;
      continue;
    }
    if (ch === ',') {
      record.push(field);
      field = '';
      atFieldStart = true;
      i += 1;
      continue;
    }
    if (ch === '\r') {
      if (text[i + 1] !== '\n') throw new CsvSyntaxError(line, 'a CR not followed by LF');
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      atFieldStart = true;
      line += 1;
      i += 2;
      continue;
    }
    if (ch === '\n') throw new CsvSyntaxError(line, 'a bare LF line end (RFC 4180 needs CRLF)');
    if (ch === '"') throw new CsvSyntaxError(line, 'a quote inside an unquoted field');
    field += ch;
    atFieldStart = false;
    i += 1;
  }
  // A field with text in it is never at its start, so these two cover every unfinished record.
  if (!atFieldStart || record.length > 0) throw new CsvSyntaxError(line, 'the last record does not end with CRLF');
  return records;
}
