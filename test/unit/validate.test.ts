// The validate stage: every rule it enforces beyond the schema, every CSV tie, and each failure named with its route, place and reason.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { METHODOLOGY_VERSION } from '../../src/methodology/version.ts';
import type { MarketProfile } from '../../src/contract/schemas.ts';
import { ContractError } from '../../src/contract/errors.ts';
import { PATHS } from '../../src/contract/paths.ts';
import { renderMarketCsv } from '../../src/render/csv-documents.ts';
import { assertCsvTies, assertProfileRules, assertValid, compilePublished } from '../../src/validate/contract-checks.ts';
import { body, buildTable, servedProfiles } from '../support/data.ts';

const table = buildTable();
const profiles = servedProfiles(table);
const austin = profiles.find((p) => p.market.id === 'us-tx-austin') ?? assert.fail('no Austin');
const ROUTE = PATHS.profile('us-tx-austin');
const CSV_ROUTE = PATHS.marketCsv('us-tx-austin');
const copy = (p: MarketProfile): MarketProfile => structuredClone(p);

/** Asserts a ContractError of this code whose place and message are exactly these. */
function refused(fn: () => unknown, code: 'schema' | 'csv_tie', place: Record<string, unknown>, message: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ContractError, String(e));
    assert.equal(e.code, code);
    assert.deepEqual(e.place, place);
    assert.equal(e.message, message);
    return true;
  });
}

describe('compilePublished and assertValid', () => {
  const validate = compilePublished(body(table, PATHS.profileSchema));
  test('a served profile passes', () => {
    assert.doesNotThrow(() => assertValid(validate, austin, 'us-tx-austin', ROUTE));
  });
  test('a missing required property: the market, the route, the pointer of the object that lacks it, and its name', () => {
    const p = copy(austin) as unknown as { market: Record<string, unknown> };
    delete p.market['stateCode'];
    refused(
      () => assertValid(validate, p, 'us-tx-austin', ROUTE),
      'schema',
      { marketId: 'us-tx-austin', route: ROUTE, pointer: '/market' },
      `market us-tx-austin, at /market, route ${ROUTE}: missing required property "stateCode"`,
    );
  });
  test('a wrong constant names the value it must have', () => {
    const p = { ...copy(austin), liveData: true };
    assert.throws(
      () => assertValid(validate, p, 'us-tx-austin', ROUTE),
      (e: unknown) => e instanceof ContractError && e.place.pointer === '/liveData' && e.reason === 'must be equal to constant (false)',
    );
  });
  test("any other keyword gives Ajv's message; without a market (the index) the place has none", () => {
    const p = { ...copy(austin), generatedAt: 'yesterday' };
    assert.throws(
      () => assertValid(validate, p, undefined, '/api/markets'),
      (e: unknown) =>
        e instanceof ContractError &&
        e.place.marketId === undefined &&
        e.place.route === '/api/markets' &&
        e.place.pointer === '/generatedAt' &&
        e.reason === 'must match pattern "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"' &&
        !Object.hasOwn(e.place, 'marketId'),
    );
  });
  test('schemas are compiled strictly: a keyword Ajv does not know is refused, so a typo cannot pass as a rule', () => {
    assert.throws(
      () => compilePublished(JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', requird: ['a'] })),
      /unknown keyword: "requird"/,
    );
  });
  test('the schema published at another base URL (only its $id differs) shares the validator; one whose $ref or other text names the $id does not', () => {
    const text = body(table, PATHS.profileSchema);
    const elsewhere = text.replace(`"$id": "${table.baseUrl}`, '"$id": "https://elsewhere.example');
    assert.notEqual(elsewhere, text);
    assert.equal(compilePublished(elsewhere), validate);
    const schema = (id: string, extra: object): string =>
      JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', $id: id, type: 'object', ...extra }, null, 2);
    const local = { properties: { a: { $ref: '#/definitions/a' } }, definitions: { a: { type: 'string' } } };
    assert.equal(compilePublished(schema('https://a.example/s', local)), compilePublished(schema('https://b.example/s', local)));
    const outside = { properties: { a: { $ref: 'https://a.example/s#/definitions/a' } }, definitions: { a: { type: 'string' } } };
    assert.doesNotThrow(() => compilePublished(schema('https://a.example/s', outside)));
    // Compiled for itself, not served a.example's validator: its $ref does not resolve from its own $id.
    assert.throws(() => compilePublished(schema('https://b.example/s', outside)), /can't resolve reference/);
    // The $id's value said again elsewhere in the text: the schemas differ in more than their $id.
    const naming = (id: string): string => schema(id, { properties: { a: { const: id } } });
    assert.notEqual(compilePublished(naming('https://a.example/s')), compilePublished(naming('https://b.example/s')));
  });
  test('compiled validators are kept, 32 at most: once the cache is emptied, a schema stays through 30 others, not 31', () => {
    let fresh = 1000;
    const schema = (n: number): string => JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', maxProperties: n });
    const other = (): void => void compilePublished(schema((fresh += 1)));
    const a = schema(999);
    assert.equal(compilePublished(a), compilePublished(a), 'the same text: the same validator');
    // Other tests have filled the cache to some size: compile others until it is emptied, which evicts `a`.
    let kept = compilePublished(a);
    let others = 0;
    while (compilePublished(a) === kept && others <= 40) {
      other();
      others += 1;
    }
    assert.ok(others <= 32, `evicted after ${others} others: the cache is bounded`);
    // Emptied by the last one: it holds that one and `a` compiled anew.
    kept = compilePublished(a);
    for (let n = 0; n < 30; n += 1) other();
    assert.equal(compilePublished(a), kept, '32 held: still kept');
    other();
    assert.notEqual(compilePublished(a), kept, 'the 33rd empties it');
  });
  test('a keyword without the type it applies to is refused too (Ajv strictTypes)', () => {
    assert.throws(
      () => compilePublished(JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', properties: { a: { type: 'string' } } })),
      /missing type "object" for keyword "properties"/,
    );
  });
});

describe('assertProfileRules: what draft-07 cannot say', () => {
  const place = (pointer: string): Record<string, unknown> => ({ marketId: 'us-tx-austin', route: ROUTE, pointer });
  const msg = (pointer: string, reason: string): string => `market us-tx-austin, at ${pointer}, route ${ROUTE}: ${reason}`;
  test('a served profile keeps every rule', () => {
    for (const p of profiles) assert.doesNotThrow(() => assertProfileRules(p, PATHS.profile(p.market.id)), p.market.id);
  });
  test('generatedAt must equal profile.updatedDate', () => {
    const p = { ...copy(austin), generatedAt: '2026-05-21' };
    refused(
      () => assertProfileRules(p, ROUTE),
      'schema',
      place('/generatedAt'),
      msg('/generatedAt', 'generatedAt 2026-05-21 differs from profile.updatedDate 2026-11-29'),
    );
  });
  test('sources sorted by sourceId, with no repeats', () => {
    const swapped = copy(austin);
    swapped.sources.reverse();
    refused(
      () => assertProfileRules(swapped, ROUTE),
      'schema',
      place('/sources/1/sourceId'),
      msg('/sources/1/sourceId', 'sources must be sorted by sourceId with no repeats'),
    );
    const repeated = copy(austin);
    repeated.sources.splice(1, 0, { ...(repeated.sources[0] ?? assert.fail()) });
    refused(
      () => assertProfileRules(repeated, ROUTE),
      'schema',
      place('/sources/1/sourceId'),
      msg('/sources/1/sourceId', 'sources must be sorted by sourceId with no repeats'),
    );
  });
  test("a metric's id is its key, its sourceId is one of the sources, its value finite", () => {
    const wrongId = copy(austin);
    (wrongId.profile.metrics['permits'] ?? assert.fail()).id = 'permit';
    refused(
      () => assertProfileRules(wrongId, ROUTE),
      'schema',
      place('/profile/metrics/permits/id'),
      msg('/profile/metrics/permits/id', 'metric id "permit" differs from its key "permits"'),
    );
    const unlisted = copy(austin);
    (unlisted.profile.metrics['permits'] ?? assert.fail()).sourceId = 'census-xyz';
    refused(
      () => assertProfileRules(unlisted, ROUTE),
      'schema',
      place('/profile/metrics/permits/sourceId'),
      msg('/profile/metrics/permits/sourceId', 'sourceId "census-xyz" is not in sources'),
    );
    const infinite = copy(austin);
    (infinite.profile.metrics['permits'] ?? assert.fail()).value = Number.POSITIVE_INFINITY;
    refused(
      () => assertProfileRules(infinite, ROUTE),
      'schema',
      place('/profile/metrics/permits/value'),
      msg('/profile/metrics/permits/value', 'value must be a finite number'),
    );
  });
  test('illustrative values: no margin of error, no "high" confidence for their source, and every score that reads one listed', () => {
    // Austin as a fixture with an illustrative vacancy rate would serve it: no margin, the ACS source at medium, supply and overall listed.
    const illustrative = copy(austin);
    const vacancy = illustrative.profile.metrics['vacancyRate'] ?? assert.fail();
    vacancy.illustrative = true;
    delete vacancy.marginOfError;
    (illustrative.sources[0] ?? assert.fail()).confidence = 'medium';
    illustrative.profile.illustrativeScores = ['supply', 'overall'];
    assert.doesNotThrow(() => assertProfileRules(illustrative, ROUTE));
    const withMargin = copy(illustrative);
    (withMargin.profile.metrics['vacancyRate'] ?? assert.fail()).marginOfError = 1.2;
    refused(
      () => assertProfileRules(withMargin, ROUTE),
      'schema',
      place('/profile/metrics/vacancyRate/marginOfError'),
      msg('/profile/metrics/vacancyRate/marginOfError', 'an illustrative value has no margin of error'),
    );
    const high = copy(illustrative);
    (high.sources[0] ?? assert.fail()).confidence = 'high';
    refused(
      () => assertProfileRules(high, ROUTE),
      'schema',
      place('/sources/0/confidence'),
      msg('/sources/0/confidence', 'census-acs-5yr claims "high" confidence but serves the illustrative value of vacancyRate'),
    );
    const unlisted = copy(illustrative);
    unlisted.profile.illustrativeScores = ['affordability', 'overall'];
    refused(
      () => assertProfileRules(unlisted, ROUTE),
      'schema',
      place('/profile/illustrativeScores'),
      msg('/profile/illustrativeScores', 'lists ["affordability","overall"]; the scores that read an illustrative metric are ["supply","overall"]'),
    );
    const absent = copy(illustrative);
    delete absent.profile.illustrativeScores;
    refused(
      () => assertProfileRules(absent, ROUTE),
      'schema',
      place('/profile/illustrativeScores'),
      msg('/profile/illustrativeScores', 'lists []; the scores that read an illustrative metric are ["supply","overall"]'),
    );
    const empty = copy(illustrative);
    empty.profile.illustrativeScores = [];
    refused(
      () => assertProfileRules(empty, ROUTE),
      'schema',
      place('/profile/illustrativeScores'),
      msg('/profile/illustrativeScores', 'an empty list is left out'),
    );
    // With every value published, no score is illustrative and the list is left out: as the served profile is.
    const published = copy(illustrative);
    for (const m of Object.values(published.profile.metrics)) delete m.illustrative;
    assert.throws(() => assertProfileRules(published, ROUTE), /the scores that read an illustrative metric are \[\]/);
    delete published.profile.illustrativeScores;
    assert.doesNotThrow(() => assertProfileRules(published, ROUTE));
    assert.equal(austin.profile.illustrativeScores, undefined);
  });
  test("a comparison is the same period's figure of the state the value's place lies in", () => {
    assert.deepEqual(austin.profile.metrics['medianGrossRent']?.comparisons, [
      { level: 'state', code: '48', name: 'Texas', value: 1403, marginOfError: 4, asOf: '2020-2024' },
    ]);
    const otherPeriod = copy(austin);
    Object.assign(otherPeriod.profile.metrics['medianGrossRent']?.comparisons?.[0] ?? assert.fail(), { asOf: '2015-2019' });
    refused(
      () => assertProfileRules(otherPeriod, ROUTE),
      'schema',
      place('/profile/metrics/medianGrossRent/comparisons/0/asOf'),
      msg('/profile/metrics/medianGrossRent/comparisons/0/asOf', 'the comparison is as of 2015-2019, the value as of 2020-2024'),
    );
    const otherState = copy(austin);
    Object.assign(otherState.profile.metrics['medianGrossRent']?.comparisons?.[0] ?? assert.fail(), { code: '06', name: 'California' });
    refused(
      () => assertProfileRules(otherState, ROUTE),
      'schema',
      place('/profile/metrics/medianGrossRent/comparisons/0/code'),
      msg('/profile/metrics/medianGrossRent/comparisons/0/code', 'state 06 is not the state of Austin city, Texas (48)'),
    );
  });
  test('coverage: totalProvided counts the metrics, provided plus missing is totalRequired', () => {
    const overCounted = copy(austin);
    overCounted.profile.coverage.totalProvided = 11;
    refused(
      () => assertProfileRules(overCounted, ROUTE),
      'schema',
      place('/profile/coverage/totalProvided'),
      msg('/profile/coverage/totalProvided', 'totalProvided must count the metrics'),
    );
    const oneMissing = copy(austin);
    delete oneMissing.profile.metrics['permits'];
    oneMissing.profile.coverage = { ...oneMissing.profile.coverage, totalProvided: 9, missing: ['permits'] };
    assert.doesNotThrow(() => assertProfileRules(oneMissing, ROUTE), 'nine provided and one missing make the ten required');
    const missingListed = copy(austin);
    missingListed.profile.coverage.missing = ['permits'];
    refused(
      () => assertProfileRules(missingListed, ROUTE),
      'schema',
      place('/profile/coverage/missing'),
      msg('/profile/coverage/missing', 'provided plus missing must equal totalRequired'),
    );
  });
});

describe('assertCsvTies: every CSV row ties to the JSON', () => {
  const csv = renderMarketCsv(austin);
  const lines = csv.split('\r\n');
  /** The CSV with line n (1-based) replaced. */
  const withLine = (n: number, text: string): string => lines.map((l, i) => (i === n - 1 ? text : l)).join('\r\n');
  const cells = (n: number): string[] => (lines[n - 1] ?? '').split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/);
  const withCell = (n: number, column: number, value: string): string => {
    const c = cells(n);
    c[column] = value;
    return withLine(n, c.join(','));
  };
  /** The line (1-based) of the row of a metric: found by its id, never by a position another metric would move. */
  const rowOf = (metricId: string): number => {
    const at = lines.findIndex((_, i) => cells(i + 1)[2] === metricId);
    assert.ok(at > 0, `the CSV has a row of ${metricId}`);
    return at + 1;
  };
  /** The place and reason an error must have. */
  const tie = (line: number | undefined, column: string | undefined, reason: string, marketId?: string): [Record<string, unknown>, string] => [
    { route: CSV_ROUTE, ...(line === undefined ? {} : { line }), ...(column === undefined ? {} : { column }), ...(marketId === undefined ? {} : { marketId }) },
    reason,
  ];
  const fails = (text: string, [place, reason]: [Record<string, unknown>, string]): void => {
    assert.throws(
      () => assertCsvTies(text, [austin], CSV_ROUTE),
      (e: unknown) => {
        assert.ok(e instanceof ContractError, String(e));
        assert.equal(e.code, 'csv_tie');
        assert.deepEqual(e.place, place);
        assert.equal(e.reason, reason);
        return true;
      },
    );
  };
  test('the served CSVs tie, market by market and in bulk', () => {
    assert.doesNotThrow(() => assertCsvTies(csv, [austin], CSV_ROUTE));
    assert.doesNotThrow(() => assertCsvTies(body(table, PATHS.bulkCsv), profiles, PATHS.bulkCsv));
  });
  test('the document: its last line ends with CRLF, its header is the eleven columns', () => {
    fails(csv.slice(0, -2), tie(lines.length - 1, undefined, 'the last line must end with CRLF'));
    fails(withLine(1, 'market_id,market_name'), tie(1, undefined, `header must be "${lines[0]}"`));
  });
  test('a row the strict reader refuses, or of the wrong width, names its line', () => {
    fails(withLine(3, `${lines[2]}"`), tie(3, undefined, 'a quote inside an unquoted field'));
    fails(withLine(3, `${lines[2]},extra`), tie(3, undefined, 'expected 11 columns, got 12'));
  });
  test('a row of an unknown market or metric', () => {
    fails(withCell(2, 0, 'us-tx-nowhere'), tie(2, 'market_id', 'market_id "us-tx-nowhere" has no profile'));
    fails(withCell(2, 2, 'rentBurdn'), tie(2, 'metric_id', 'metric_id "rentBurdn" is not in profile.metrics', 'us-tx-austin'));
  });
  test('every column that must equal the JSON, one by one', () => {
    const row = rowOf('medianGrossRent');
    assert.equal(cells(row)[2], 'medianGrossRent');
    const cases: [number, string, string, string][] = [
      [1, 'market_name', '"Austin, Texas"', 'CSV has "Austin, Texas", the JSON has "Austin, TX"'],
      [3, 'metric_label', 'Median rent', 'CSV has "Median rent", the JSON has "Median gross rent"'],
      [4, 'value', '1730', 'CSV has "1730", the JSON has "1729"'],
      [5, 'unit', 'USD', 'CSV has "USD", the JSON has "USD/mo"'],
      [6, 'source_id', 'fhfa-hpi', 'CSV has "fhfa-hpi", the JSON has "census-acs-5yr"'],
      [7, 'updated_date', '2026-05-19', 'CSV has "2026-05-19", the JSON has "2026-11-29"'],
      [8, 'methodology_version', 'v1.1', `CSV has "v1.1", the JSON has "${METHODOLOGY_VERSION}"`],
      [9, 'production_mode', 'live', 'CSV has "live", the JSON has "static-fixture"'],
      [10, 'live_data', 'true', 'CSV has "true", the JSON has "false"'],
    ];
    for (const [column, name, value, reason] of cases) fails(withCell(row, column, value), tie(row, name, reason, 'us-tx-austin'));
  });
  test('each metric once, in metric order, and none of the JSON left out', () => {
    fails(withLine(3, lines[1] ?? ''), tie(3, 'metric_id', `metric ${cells(2)[2]} appears twice`, 'us-tx-austin'));
    const swapped = [lines[0], lines[2], lines[1], ...lines.slice(3)].join('\r\n');
    fails(swapped, tie(3, 'metric_id', 'rows must be sorted by market_id, then metric_id', 'us-tx-austin'));
    const dropped = [lines[0], ...lines.slice(2)].join('\r\n');
    fails(dropped, [{ route: CSV_ROUTE, marketId: 'us-tx-austin' }, `metric ${cells(2)[2]} of the JSON has no CSV row`]);
  });
  test('a value written differently from the JSON is caught even when it reads back as the same number', () => {
    const row = rowOf('vacancyRate'); // 5.6
    assert.equal(cells(row)[2], 'vacancyRate');
    fails(withCell(row, 4, '5.60'), tie(row, 'value', 'CSV has "5.60", the JSON has "5.6"', 'us-tx-austin'));
  });
});
