// Checks built output against the published contract with an independent validator (Ajv, draft-07).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { CSV_COLUMNS, displayName, type MarketProfile } from '../contract/schemas.ts';
import { CsvSyntaxError, parseCsv, plainDecimal } from '../contract/csv-format.ts';
import { ContractError } from '../contract/errors.ts';
import { REQUIRED_METRIC_IDS } from '../methodology/metrics.ts';
import { illustrativeScoresOf } from '../methodology/profiles.ts';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module namespace.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Compiles a schema from its published bytes, so what is checked is exactly what is served. Every strict check of
 * Ajv's throws (an unknown keyword, a keyword without the type it applies to, …), so a slip in the schema cannot pass
 * as a rule. Validation stops at the first violation: that is the one reported.
 */
export function compilePublished(schemaBytes: Buffer | string): ValidateFunction {
  const text = schemaBytes.toString();
  const key = validatorKey(text);
  const known = compiled.get(key);
  if (known !== undefined) return known;
  const ajv = new Ajv({ strict: true });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(text) as object);
  // The published schemas are a handful of constants: a process that builds again (a test, bench:build) compiles each
  // once. Bounded all the same, so schemas made up by tests cannot grow it without limit.
  if (compiled.size >= 32) compiled.clear();
  compiled.set(key, validate);
  return validate;
}

/** Validators already compiled, by `validatorKey` (Ajv compiles a schema to code: a quarter of a build, each time). */
const compiled = new Map<string, ValidateFunction>();

/**
 * What decides a schema's validator: its text, less the top-level `$id` when nothing can resolve against it (one `$id`
 * in the text, and every `$ref` a fragment of this document). A schema published at another base URL differs only in
 * that `$id`, so builds for other base URLs (every test server's port) share one validator.
 */
function validatorKey(text: string): string {
  const id = (JSON.parse(text) as { $id?: unknown }).$id;
  if (typeof id !== 'string') return text;
  const idField = `"$id": ${JSON.stringify(id)}`;
  const refs = [...text.matchAll(/"\$ref"\s*:\s*"([^"]*)"/g)].map((m) => m[1] ?? '');
  if (text.split('"$id"').length !== 2 || !text.includes(idField) || refs.some((ref) => !ref.startsWith('#'))) return text;
  return text.replace(idField, '"$id": null');
}

/** One violation as a sentence: a missing property named, a constant with the value it must have. */
const violationText = (e: ErrorObject): string => {
  if (e.keyword === 'required') return `missing required property "${String((e.params as { missingProperty: string }).missingProperty)}"`;
  return `${e.message ?? e.keyword}${e.keyword === 'const' ? ` (${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)})` : ''}`;
};

/** The first violation of the schema, as a JSON pointer and a sentence; undefined when the document is valid. */
export function firstViolation(validate: ValidateFunction, document: unknown): { pointer: string; reason: string } | undefined {
  if (validate(document)) return undefined;
  // Ajv sets errors, at least one, whenever validation fails.
  const first = (validate.errors as ErrorObject[])[0] as ErrorObject;
  return { pointer: first.instancePath, reason: violationText(first) };
}

/** Throws on the first violation, naming the market and the JSON pointer. */
export function assertValid(validate: ValidateFunction, document: unknown, marketId: string | undefined, route: string): void {
  const violation = firstViolation(validate, document);
  if (violation === undefined) return;
  throw new ContractError('schema', { ...(marketId === undefined ? {} : { marketId }), route, pointer: violation.pointer }, violation.reason);
}

/** Rules of docs/contract.md sections 2-4 that JSON Schema draft-07 cannot say: keys equal ids, references resolve, dates agree. */
export function assertProfileRules(p: MarketProfile, route: string): void {
  const fail = (pointer: string, reason: string): never => {
    throw new ContractError('schema', { marketId: p.market.id, route, pointer }, reason);
  };
  if (p.generatedAt !== p.profile.updatedDate) fail('/generatedAt', `generatedAt ${p.generatedAt} differs from profile.updatedDate ${p.profile.updatedDate}`);
  const sourceIds = p.sources.map((s) => s.sourceId);
  sourceIds.forEach((id, i) => {
    if (i > 0 && (sourceIds[i - 1] ?? '') >= id) fail(`/sources/${i}/sourceId`, 'sources must be sorted by sourceId with no repeats');
  });
  for (const [key, metric] of Object.entries(p.profile.metrics)) {
    if (metric.id !== key) fail(`/profile/metrics/${key}/id`, `metric id "${metric.id}" differs from its key "${key}"`);
    if (!sourceIds.includes(metric.sourceId)) fail(`/profile/metrics/${key}/sourceId`, `sourceId "${metric.sourceId}" is not in sources`);
    if (!Number.isFinite(metric.value)) fail(`/profile/metrics/${key}/value`, 'value must be a finite number');
    // An illustrative value was published by no agency, so no agency published a margin of error for it either.
    if (metric.illustrative === true && metric.marginOfError !== undefined)
      fail(`/profile/metrics/${key}/marginOfError`, 'an illustrative value has no margin of error');
    if (metric.illustrative === true) {
      const i = sourceIds.indexOf(metric.sourceId);
      if (p.sources[i]?.confidence === 'high')
        fail(`/sources/${i}/confidence`, `${metric.sourceId} claims "high" confidence but serves the illustrative value of ${key}`);
    }
    // A comparison is the same figure for the geography that holds the market's: the same period, and the state of the place the value describes.
    const place = p.geographyScope?.boundaries.find((b) => b.metrics.includes(key));
    (metric.comparisons ?? []).forEach((c, i) => {
      if (c.asOf !== metric.asOf) fail(`/profile/metrics/${key}/comparisons/${i}/asOf`, `the comparison is as of ${c.asOf}, the value as of ${metric.asOf}`);
      const state = place?.codes['stateFips'];
      if (c.level === 'state' && state !== undefined && c.code !== state)
        fail(`/profile/metrics/${key}/comparisons/${i}/code`, `state ${c.code} is not the state of ${place?.name ?? 'the place'} (${state})`);
    });
  }
  // A score is illustrative exactly when it reads an illustrative metric; the list is absent when none is.
  const expected = illustrativeScoresOf(p.profile.scores, p.profile.metrics);
  const listed = p.profile.illustrativeScores;
  if (listed !== undefined && listed.length === 0) fail('/profile/illustrativeScores', 'an empty list is left out');
  if ((listed ?? []).join() !== expected.join()) {
    fail('/profile/illustrativeScores', `lists ${JSON.stringify(listed ?? [])}; the scores that read an illustrative metric are ${JSON.stringify(expected)}`);
  }
  const c = p.profile.coverage;
  // Coverage counts the metrics the methodology requires; a profile may carry others beside them.
  const required = REQUIRED_METRIC_IDS.filter((id) => Object.hasOwn(p.profile.metrics, id)).length;
  if (c.totalProvided !== required) fail('/profile/coverage/totalProvided', 'totalProvided must count the metrics');
  if (c.totalProvided + c.missing.length !== c.totalRequired) fail('/profile/coverage/missing', 'provided plus missing must equal totalRequired');
}

/** Reads a CSV we wrote back and ties every row to the profile (docs/contract.md 2.6: every row ties to the JSON). */
/** The fields of one CSV line, read with the strict RFC 4180 reader. */
function readLine(text: string, route: string, line: number): string[] {
  try {
    return parseCsv(`${text}\r\n`)[0] ?? [];
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    throw new ContractError('csv_tie', { route, line }, error.reason);
  }
}

export function assertCsvTies(csv: string, profiles: readonly MarketProfile[], route: string): void {
  const lines = csv.split('\r\n');
  if (lines.at(-1) !== '') throw new ContractError('csv_tie', { route, line: lines.length }, 'the last line must end with CRLF');
  const header = lines[0] ?? '';
  const expected = CSV_COLUMNS.map((c) => c.name).join(',');
  if (header !== expected) throw new ContractError('csv_tie', { route, line: 1 }, `header must be "${expected}"`);
  const byId = new Map(profiles.map((p) => [p.market.id, p]));
  const seen = new Set<string>();
  let previous = '';
  lines.slice(1, -1).forEach((text, i) => {
    const line = i + 2;
    const fields = readLine(text, route, line);
    if (fields.length !== CSV_COLUMNS.length)
      throw new ContractError('csv_tie', { route, line }, `expected ${CSV_COLUMNS.length} columns, got ${fields.length}`);
    const row = Object.fromEntries(CSV_COLUMNS.map((c, k) => [c.name, fields[k] ?? ''])) as Record<string, string>;
    const p = byId.get(row['market_id'] ?? '');
    if (p === undefined) throw new ContractError('csv_tie', { route, line, column: 'market_id' }, `market_id "${row['market_id']}" has no profile`);
    const metric = p.profile.metrics[row['metric_id'] ?? ''];
    const fail = (column: string, reason: string): never => {
      throw new ContractError('csv_tie', { route, line, column, marketId: p.market.id }, reason);
    };
    if (metric === undefined) return fail('metric_id', `metric_id "${row['metric_id']}" is not in profile.metrics`);
    const want: Record<string, string> = {
      market_name: displayName(p.market),
      metric_label: metric.label,
      value: plainDecimal(metric.value),
      unit: metric.unit,
      source_id: metric.sourceId,
      updated_date: p.profile.updatedDate,
      methodology_version: p.methodologyVersion,
      production_mode: p.productionMode,
      live_data: String(p.liveData),
    };
    // The value must be written exactly as plainDecimal writes the JSON's number, which also makes it read back as that number.
    for (const [column, value] of Object.entries(want)) {
      if (row[column] !== value) fail(column, `CSV has ${JSON.stringify(row[column])}, the JSON has ${JSON.stringify(value)}`);
    }
    const key = `${p.market.id}\u0000${metric.id}`;
    if (seen.has(key)) fail('metric_id', `metric ${metric.id} appears twice`);
    if (key < previous) fail('metric_id', 'rows must be sorted by market_id, then metric_id');
    seen.add(key);
    previous = key;
  });
  for (const p of profiles) {
    for (const id of Object.keys(p.profile.metrics)) {
      if (!seen.has(`${p.market.id}\u0000${id}`))
        throw new ContractError('csv_tie', { route, marketId: p.market.id }, `metric ${id} of the JSON has no CSV row`);
    }
  }
}
