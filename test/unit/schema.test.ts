// The served draft-07 schema validates every served profile and rejects broken ones; it tolerates additive fields.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compilePublished } from '../../src/validate/contract-checks.ts';
import { PATHS } from '../../src/contract/paths.ts';
import { body, buildTable, servedProfiles } from '../support/data.ts';

const table = buildTable();
const schemaText = body(table, PATHS.profileSchema);
const validate = compilePublished(schemaText);
const profiles = servedProfiles(table);
const austin = (): Record<string, unknown> => JSON.parse(body(table, PATHS.profile('us-tx-austin'))) as Record<string, unknown>;

type Json = Record<string, unknown>;
const at = (doc: Json, ...keys: string[]): Json => keys.reduce<Json>((o, k) => o[k] as Json, doc);

test('the schema is draft-07 with an absolute $id on the base URL', () => {
  const schema = JSON.parse(schemaText) as Json;
  assert.equal(schema['$schema'], 'http://json-schema.org/draft-07/schema#');
  assert.equal(schema['$id'], 'http://localhost:3000/api/schema/market-profile');
});

test('every served profile validates against the served schema', () => {
  for (const p of profiles) assert.ok(validate(p), `${p.market.id}: ${JSON.stringify(validate.errors)}`);
});

describe('broken profiles are rejected', () => {
  const cases: [string, (doc: Json) => void][] = [
    [
      'liveData true',
      (d) => {
        d['liveData'] = true;
      },
    ],
    [
      'productionMode other than static-fixture',
      (d) => {
        d['productionMode'] = 'live';
      },
    ],
    [
      'schemaVersion "2"',
      (d) => {
        d['schemaVersion'] = '2';
      },
    ],
    [
      'a score of 101',
      (d) => {
        at(d, 'profile', 'scores')['overall'] = 101;
      },
    ],
    [
      'a negative score',
      (d) => {
        at(d, 'profile', 'scores')['supply'] = -1;
      },
    ],
    [
      'a fractional score',
      (d) => {
        at(d, 'profile', 'scores')['affordability'] = 50.5;
      },
    ],
    [
      'a null optional field (countyName)',
      (d) => {
        at(d, 'market')['countyName'] = null;
      },
    ],
    [
      'a null optional source date',
      (d) => {
        (d['sources'] as Json[])[0]!['latestReleaseDate'] = null;
      },
    ],
    [
      'a null geographyScope',
      (d) => {
        d['geographyScope'] = null;
      },
    ],
    [
      'a missing required field (market.id)',
      (d) => {
        delete at(d, 'market')['id'];
      },
    ],
    [
      'a missing required field (links.privacy)',
      (d) => {
        delete at(d, 'links')['privacy'];
      },
    ],
    [
      'a missing required field (profile.coverage)',
      (d) => {
        delete at(d, 'profile')['coverage'];
      },
    ],
    [
      'a string metric value',
      (d) => {
        at(d, 'profile', 'metrics', 'permits')['value'] = '14243';
      },
    ],
    [
      'a non-ISO generatedAt',
      (d) => {
        d['generatedAt'] = '09/28/2026';
      },
    ],
    [
      'a relative link',
      (d) => {
        at(d, 'links')['html'] = '/markets/us-tx-austin';
      },
    ],
    [
      'a bad market id form',
      (d) => {
        at(d, 'market')['id'] = 'US-TX-Austin';
      },
    ],
    [
      'coverage percent above 100',
      (d) => {
        at(d, 'profile', 'coverage')['percent'] = 100.1;
      },
    ],
    [
      'an unknown freshness value',
      (d) => {
        at(d, 'profile', 'freshness')['freshness'] = 'live';
      },
    ],
    [
      'an empty sources array',
      (d) => {
        d['sources'] = [];
      },
    ],
  ];
  for (const [name, breakIt] of cases) {
    test(name, () => {
      const doc = austin();
      breakIt(doc);
      assert.equal(validate(doc), false, 'the schema accepted it');
    });
  }
});

describe('additive changes inside schemaVersion "1" are accepted (docs/contract.md 9.2)', () => {
  test('an unknown top-level field', () => {
    const doc = austin();
    doc['someFutureField'] = { anything: [1, 'two'] };
    assert.ok(validate(doc), JSON.stringify(validate.errors));
  });
  test('unknown fields inside market, metrics and sources, and a new score key', () => {
    const doc = austin();
    at(doc, 'market')['population'] = 974447;
    at(doc, 'profile', 'metrics', 'permits')['note'] = 'new';
    (doc['sources'] as Json[])[0]!['license'] = 'public domain';
    at(doc, 'profile', 'scores')['momentum'] = 40;
    assert.ok(validate(doc), JSON.stringify(validate.errors));
  });
  test('a new score key is still held to the integer 0-100 rule', () => {
    const doc = austin();
    at(doc, 'profile', 'scores')['momentum'] = 140;
    assert.equal(validate(doc), false);
  });
});

test('the index validates against its own published schema', () => {
  const validateIndex = compilePublished(body(table, PATHS.indexSchema));
  const index = JSON.parse(body(table, PATHS.index)) as Json;
  assert.ok(validateIndex(index), JSON.stringify(validateIndex.errors));
  index['liveData'] = true;
  assert.equal(validateIndex(index), false);
});

describe('the CSV descriptor (docs/contract.md 2.7)', () => {
  const d = JSON.parse(body(table, PATHS.csvDescriptor)) as {
    schemaVersion: string;
    format: string;
    encoding: string;
    lineTerminator: string;
    quoting: string;
    description: string;
    caveats: string[];
    columns: { name: string; type: string; required: boolean; const?: string }[];
  };
  test('has the fixed keys and values', () => {
    assert.deepEqual(Object.keys(d).sort(), ['caveats', 'columns', 'description', 'encoding', 'format', 'lineTerminator', 'quoting', 'schemaVersion']);
    assert.equal(d.schemaVersion, '1');
    assert.equal(d.format, 'text/csv');
    assert.equal(d.encoding, 'utf-8');
    assert.equal(d.lineTerminator, 'CRLF');
    assert.equal(d.quoting, 'RFC 4180');
  });
  test('lists the eleven columns in order; value is a number, the rest strings; all required; two constants', () => {
    assert.deepEqual(
      d.columns.map((c) => c.name),
      [
        'market_id',
        'market_name',
        'metric_id',
        'metric_label',
        'value',
        'unit',
        'source_id',
        'updated_date',
        'methodology_version',
        'production_mode',
        'live_data',
      ],
    );
    for (const c of d.columns) {
      assert.equal(c.type, c.name === 'value' ? 'number' : 'string', c.name);
      assert.equal(c.required, true);
      if (c.name === 'production_mode') assert.equal(c.const, 'static-fixture');
      else if (c.name === 'live_data') assert.equal(c.const, 'false');
      else assert.equal(c.const, undefined);
    }
  });
  test('its caveats state the four facts of docs/contract.md 2.7', () => {
    const text = d.caveats.join(' ');
    assert.match(text, /production_mode is always static-fixture/);
    assert.match(text, /live_data is always false/);
    assert.match(text, /schemaVersion other than "1" is coordinated with the JSON profile schema/);
    assert.match(text, /licenses and terms/);
  });
});
