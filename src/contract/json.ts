// The one JSON serialiser of everything the service publishes (documents, problem bodies, the manifest): two-space indentation and a final newline; and the contract's order of ids in them.

export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The contract's order of ids (sources by sourceId, markets by id, CSV rows by market_id then metric_id): by UTF-16 code
 * unit, as JavaScript compares strings, never by locale. Ids are unique wherever the contract sorts them.
 */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A comparator of items by the id each carries, in the contract's order. */
export const byId =
  <T>(idOf: (item: T) => string) =>
  (a: T, b: T): number =>
    compareIds(idOf(a), idOf(b));

/** Parses JSON text to what it is, not yet typed: the caller checks its shape before reading it. */
export const parseJsonText = (text: string): unknown => JSON.parse(text);
