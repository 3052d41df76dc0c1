// Checks the built series against the contract where draft-07 cannot: ids and sources tie, periods are what their labels say and in order, and every CSV row ties to the JSON.
import { CsvSyntaxError, parseCsv, plainDecimal } from '../contract/csv-format.ts';
import { ContractError, InvariantError } from '../contract/errors.ts';
import { periodRange } from '../contract/periods.ts';
import { SERIES_CSV_COLUMNS, type MarketSeries } from '../contract/series.ts';

export function assertSeriesRules(s: MarketSeries, route: string): void {
  const fail = (pointer: string, reason: string): never => {
    throw new ContractError('schema', { marketId: s.market.id, route, pointer }, reason);
  };
  const sourceIds = new Set(s.sources.map((x) => x.sourceId));
  for (const [key, m] of Object.entries(s.metrics)) {
    const at = `/metrics/${key}`;
    if (m.id !== key) fail(`${at}/id`, `metric id "${m.id}" differs from its key "${key}"`);
    if (!sourceIds.has(m.sourceId)) fail(`${at}/sourceId`, `sourceId "${m.sourceId}" is not in sources`);
    const lines = [
      { at, observations: m.observations },
      ...(m.comparisons ?? []).map((c, k) => ({ at: `${at}/comparisons/${k}`, observations: c.observations })),
    ];
    for (const { at: where, observations } of lines) {
      observations.forEach((o, i) => {
        const range = periodRange(o.period);
        if (o.periodStart !== range.start || o.periodEnd !== range.end) {
          fail(`${where}/observations/${i}`, `period "${o.period}" runs ${range.start} to ${range.end}, not ${o.periodStart} to ${o.periodEnd}`);
        }
        if (!Number.isFinite(o.value)) fail(`${where}/observations/${i}/value`, 'value must be a finite number');
        if (o.illustrative === true && o.marginOfError !== undefined)
          fail(`${where}/observations/${i}/marginOfError`, 'an illustrative value has no margin of error');
        if (o.qualifier !== undefined && o.marginOfError !== undefined)
          fail(`${where}/observations/${i}/marginOfError`, 'an open-ended value has no margin of error');
        const before = observations[i - 1];
        if (before !== undefined && (before.periodEnd > o.periodEnd || (before.periodEnd === o.periodEnd && before.periodStart >= o.periodStart))) {
          fail(`${where}/observations/${i}`, 'observations must be sorted by period end, then start, each period once');
        }
      });
    }
  }
}

/** Reads a series CSV we wrote back with the strict reader and ties every row, in order, to an observation of the JSON. */
export function assertSeriesCsvTies(csv: string, series: readonly MarketSeries[], route: string): void {
  let records: string[][];
  try {
    records = parseCsv(csv);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    throw new ContractError('csv_tie', { route, line: error.line }, error.reason);
  }
  const [header = [], ...rows] = records;
  const names = SERIES_CSV_COLUMNS.map((c) => c.name);
  if (header.join(',') !== names.join(',')) throw new ContractError('csv_tie', { route, line: 1 }, `header must be "${names.join(',')}"`);
  const expected = [...series]
    .sort((a, b) => (a.market.id < b.market.id ? -1 : 1))
    .flatMap((s) =>
      Object.values(s.metrics)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .flatMap((m) =>
          [{ geography: m.geography, observations: m.observations }, ...(m.comparisons ?? [])].flatMap((line) =>
            line.observations.map((o) => ({ s, m, o, area: o.geography ?? line.geography })),
          ),
        ),
    );
  if (rows.length !== expected.length) throw new ContractError('csv_tie', { route }, `${rows.length} rows, the JSON has ${expected.length} observations`);
  rows.forEach((fields, i) => {
    const line = i + 2;
    const found = expected[i];
    if (found === undefined) return;
    const { s, m, o, area } = found;
    // In the columns' order: what each cell must hold.
    const want = [
      s.market.id,
      m.id,
      o.period,
      o.periodStart,
      o.periodEnd,
      plainDecimal(o.value),
      m.unit,
      o.dollarYear === undefined ? '' : String(o.dollarYear),
      o.marginOfError === undefined ? '' : plainDecimal(o.marginOfError),
      o.qualifier?.publishedAs ?? '',
      o.illustrative === true ? 'true' : 'false',
      m.sourceId,
      area.level,
      area.code,
      o.snapshotDate,
      s.generatedAt,
      s.methodologyVersion,
      s.productionMode,
      String(s.liveData),
    ];
    if (want.length !== names.length) throw new InvariantError(`the series check knows ${want.length} columns, the contract ${names.length}`);
    for (let k = 0; k < want.length; k += 1) {
      if (fields[k] !== want[k]) {
        throw new ContractError(
          'csv_tie',
          { route, line, column: names[k] ?? String(k), marketId: s.market.id },
          `CSV has ${JSON.stringify(fields[k])}, the JSON has ${JSON.stringify(want[k])}`,
        );
      }
    }
  });
}
