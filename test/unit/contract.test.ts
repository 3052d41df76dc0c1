// Every rule of docs/contract.md sections 2 and 4, checked on the served profile of each of the sixteen markets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PROFILE_CAVEATS } from '../../src/contract/schemas.ts';
import { MARKET_IDS } from '../../src/contract/markets.ts';
import { PATHS } from '../../src/contract/paths.ts';
import { buildMarketIndex } from '../../src/methodology/market-index.ts';
import { BASE_URL, FIXTURE_FILES, body, buildTable, fixtureReader, servedProfiles } from '../support/data.ts';

const SPEC_MARKETS = [
  'us-tx-austin',
  'us-fl-miami',
  'us-az-phoenix',
  'us-wa-seattle',
  'us-co-denver',
  'us-tn-nashville',
  'us-tx-dallas',
  'us-fl-tampa',
  'us-ca-los-angeles',
  'us-ca-san-diego',
  'us-ca-san-francisco',
  'us-ny-new-york',
  'us-ma-boston',
  'us-il-chicago',
  'us-ga-atlanta',
  'us-dc-washington',
];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const table = buildTable();
const profiles = servedProfiles(table);

function findNull(value: unknown, pointer = ''): string | undefined {
  if (value === null) return pointer;
  if (typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = findNull(child, `${pointer}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

test('the registry holds exactly the sixteen markets of docs/contract.md 2.5', () => {
  assert.deepEqual([...MARKET_IDS].sort(), [...SPEC_MARKETS].sort());
});

for (const p of profiles) {
  describe(`profile ${p.market.id}`, () => {
    test('constants: schemaVersion "1", productionMode static-fixture, liveData false, methodologyVersion v<major>.<minor>', () => {
      assert.equal(p.schemaVersion, '1');
      assert.equal(p.productionMode, 'static-fixture');
      assert.equal(p.liveData, false);
      assert.match(p.methodologyVersion, /^v\d+\.\d+$/);
    });

    test('market id has the form us-<state code>-<slug> and matches the path, state code and slug', () => {
      assert.match(p.market.id, /^us-[a-z]{2}-[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.equal(p.market.id, `us-${p.market.stateCode.toLowerCase()}-${p.market.slug}`);
      for (const key of ['id', 'name', 'slug', 'state', 'stateCode', 'countryCode'] as const) assert.equal(typeof p.market[key], 'string');
      assert.match(p.market.stateCode, /^[A-Z]{2}$/);
      assert.equal(p.market.countryCode, 'US');
    });

    test('generatedAt is an ISO date equal to profile.updatedDate', () => {
      assert.match(p.generatedAt, ISO_DATE);
      assert.equal(p.generatedAt, p.profile.updatedDate);
    });

    test('scores are integers from 0 to 100', () => {
      for (const [key, score] of Object.entries(p.profile.scores)) {
        assert.ok(Number.isInteger(score) && score >= 0 && score <= 100, `${key} = ${score}`);
      }
    });

    test('each metric has its key as id, a label, unit, numeric value, asOf and a sourceId listed in sources', () => {
      const sourceIds = new Set(p.sources.map((s) => s.sourceId));
      assert.ok(Object.keys(p.profile.metrics).length > 0, 'Object.keys(p.profile.metrics).length > 0');
      for (const [key, m] of Object.entries(p.profile.metrics)) {
        assert.equal(m.id, key);
        assert.ok(m.label.length > 0 && m.unit.length > 0 && m.asOf.length > 0, 'm.label.length > 0 && m.unit.length > 0 && m.asOf.length > 0');
        assert.equal(typeof m.value, 'number');
        assert.ok(Number.isFinite(m.value), 'Number.isFinite(m.value)');
        assert.ok(sourceIds.has(m.sourceId), `${key} cites ${m.sourceId}`);
      }
    });

    test('sources are sorted by sourceId and carry the fields of docs/contract.md 2.4', () => {
      const ids = p.sources.map((s) => s.sourceId);
      assert.deepEqual(ids, [...ids].sort());
      assert.equal(new Set(ids).size, ids.length);
      for (const s of p.sources) {
        for (const key of ['sourceId', 'sourceName', 'agency', 'datasetName', 'sourceUrl', 'confidence', 'updateFrequency', 'provenance'] as const) {
          assert.equal(typeof s[key], 'string', key);
        }
        assert.match(s.sourceUrl, /^https:\/\//);
        assert.equal(s.provenance, 'fixture');
        if (s.latestReleaseDate !== undefined) assert.match(s.latestReleaseDate, ISO_DATE);
        if (s.latestRetrievedAt !== undefined) assert.match(s.latestRetrievedAt, ISO_DATE);
      }
    });

    test('caveats are the four project caveats of contract 2.1, verbatim', () => {
      assert.deepEqual(p.caveats, PROFILE_CAVEATS);
      assert.equal(p.caveats.length, 4);
      const text = p.caveats.join(' ');
      for (const says of [/source-attributed static fixture/i, /no live data/i, /not investment, legal, financial/i, /licenses and terms/i])
        assert.match(text, says);
    });

    test('links carry exactly the seven keys of contract 2.1, each the absolute URL of its page on the base URL', () => {
      assert.deepEqual(p.links, {
        html: `${BASE_URL}/markets/${p.market.id}`,
        dataStatus: `${BASE_URL}/data-status`,
        methodology: `${BASE_URL}/methodology`,
        dataSources: `${BASE_URL}/data-sources`,
        dataCatalog: `${BASE_URL}/data-catalog`,
        privacy: `${BASE_URL}/privacy`,
        changelog: `${BASE_URL}/changelog`,
      });
    });

    test('freshness and coverage of the committed snapshot: fixture provenance, aging on 2026-11-29 (BPS retrieved 2026-11-24, FHFA released 96 days before), ten of ten metrics', () => {
      const f = p.profile.freshness;
      assert.equal(f.provenance, 'fixture');
      assert.equal(f.freshness, 'aging');
      assert.equal(f.retrievedAt, '2026-11-24');
      assert.match(f.note, /^Static fixtures, snapshot 2026-11-29\. /);
      assert.match(f.note, /census-bps \(annually\) released 2025-05-01, 577 days before the snapshot: aging; /);
      assert.match(f.note, /fhfa-hpi \(quarterly\) released 2026-08-25, 96 days before the snapshot: aging\.$/);
      assert.deepEqual(p.profile.coverage, { totalRequired: 10, totalProvided: 10, percent: 100, missing: [] });
      assert.equal(Object.keys(p.profile.metrics).length, 10);
    });

    test('no value anywhere is null: undefined fields are omitted', () => {
      assert.equal(findNull(p), undefined);
      assert.ok(!body(table, PATHS.profile(p.market.id)).includes('null'), "!body(table, PATHS.profile(p.market.id)).includes('null')");
    });

    test("the contract's named metrics and scores are present where the data allow", () => {
      for (const id of ['medianGrossRent', 'homePriceIndex']) assert.ok(p.profile.metrics[id], id);
      assert.equal(p.profile.metrics['medianGrossRent']?.unit, 'USD/mo');
      assert.equal(p.profile.metrics['homePriceIndex']?.unit, 'index');
      assert.ok(p.profile.scores.affordability !== undefined, 'p.profile.scores.affordability !== undefined');
    });
  });
}

describe('coverage and omitted scores are real', () => {
  test('every market is fully covered with all five scores; New York has permits, the sum of its five borough rows', () => {
    for (const p of profiles) {
      assert.equal(p.profile.coverage.percent, 100, p.market.id);
      assert.deepEqual(Object.keys(p.profile.scores), ['renterAffordability', 'ownerAffordability', 'affordability', 'supply', 'overall'], p.market.id);
    }
    assert.equal(profiles.find((p) => p.market.id === 'us-ny-new-york')?.profile.metrics['permits']?.value, 27241);
  });

  // New York's row in the Census API's detailed-table response, with its median gross rent replaced.
  const ACS = 'census-acs-5yr/acs5-2024-detailed-place.json';
  const line = (FIXTURE_FILES.get(ACS) ?? '').split('\n').findIndex((l) => l.includes('"New York city, New York"')) + 1;
  for (const [label, cell, reason] of [
    [
      'an annotation value (-666666666)',
      '"-666666666"',
      "B25064_001E is -666666666: the Census API's annotation that the estimate could not be computed (too few sample observations, or a median in an open-ended interval)",
    ],
    ['a null', 'null', 'B25064_001E is null: the Census API has no data for this geography'],
  ] as const) {
    test(`a market row with ${label}: the metric is missing, coverage drops, the scores that need it are omitted, the data-status page says why`, () => {
      const edited = buildTable(undefined, fixtureReader({ [ACS]: (t) => t.replace('"New York city, New York","1821"', `"New York city, New York",${cell}`) }));
      const ny = servedProfiles(edited).find((p) => p.market.id === 'us-ny-new-york');
      assert.ok(ny, 'ny');
      assert.equal(ny.profile.metrics['medianGrossRent'], undefined);
      assert.deepEqual(ny.profile.coverage, { totalRequired: 10, totalProvided: 9, percent: 90, missing: ['medianGrossRent'] });
      // Renter affordability reads rent to income; affordability needs both parts, overall needs affordability. The owner part and supply read none of it and stay.
      assert.deepEqual(Object.keys(ny.profile.scores), ['ownerAffordability', 'supply']);
      assert.ok(
        !body(edited, PATHS.marketCsv('us-ny-new-york')).includes(',medianGrossRent,'),
        "!body(edited, PATHS.marketCsv('us-ny-new-york')).includes(',medianGrossRent,')",
      );
      const status = body(edited, PATHS.dataStatus).replace(/&#x27;|&#39;/g, "'");
      assert.ok(status.includes(`${reason} (<code>${ACS}:${line}</code>)`), 'the data-status page names the reason and the line');
      // Every other market keeps all of its values.
      for (const p of servedProfiles(edited).filter((x) => x.market.id !== 'us-ny-new-york')) assert.equal(p.profile.coverage.percent, 100, p.market.id);
    });
  }
});

describe('geographyScope', () => {
  test('New York and Washington carry it, naming each boundary, its codes and which metrics it measures', () => {
    // FHFA publishes both metros only as metropolitan divisions; the rule picks the division holding the principal city.
    const expected = {
      'us-ny-new-york': { name: 'New York-Jersey City-White Plains, NY-NJ', codes: { cbsa: '35620', division: '35614' }, states: ['NY', 'NJ'] },
      'us-dc-washington': { name: 'Washington, DC-MD', codes: { cbsa: '47900', division: '47764' }, states: ['DC', 'MD'] },
    };
    for (const [id, division] of Object.entries(expected)) {
      const scope = profiles.find((p) => p.market.id === id)?.geographyScope;
      assert.ok(scope, id);
      assert.deepEqual(
        scope.boundaries.map((b) => b.level),
        ['place', 'division'],
      );
      const [place, div] = scope.boundaries;
      assert.deepEqual(div, { level: 'division', ...division, metrics: ['homePriceChange', 'homePriceIndex'] });
      assert.ok(place?.metrics.includes('medianGrossRent') && place.metrics.includes('permits'), id);
    }
  });
  test('every market carries it: the city values and the price index always come from different boundaries', () => {
    for (const p of profiles) {
      const scope = p.geographyScope;
      assert.ok(scope, p.market.id);
      assert.equal(scope.boundaries[0]?.level, 'place', p.market.id);
      assert.ok(['cbsa', 'division'].includes(scope.boundaries[1]?.level ?? ''), p.market.id);
      // Every metric of the profile is on exactly one boundary.
      assert.deepEqual(scope.boundaries.flatMap((b) => b.metrics).sort(), Object.keys(p.profile.metrics).sort(), p.market.id);
    }
  });
  test('a whole metro where FHFA publishes one: Austin', () => {
    const austin = profiles.find((p) => p.market.id === 'us-tx-austin')?.geographyScope;
    assert.deepEqual(austin?.boundaries[1], {
      level: 'cbsa',
      name: 'Austin-Round Rock-San Marcos, TX',
      codes: { cbsa: '12420' },
      states: ['TX'],
      metrics: ['homePriceChange', 'homePriceIndex'],
    });
  });
  test('the note is one clean sentence naming each boundary with its codes', () => {
    assert.equal(
      profiles.find((p) => p.market.id === 'us-dc-washington')?.geographyScope?.note,
      'Median gross rent, median household income, median home value, median owner costs with a mortgage, homeownership rate, vacancy rate, housing units and building permits describe Washington city, District of Columbia (Census place 1150000); the house price index and the year-over-year house price change describe the Washington, DC-MD metropolitan division (47764) of the Washington-Arlington-Alexandria, DC-VA-MD-WV metro area, which spans DC and MD.',
    );
    for (const p of profiles) {
      const note = p.geographyScope?.note ?? '';
      assert.match(note, /^[A-Z][^]*\.$/, p.market.id);
      assert.ok(!/city [A-Z][a-z]+ city/.test(note) && !note.includes('  '), `${p.market.id}: ${note}`);
    }
  });
});

describe('index /api/markets', () => {
  const index = JSON.parse(body(table, PATHS.index)) as {
    count: number;
    markets: { id: string; links: Record<string, string> }[];
    liveData: boolean;
    productionMode: string;
    schemaVersion: string;
  };
  test('lists every market once, sorted by id, with absolute links to its JSON, CSV and page', () => {
    assert.equal(index.count, 16);
    const ids = index.markets.map((m) => m.id);
    assert.deepEqual(ids, [...SPEC_MARKETS].sort());
    for (const m of index.markets) {
      assert.equal(m.links['json'], `${BASE_URL}/api/markets/${m.id}`);
      assert.equal(m.links['csv'], `${BASE_URL}/api/markets/${m.id}/csv`);
      assert.equal(m.links['html'], `${BASE_URL}/markets/${m.id}`);
    }
  });
  test("each entry is its profile's summary: name, metro, scores, illustrative scores, score bounds, coverage, freshness", () => {
    for (const p of servedProfiles(table)) {
      const entry = index.markets.find((m) => m.id === p.market.id) as Record<string, unknown> | undefined;
      assert.deepEqual(
        { ...entry, links: undefined },
        {
          id: p.market.id,
          name: p.market.name,
          state: p.market.state,
          stateCode: p.market.stateCode,
          cbsaName: p.market.cbsaName,
          updatedDate: p.profile.updatedDate,
          scores: p.profile.scores,
          ...(p.profile.illustrativeScores === undefined ? {} : { illustrativeScores: p.profile.illustrativeScores }),
          ...(p.profile.scoreBounds === undefined ? {} : { scoreBounds: p.profile.scoreBounds }),
          coverage: { percent: p.profile.coverage.percent, missing: p.profile.coverage.missing },
          freshness: p.profile.freshness.freshness,
          links: undefined,
        },
        p.market.id,
      );
    }
    // The fixtures give every market a metro name and no illustrative score: the key is left out, never written empty.
    assert.ok(
      index.markets.every((m) => 'cbsaName' in m && !('illustrativeScores' in m)),
      "index.markets.every((m) => 'cbsaName' in m && !('illustrativeScores' in m))",
    );
    // A profile with illustrative scores (an archived snapshot's kind) passes them to its entry.
    const [first, ...rest] = servedProfiles(table);
    assert.ok(first, 'a profile');
    const marked = { ...first, profile: { ...first.profile, illustrativeScores: ['supply'] } } as unknown as Parameters<typeof buildMarketIndex>[0][number];
    assert.deepEqual(
      buildMarketIndex([marked, ...(rest as unknown as Parameters<typeof buildMarketIndex>[0])], '2026-11-29', BASE_URL).markets[0]?.illustrativeScores,
      ['supply'],
    );
  });
  test('sorted by id whatever order the profiles come in', () => {
    const profiles = servedProfiles(table);
    const reversed = buildMarketIndex([...profiles].reverse(), '2026-11-24', BASE_URL);
    assert.deepEqual(
      reversed.markets.map((m) => m.id),
      [...MARKET_IDS].sort(),
    );
  });
  test('carries the same constants as a profile', () => {
    assert.equal(index.schemaVersion, '1');
    assert.equal(index.productionMode, 'static-fixture');
    assert.equal(index.liveData, false);
  });
});

test('the base URL decides every absolute URL, and nothing else changes', () => {
  const other = buildTable('https://data.example.org/housing');
  const p = JSON.parse(body(other, PATHS.profile('us-tx-austin'))) as { links: Record<string, string> };
  assert.equal(p.links['methodology'], 'https://data.example.org/housing/methodology');
  const schema = JSON.parse(body(other, PATHS.profileSchema)) as { $id: string };
  assert.equal(schema.$id, 'https://data.example.org/housing/api/schema/market-profile');
  assert.equal(body(other, PATHS.marketCsv('us-tx-austin')), body(table, PATHS.marketCsv('us-tx-austin')));
});
