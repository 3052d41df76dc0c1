// Named error types that carry a stable code and the offending place, so a failure says what to fix.

/** Where a problem was found: a file and line, a market, a JSON pointer, a route. */
export interface Place {
  file?: string;
  line?: number;
  column?: string;
  marketId?: string;
  pointer?: string;
  route?: string;
}

function describePlace(place: Place): string {
  const parts: string[] = [];
  if (place.file !== undefined) parts.push(place.line === undefined ? place.file : `${place.file}:${place.line}`);
  else if (place.line !== undefined) parts.push(`line ${place.line}`);
  if (place.column !== undefined) parts.push(`column ${place.column}`);
  if (place.marketId !== undefined) parts.push(`market ${place.marketId}`);
  if (place.pointer !== undefined) parts.push(`at ${place.pointer === '' ? '/' : place.pointer}`);
  if (place.route !== undefined) parts.push(`route ${place.route}`);
  return parts.join(', ');
}

/** Why a fixture file cannot be read as its upstream's shape. */
export type FixtureErrorCode =
  | 'missing_field'
  | 'not_numeric'
  | 'out_of_range'
  | 'duplicate_row'
  | 'missing_row'
  | 'formula_text'
  | 'bad_shape'
  | 'unreadable'
  | 'bad_encoding'
  | 'too_large';
/** Why the observations of the sources cannot make a profile. */
export type AssemblyErrorCode = 'unknown_metric' | 'not_numeric' | 'duplicate_metric';
/** Why a built document breaks the published contract. */
export type ContractErrorCode = 'schema' | 'csv_tie';
/** Why the archive of published snapshots cannot be read, or would change. */
export type ArchiveErrorCode = 'archive_tampered' | 'archive_changed' | 'archive_shape' | 'archive_newer';
export type DataErrorCode = FixtureErrorCode | AssemblyErrorCode | ContractErrorCode | ArchiveErrorCode;

export class DataError extends Error {
  readonly code: DataErrorCode;
  readonly place: Place;
  readonly reason: string;

  constructor(code: DataErrorCode, place: Place, reason: string) {
    const where = describePlace(place);
    super(where === '' ? reason : `${where}: ${reason}`);
    this.name = 'DataError';
    this.code = code;
    this.place = place;
    this.reason = reason;
  }
}

/** A raw fixture file that cannot be read as its upstream's shape. */
export class FixtureError extends DataError {
  constructor(code: FixtureErrorCode, place: Place, reason: string) {
    super(code, place, reason);
    this.name = 'FixtureError';
  }
}

/** A built artifact that breaks the published contract. */
export class ContractError extends DataError {
  constructor(code: ContractErrorCode, place: Place, reason: string) {
    super(code, place, reason);
    this.name = 'ContractError';
  }
}

/** An archived snapshot whose bytes differ from what was recorded, or that a build or an archive step would change. */
export class ArchiveError extends DataError {
  constructor(code: ArchiveErrorCode, place: Place, reason: string) {
    super(code, place, reason);
    this.name = 'ArchiveError';
  }
}

/** A configuration value that cannot be used. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * A broken internal invariant: a bug in this code, never bad input or a failing disk or network. The command line
 * reports it as a bug (exit code 70) rather than as something the user should fix.
 */
export class InvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvariantError';
  }
}
