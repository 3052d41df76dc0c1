// A strict RFC 4180 reader for `verify`: it reads what a deployment served, so it must reject what the spec does not allow.

export class CsvSyntaxError extends Error {
  constructor(readonly line: number, reason: string) {
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
  if (!atFieldStart || field !== '' || record.length > 0) throw new CsvSyntaxError(line, 'the last record does not end with CRLF');
  return records;
}
