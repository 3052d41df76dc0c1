// The pages as a reader meets them: every link resolves in the route table, and each page says what it must.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROFILE_CAVEATS, SCHEMA_VERSION, type MarketIndex, type MarketProfile } from '../../src/contract/schemas.ts';
import { valuesOf, type MetricId } from '../../src/methodology/metrics.ts';
import { THRESHOLDS, THRESHOLD_BASIS, scoreInputs } from '../../src/methodology/scores.ts';
import { METHODOLOGY_VERSION } from '../../src/methodology/version.ts';
import { formatDate, formatMetric, formatNumber, formatShort, formatValue, ordinal } from '../../src/render/pages/format.ts';
import { SCORE_KEYS, scoreLabel } from '../../src/render/pages/scores.ts';
import { basisOf } from '../../src/render/pages/standing.tsx';
import { pageCaveat } from '../../src/render/pages/components.tsx';
import { STYLESHEET } from '../../src/render/pages/stylesheet.ts';
import { ENDPOINTS, PAGES, makeSite } from '../../src/render/pages/site.ts';
import { assembleSnapshot } from '../../src/methodology/snapshot.ts';
import { loadSources } from '../../src/sources/load.ts';
import { PATHS } from '../../src/contract/paths.ts';
import { CONTENT_TYPES, type Kind } from '../../src/protocol/headers.ts';
import { CATALOG_CODES, problemType } from '../../src/protocol/problems.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { WORLD_FIXTURES, WORLD_MARKETS, WORLD_METRICS, WORLD_SOURCES, buildWorld } from '../world/world.ts';

const BASE_URL = 'http://localhost:3000';
const FIXTURES = WORLD_FIXTURES;
const table: RouteTable = buildWorld({ baseUrl: BASE_URL });

/** The site with New York's median gross rent as the Census API writes an estimate it could not compute; built once, for the tests that read it. */
let missingRent: RouteTable | undefined;
const newYorkRentMissing = (): RouteTable =>
  (missingRent ??= buildWorld({
    baseUrl: BASE_URL,
    read: (path) => {
      const raw = readFileSync(join(FIXTURES, path), 'utf8');
      return path === 'census-acs-5yr/acs5-2024-detailed-place.json'
        ? raw.replace('"New York city, New York","1821"', '"New York city, New York","-666666666"')
        : raw;
    },
  }));

const text = (path: string): string => {
  const route = table.routes.get(path);
  assert.ok(route, `no route ${path}`);
  return route.identity.body.toString('utf8');
};
const htmlRoutes = [...table.routes.values()].filter((r) => r.kind === 'html');
const pages: [string, string][] = [
  ...htmlRoutes.map((r): [string, string] => [r.path, r.identity.body.toString('utf8')]),
  ['(404 page)', table.notFoundPage.toString('utf8')],
];
const profiles = table.marketIds.map((id) => JSON.parse(text(PATHS.profile(id))) as MarketProfile);
const index = JSON.parse(text(PATHS.index)) as MarketIndex;
const externalUrls = new Set(profiles.flatMap((p) => p.sources.map((s) => s.sourceUrl)));

const decode = (s: string): string =>
  s.replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : (({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e.toLowerCase()] ?? ''),
  );

/** The visible text of some HTML: tags dropped, entities decoded, whitespace collapsed. */
const visible = (html: string): string => decode(html.replace(/<(title|desc)[^>]*>[\s\S]*?<\/\1>/g, ' ').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');

interface Link {
  tag: string;
  attr: 'href' | 'src';
  value: string;
  rel?: string;
  type?: string;
}

function linksOf(html: string): Link[] {
  const out: Link[] = [];
  for (const tag of html.matchAll(/<(a|link|img|script|iframe|source)\b([^>]*)>/g)) {
    const attrs = new Map([...(tag[2] ?? '').matchAll(/([a-z-]+)="([^"]*)"/g)].map((m) => [m[1] ?? '', decode(m[2] ?? '')]));
    for (const attr of ['href', 'src'] as const) {
      const value = attrs.get(attr);
      if (value !== undefined) out.push({ tag: tag[1] ?? '', attr, value, rel: attrs.get('rel'), type: attrs.get('type') });
    }
  }
  return out;
}

const idsOf = (html: string): Set<string> => new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => decode(m[1] ?? '')));

/** The kind of answer a path should give: pages are HTML, the API JSON or CSV. */
function expectedKind(path: string): Kind {
  if (path === PATHS.download) return 'zip';
  if (path === PATHS.robots) return 'text';
  if (path === PATHS.sitemap) return 'xml';
  if (path.startsWith('/api/')) return path.endsWith('/csv') ? 'csv' : 'json';
  if (path === PATHS.stylesheet) return 'css';
  return 'html';
}

/** Resolves one link to a route path and fragment, or says why it does not resolve. */
function resolve(value: string): { path: string; fragment: string | undefined } | { external: string } {
  if (value.startsWith('#')) return { path: '', fragment: value.slice(1) };
  let rest: string;
  if (value.startsWith(`${BASE_URL}/`)) rest = value.slice(BASE_URL.length);
  else if (value.startsWith('/') && !value.startsWith('//')) rest = value;
  else if (/^https?:\/\//.test(value)) return { external: value };
  else throw new Error(`link "${value}" is neither a root path, an absolute URL under ${BASE_URL}, nor an external http(s) URL`);
  const hash = rest.indexOf('#');
  return hash === -1 ? { path: rest, fragment: undefined } : { path: rest.slice(0, hash), fragment: rest.slice(hash + 1) };
}

function assertResolves(from: string, html: string, link: Link): void {
  const where = `${from}: <${link.tag} ${link.attr}="${link.value}">`;
  if (link.value.startsWith('data:')) {
    // Only the site icon may be inline; the page CSP allows data: images and nothing else.
    assert.ok(link.tag === 'link' && link.rel === 'icon' && link.value.startsWith('data:image/svg+xml,'), `${where} is a data: URI that is not the icon`);
    return;
  }
  const target = resolve(link.value);
  if ('external' in target) {
    // External links are the sources' landing pages only; the checker does not fetch them.
    assert.ok(externalUrls.has(target.external), `${where} is an external link that is not a source landing page`);
    return;
  }
  const path = target.path === '' ? undefined : target.path;
  if (path !== undefined) {
    const route = table.routes.get(path);
    assert.ok(route, `${where} does not resolve to a route`);
    const kind = expectedKind(path);
    assert.equal(route.kind, kind, `${where} should answer ${kind}`);
    assert.equal(route.contentType, CONTENT_TYPES[kind], `${where} content type`);
    if (link.type !== undefined) assert.ok(route.contentType.startsWith(link.type), `${where} declares type ${link.type} but answers ${route.contentType}`);
    if (link.rel === 'stylesheet') assert.equal(route.kind, 'css', `${where} stylesheet`);
  }
  if (target.fragment !== undefined && target.fragment !== '') {
    const targetHtml = path === undefined ? html : text(path);
    assert.ok(idsOf(targetHtml).has(target.fragment), `${where}: no element with id "${target.fragment}" in ${path ?? from}`);
  }
}

describe('link checker over the route table', () => {
  it('has an HTML route for the home page, every page profiles link, and every market', () => {
    for (const p of PAGES) assert.equal(table.routes.get(p.path)?.kind, 'html', p.path);
    for (const id of table.marketIds) assert.equal(table.routes.get(PATHS.marketPage(id))?.kind, 'html', id);
    assert.equal(table.marketIds.length, 16);
  });

  it('resolves every href and src of every page, fragments included', () => {
    let checked = 0;
    for (const [path, html] of pages) {
      const links = linksOf(html);
      assert.ok(links.length > 20, `${path} has only ${links.length} links`);
      for (const link of links) {
        assertResolves(path, html, link);
        checked += 1;
      }
    }
    assert.ok(checked > 1000, `checked only ${checked} links`);
  });

  it("resolves every profile's links to an HTML page, and every index link to its kind", () => {
    for (const p of profiles) {
      for (const [key, url] of Object.entries(p.links)) {
        assert.ok(url.startsWith(`${BASE_URL}/`), `${p.market.id} links.${key}`);
        const route = table.routes.get(url.slice(BASE_URL.length));
        assert.equal(route?.contentType, CONTENT_TYPES.html, `${p.market.id} links.${key} = ${url}`);
      }
    }
    const indexLinks = [...Object.values(index.links), ...index.markets.flatMap((m) => Object.values(m.links))];
    for (const url of indexLinks) {
      const path = url.slice(BASE_URL.length);
      assert.equal(table.routes.get(path)?.kind, expectedKind(path), url);
    }
  });

  it('gives every page a nav or footer link to every page and every endpoint', () => {
    for (const [path, html] of pages) {
      const hrefs = new Set(linksOf(html).map((l) => l.value));
      for (const p of PAGES) assert.ok(hrefs.has(p.path), `${path} does not link ${p.path}`);
      for (const e of ENDPOINTS) assert.ok(hrefs.has(e.path), `${path} does not link ${e.path}`);
      for (const id of table.marketIds) assert.ok(hrefs.has(PATHS.marketPage(id)), `${path} does not link market ${id}`);
    }
  });

  it('keeps links under the base URL path when the service is mounted below a prefix', () => {
    const snapshot = assembleSnapshot(
      WORLD_MARKETS,
      loadSources((path) => readFileSync(join(FIXTURES, path), 'utf8'), WORLD_MARKETS, WORLD_SOURCES),
      BASE_URL,
    );
    const site = makeSite({ baseUrl: 'https://example.org/housing', snapshot });
    assert.equal(site.href(PATHS.methodology), '/housing/methodology');
    assert.equal(site.href(PATHS.home), '/housing/');
    assert.equal(site.url(PATHS.index), 'https://example.org/housing/api/markets');
    assert.equal(makeSite({ baseUrl: BASE_URL, snapshot }).href(PATHS.home), '/');
  });

  it('lists each endpoint with the content type the route table serves', () => {
    for (const e of ENDPOINTS) assert.equal(e.contentType, table.routes.get(e.path)?.contentType, e.path);
  });
});

describe('every page', () => {
  it('is a complete document with landmarks, one h1 and headings in order', () => {
    for (const [path, html] of pages) {
      assert.ok(html.startsWith('<!doctype html>\n<html lang="en">'), path);
      assert.match(html, /<title>[^<]+<\/title>/, path);
      for (const landmark of ['<header', '<nav', '<main', '<footer']) assert.ok(html.includes(landmark), `${path} lacks ${landmark}`);
      const levels = [...html.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
      assert.equal(levels.filter((l) => l === 1).length, 1, `${path} must have exactly one h1`);
      assert.equal(levels[0], 1, `${path} must start with its h1`);
      levels.reduce((prev, level) => {
        assert.ok(level <= prev + 1, `${path}: h${level} follows h${prev}`);
        return level;
      });
    }
  });

  it('needs no script and carries no inline style, so the page CSP holds', () => {
    for (const [path, html] of pages) {
      const found = html.match(/<script|<style|\sstyle=|\son[a-z]+=|javascript:/i);
      assert.equal(found, null, `${path} has ${found?.[0] ?? ''}`);
    }
  });

  it('labels every table header cell with a scope and every table with a caption', () => {
    for (const [path, html] of pages) {
      const bare = html.match(/<th(?=[\s>])(?![^>]*\bscope=")[^>]*>/);
      assert.equal(bare, null, `${path} has a th without scope: ${bare?.[0] ?? ''}`);
      assert.equal((html.match(/<table/g) ?? []).length, (html.match(/<caption>/g) ?? []).length, `${path}: a table lacks its caption`);
      for (const svg of html.matchAll(/<svg\b[^>]*>/g)) {
        const tag = svg[0];
        assert.ok(/aria-hidden="true"/.test(tag) || (/role="img"/.test(tag) && /aria-labelledby="/.test(tag)), `${path}: ${tag} has no accessible name`);
      }
    }
  });

  it('is deterministic: the same fixtures give the same bytes', () => {
    const again = buildWorld({ baseUrl: BASE_URL });
    for (const r of htmlRoutes) assert.ok(again.routes.get(r.path)?.identity.body.equals(r.identity.body), r.path);
    assert.ok(again.notFoundPage.equals(table.notFoundPage), 'again.notFoundPage.equals(table.notFoundPage)');
  });
});

describe('market pages', () => {
  const rowsOf = (html: string): string[] => [...html.matchAll(/<tr\b[\s\S]*?<\/tr>/g)].map((m) => m[0]);

  for (const p of profiles) {
    const id = p.market.id;
    it(`${id}: every metric with value, unit, period and linked source; coverage, caveats, downloads`, () => {
      const html = text(PATHS.marketPage(id));
      const words = visible(html);
      assert.ok(words.includes(`${p.market.name}, ${p.market.stateCode}`), 'market name');
      assert.ok(words.includes(p.market.state), 'state');
      if (p.market.cbsaName !== undefined) assert.ok(words.includes(p.market.cbsaName), 'metro');
      const rows = rowsOf(html);
      for (const metric of Object.values(p.profile.metrics)) {
        const row = rows.find((r) => r.includes(`href="/methodology#metric-${metric.id}"`));
        assert.ok(row, `${id}: no row for ${metric.id}`);
        const source = p.sources.find((s) => s.sourceId === metric.sourceId);
        assert.ok(source, 'source');
        const rowText = visible(row);
        assert.ok(rowText.includes(formatMetric(metric)), `${id} ${metric.id}: "${formatMetric(metric)}" not in "${rowText}"`);
        assert.ok(rowText.includes(metric.asOf), `${id} ${metric.id}: period`);
        assert.ok(row.includes(`href="/data-sources#${metric.sourceId}"`) && rowText.includes(source.sourceName), `${id} ${metric.id}: source link`);
      }
      for (const missing of p.profile.coverage.missing) {
        const row = rows.find((r) => r.includes(`href="/methodology#metric-${missing}"`));
        assert.ok(row !== undefined && visible(row).includes('Not available'), `${id}: missing ${missing} not said plainly`);
      }
      for (const s of p.sources) assert.ok(html.includes(`href="${s.sourceUrl}"`), `${id}: landing page of ${s.sourceId}`);
      assert.ok(words.includes(`${p.profile.coverage.totalProvided} of the ${p.profile.coverage.totalRequired} metrics`), 'coverage');
      for (const c of p.caveats) assert.ok(words.includes(pageCaveat(c)), `${id}: caveat "${pageCaveat(c)}"`);
      assert.ok(html.includes(`<section class="caveats" aria-labelledby="caveats">`), 'caveats section');
      assert.ok(html.includes(`<a href="${PATHS.profile(id)}" type="application/json">`), 'JSON download');
      assert.ok(html.includes(`<a href="${PATHS.marketCsv(id)}" type="text/csv"`), 'CSV download');
      assert.ok(html.includes(`<link rel="alternate" type="application/json" href="${PATHS.profile(id)}"`), 'alternate JSON');
      assert.ok(html.includes(`<link rel="alternate" type="text/csv" href="${PATHS.marketCsv(id)}"`), 'alternate CSV');
      assert.match(html, /<svg class="chart chart-market"[^>]*role="img"/, 'score chart');
      for (const [key, value] of Object.entries(p.profile.scores))
        assert.ok(
          rows.some((r) => visible(r).includes(`${scoreLabel(key)} ${value} / 100`)),
          `${id}: score ${key}`,
        );
    });

    it(`${id}: what each number covers, from geographyScope, with each boundary's name and code`, () => {
      const html = text(PATHS.marketPage(id));
      // Every market mixes the city's values with a metro's or a division's price index, so every market has the line.
      assert.ok(p.geographyScope, `${id} has no geographyScope`);
      const line = html.match(/<p class="covers" id="geography">([\s\S]*?)<\/p>/)?.[1];
      assert.ok(line !== undefined, `${id}: no "What each number covers" line`);
      const covers = visible(line).trim();
      assert.ok(covers.startsWith('What each number covers:'), covers);
      for (const b of p.geographyScope.boundaries) {
        assert.ok(covers.includes(b.name), `${id}: boundary ${b.name} in "${covers}"`);
        const code = b.level === 'place' ? Object.values(b.codes).join('') : (b.codes['division'] ?? b.codes['cbsa'] ?? '');
        assert.ok(covers.includes(code), `${id}: code ${code} in "${covers}"`);
      }
      assert.ok(!html.includes('notice-geography'), 'the old warning box is gone');
    });

    it(`${id}: every metric placed among the markets, the price index over time, every chart named`, () => {
      const html = text(PATHS.marketPage(id));
      const rows = rowsOf(html);
      for (const metric of Object.values(p.profile.metrics)) {
        const row = rows.find((r) => r.includes(`href="/methodology#metric-${metric.id}"`)) ?? '';
        assert.match(visible(row), new RegExp(`(\\d+(st|nd|rd|th) )?(highest|lowest) of ${profiles.length}`), `${id} ${metric.id}: rank`);
      }
      assert.match(html, /<svg class="chart chart-market"[^>]*role="img" aria-labelledby="score-chart-title score-chart-desc"/, 'score chart');
      assert.match(html, /<svg class="chart chart-standing"[^>]*role="img" aria-labelledby="standing-chart-title standing-chart-desc"/, 'standing chart');
      assert.match(html, /<svg class="chart chart-price"[^>]*role="img" aria-labelledby="price-chart-title price-chart-desc"/, 'price chart');
      const standing = html.match(/<desc id="standing-chart-desc">([^<]*)<\/desc>/)?.[1] ?? '';
      // Each metric is placed by what it is ranked by: permits per 1,000 housing units, the price index by the year's change.
      for (const metric of Object.values(p.profile.metrics)) {
        const basis = basisOf(metric.id as MetricId);
        const value = basis.of(valuesOf(p.profile.metrics));
        assert.ok(value !== undefined && decode(standing).includes(basis.format(value)), `${id}: ${metric.id} in the standing chart's description`);
      }
      const title = decode(html.match(/<title id="price-chart-title">([^<]*)<\/title>/)?.[1] ?? '');
      assert.match(title, /, 19[789]\d Q\d to 2026 Q2 \(1995 Q1 = 100\)/, `${id}: ${title}`);
      assert.ok(
        html.includes('<summary>Every quarter&#39;s value, as a table</summary>') || html.includes("<summary>Every quarter's value, as a table</summary>"),
        'table of every quarter',
      );
    });
  }

  it("ranks permits per 1,000 housing units and the price index by the year's change, and says so in the cell", () => {
    const rankCell = (id: string, metricId: MetricId): string =>
      visible(rowsOf(text(PATHS.marketPage(id))).find((r) => r.includes(`href="/methodology#metric-${metricId}"`)) ?? '');
    /** The place from the top among every market's value (ties share the higher place), counted here, not by the page's code. */
    const placeOf = (value: number, all: number[]): string => {
      const place = all.filter((v) => v > value).length + 1;
      const tied = all.filter((v) => v === value).length > 1 ? 'tied ' : '';
      return `${tied}${place === 1 ? '' : `${ordinal(place)} `}highest of ${profiles.length}`;
    };
    /** The cell says the place, then what the rank is by and the market's figure on it. */
    const says = (cell: string, place: string, by: string): boolean => cell.includes(`${place}, ${by}`);
    const perThousand = profiles.map((p) => {
      const permits = p.profile.metrics.permits?.value ?? NaN;
      const units = p.profile.metrics.housingUnits?.value ?? NaN;
      return (permits / units) * 1000;
    });
    const changes = profiles.map((p) => p.profile.metrics.homePriceChange?.value ?? NaN);
    for (const [i, p] of profiles.entries()) {
      const id = p.market.id;
      const own = perThousand[i] ?? NaN;
      // The methodology's own derived input, which the supply score reads, is the figure the cell shows.
      assert.equal(formatNumber(scoreInputs(valuesOf(p.profile.metrics)).permitsPerThousand ?? NaN, 1), formatNumber(own, 1));
      assert.ok(
        says(rankCell(id, 'permits'), placeOf(own, perThousand), `by new units authorized per 1,000 existing units (${formatNumber(own, 1)})`),
        `${id}: ${rankCell(id, 'permits')}`,
      );
      const change = changes[i] ?? NaN;
      assert.ok(
        says(rankCell(id, 'homePriceIndex'), placeOf(change, changes), `by the year-over-year house price change (${formatShort('homePriceChange', change)})`),
        `${id}: ${rankCell(id, 'homePriceIndex')}`,
      );
    }
    // New York has the most permits and Miami the highest index, which said nothing of where they stand.
    assert.ok(
      rankCell('us-ny-new-york', 'permits').includes('11th highest of 16, by new units authorized per 1,000 existing units (7.4)'),
      "rankCell('us-ny-new-york', 'permits').includes('11th highest of 16, by new units authorized per 1,000 existing units (7.4)')",
    );
    assert.ok(
      rankCell('us-fl-miami', 'homePriceIndex').includes('6th highest of 16, by the year-over-year house price change (1.3%)'),
      "rankCell('us-fl-miami', 'homePriceIndex').includes('6th highest of 16, by the year-over-year house price change (1.3%)')",
    );
    const note = visible(text(PATHS.marketPage('us-ny-new-york')).match(/<h3 id="standing">[\s\S]*?<\/p>/)?.[0] ?? '');
    assert.ok(note.includes('building permits, by new units authorized per 1,000 existing units'), note);
    assert.ok(note.includes('the house price index, by the year-over-year house price change'), note);
  });

  it('says every rank in one direction, from the highest, and a tie as a tie', () => {
    for (const p of profiles) {
      const html = text(PATHS.marketPage(p.market.id));
      for (const row of rowsOf(html).filter((r) => r.includes('data-label="Among the markets"'))) {
        const cell = visible(row.match(/data-label="Among the markets">([\s\S]*?)<\/td>/)?.[1] ?? '').trim();
        assert.match(cell, new RegExp(`^(tied )?(\\d+(st|nd|rd|th) )?highest of ${profiles.length}(, by .+)?$`), cell);
      }
    }
    // Chicago's and Nashville's vacancy rates are both 9.1 %, the 7th highest.
    for (const id of ['us-il-chicago', 'us-tn-nashville']) {
      const row = visible(rowsOf(text(PATHS.marketPage(id))).find((r) => r.includes('href="/methodology#metric-vacancyRate"')) ?? '');
      assert.ok(row.includes('tied 7th highest of 16'), row);
    }
  });

  it('says plainly when a value is missing, and why the scores that need it are absent', () => {
    const edited = newYorkRentMissing();
    const words = visible(edited.routes.get(PATHS.marketPage('us-ny-new-york'))?.identity.body.toString('utf8') ?? '');
    assert.ok(words.includes('Missing: “Median gross rent”.'), words);
    for (const key of ['renterAffordability', 'affordability', 'overall']) assert.ok(words.includes(`${scoreLabel(key)} Not computed`), `${key} not computed`);
    assert.ok(
      words.includes(`${scoreLabel('ownerAffordability')} `) && !words.includes(`${scoreLabel('ownerAffordability')} Not computed`),
      "words.includes(`${scoreLabel('ownerAffordability')} `) && !words.includes(`${scoreLabel('ownerAffordability')} Not computed`)",
    );
    assert.ok(words.includes('never shown as 0'), "words.includes('never shown as 0')");
    assert.ok(words.includes('Coverage: 9 of the 10 metrics'), "words.includes('Coverage: 9 of the 10 metrics')");
  });

  it('says what each number covers: the metropolitan division for New York and Washington, the whole metro for Austin', () => {
    const covers = (id: string): string => visible(text(PATHS.marketPage(id)).match(/<p class="covers" id="geography">([\s\S]*?)<\/p>/)?.[1] ?? '').trim();
    assert.equal(
      covers('us-ny-new-york'),
      'What each number covers: the house price index and the year-over-year house price change describe the New York-Jersey City-White Plains, NY-NJ metropolitan division (35614) of the New York-Newark-Jersey City, NY-NJ metro area, which spans NY and NJ; every other number describes New York city, New York (Census place 3651000).',
    );
    assert.ok(
      covers('us-dc-washington').includes(
        'the Washington, DC-MD metropolitan division (47764) of the Washington-Arlington-Alexandria, DC-VA-MD-WV metro area, which spans DC and MD',
      ),
      "covers('us-dc-washington').includes( 'the Washington, DC-MD metropolitan division (47764) of the Washington-Arlington-Alexandria, DC-VA-MD-WV metro area, which spans DC and MD', )",
    );
    assert.equal(
      covers('us-tx-austin'),
      'What each number covers: the house price index and the year-over-year house price change describe the Austin-Round Rock-San Marcos, TX metro area (CBSA 12420); every other number describes Austin city, Texas (Census place 4805000).',
    );
  });

  it('New York: its permits are the sum of the five borough rows, said beside the value; no page says it lacks permits', () => {
    const ny = text(PATHS.marketPage('us-ny-new-york'));
    const row = rowsOf(ny).find((r) => r.includes('href="/methodology#metric-permits"')) ?? '';
    assert.ok(
      visible(row).includes(
        'The sum of the five rows the Building Permits Survey publishes for New York city, New York, one per county: Bronx borough, Brooklyn borough, Manhattan borough, Queens borough and Staten Island borough.',
      ),
      visible(row),
    );
    assert.ok(visible(row).includes('27,241 units'), "visible(row).includes('27,241 units')");
    for (const p of profiles.filter((x) => x.market.id !== 'us-ny-new-york')) {
      const other = rowsOf(text(PATHS.marketPage(p.market.id))).find((r) => r.includes('href="/methodology#metric-permits"')) ?? '';
      assert.ok(!other.includes('value-note'), `${p.market.id}: a permits note`);
    }
    assert.ok(!visible(row).includes('Not available'), "!visible(row).includes('Not available')");
    const lacking = /\b(no|lacks?|missing|without) (building )?permits\b/i;
    // The changelog alone may say it: under methodology v1.0 New York had no permits value, which is history.
    for (const [path, html] of pages.filter(([path]) => path !== PATHS.changelog)) assert.doesNotMatch(visible(html), lacking, path);
    assert.doesNotMatch(readFileSync(new URL('../../docs/pages.md', import.meta.url), 'utf8'), lacking);
  });

  it("New York: the price chart runs over the fixture's every quarter and marks the published year-over-year change", () => {
    const html = text(PATHS.marketPage('us-ny-new-york'));
    const ny = profiles.find((p) => p.market.id === 'us-ny-new-york');
    const change = ny?.profile.metrics['homePriceChange']?.value ?? NaN;
    const chart = html.match(/<svg class="chart chart-price"[\s\S]*?<\/svg>\s*<p class="chart-data"/)?.[0] ?? '';
    assert.ok(visible(chart).includes(`2026 Q2: 454.16 +${formatNumber(change, 1)}% on 2025 Q2`), visible(chart));
    // Every quarter of the fixture's series is in the table behind the chart: 1975 Q3 (the first with a value) to 2026 Q2.
    // The chart links the numbers it draws: the market's series, as CSV and JSON.
    const data = html.match(/chart chart-price[\s\S]*?(<p class="chart-data">[\s\S]*?<\/p>)/)?.[1] ?? '';
    assert.ok(data.includes(`href="${PATHS.seriesCsv('us-ny-new-york')}"`) && data.includes(`href="${PATHS.series('us-ny-new-york')}"`), data);
    const table = html.match(/<table class="compact">[\s\S]*?<\/table>/)?.[0] ?? '';
    const csv = readFileSync(join(FIXTURES, 'fhfa-hpi/hpi_at_metro.csv'), 'utf8')
      .split('\n')
      .filter((l) => l.includes(',35614,') && !l.endsWith(',-,-'));
    assert.ok(csv.length > 190, `${csv.length} quarters`);
    for (const line of csv) {
      const value = Number(line.split(',').at(-2));
      assert.ok(table.includes(`>${formatNumber(value, 2)}<`), line);
    }
  });

  it('writes numbers for people: thousands separators in the page, raw values in the API', () => {
    const ny = profiles.find((p) => p.market.id === 'us-ny-new-york');
    const units = ny?.profile.metrics['housingUnits']?.value;
    assert.equal(units, 3678486);
    const words = visible(text(PATHS.marketPage('us-ny-new-york')));
    assert.ok(words.includes('3,678,486 units'), "words.includes('3,678,486 units')");
    assert.ok(!words.includes('3678486'), "!words.includes('3678486')");
    assert.ok(words.includes('$1,821 per month'), "words.includes('$1,821 per month')");
  });

  it("shows the agency's margin of error beside each published ACS value and the state's figure beside it, and marks nothing illustrative", () => {
    const ny = text(PATHS.marketPage('us-ny-new-york'));
    const cell = (metricId: string): string => visible(rowsOf(ny).find((r) => r.includes(`href="/methodology#metric-${metricId}"`)) ?? '');
    // The Census Bureau's 2020-2024 estimates for New York city and New York State, with their 90 % margins (test/unit/published-values.test.ts).
    assert.ok(cell('medianGrossRent').includes('$1,821 per month ± $7'), cell('medianGrossRent'));
    assert.ok(cell('medianHouseholdIncome').includes('$80,483 per year ± $601'), cell('medianHouseholdIncome'));
    assert.ok(cell('medianHomeValue').includes('$777,600 ± $4,889'), cell('medianHomeValue'));
    assert.ok(cell('housingUnits').includes('3,678,486 units ± 1,496'), cell('housingUnits'));
    assert.ok(cell('medianOwnerCostsWithMortgage').includes('$3,293 per month ± $'), cell('medianOwnerCostsWithMortgage'));
    assert.ok(cell('homeownershipRate').includes('32.8% ± 0.'), cell('homeownershipRate'));
    for (const row of rowsOf(ny).filter((r) => r.includes('href="/methodology#metric-'))) assert.ok(!visible(row).includes('illustrative'), visible(row));
    const scores = rowsOf(ny).filter((r) => r.includes('/ 100'));
    assert.equal(scores.length, 5);
    for (const r of scores) assert.ok(!visible(r).includes('illustrative'), visible(r));
  });

  it('data status: names each release due before the snapshot and not in it, with the period it covers and the one served', () => {
    const words = visible(text(PATHS.dataStatus));
    assert.ok(
      words.includes(`the 2025 release was due on ${formatDate('2026-05-01')}, before the snapshot, and is not in it; this snapshot serves 2024`),
      words,
    );
    assert.ok(
      words.includes(`the 2026 Q3 release was due on ${formatDate('2026-11-25')}, before the snapshot, and is not in it; this snapshot serves 2026 Q2`),
      words,
    );
  });

  it("says beside each ACS figure whether the state's differs from it at the 90 % level, as the Census Bureau's test finds", () => {
    const stateCell = (id: string, metricId: string): string =>
      visible(
        rowsOf(text(PATHS.marketPage(id)))
          .find((r) => r.includes(`href="/methodology#metric-${metricId}"`))
          ?.match(/data-label="Its state">([\s\S]*?)<\/td>/)?.[1] ?? '',
      ).trim();
    // Austin's rent 1,729 ± 14 against Texas's 1,403 ± 4: the difference, 326, is far beyond √(14² + 4²) = 14.6.
    assert.equal(stateCell('us-tx-austin', 'medianGrossRent'), '$1,403 ± $4 Texas: Austin higher, a significant difference');
    // Austin's homeownership 43.4 ± 0.7 against Texas's 62.6 ± 0.3.
    assert.equal(stateCell('us-tx-austin', 'homeownershipRate'), '62.6% ± 0.3% Texas: Austin lower, a significant difference');
    // Seattle's vacancy rate 7.7 ± 0.4 against Washington State's 7.3 ± 0.2: 0.4 apart, within √(0.4² + 0.2²) = 0.45.
    const seattle = stateCell('us-wa-seattle', 'vacancyRate');
    assert.ok(seattle.endsWith('Washington: no significant difference'), seattle);
    // Washington city is the District: the same figure, said so.
    assert.ok(
      stateCell('us-dc-washington', 'medianGrossRent').endsWith('District of Columbia: one area with Washington: the same figure'),
      stateCell('us-dc-washington', 'medianGrossRent'),
    );
    // San Francisco's owner costs have no margin (a median in the open-ended top interval): the test cannot be made, and the page says so.
    assert.ok(
      stateCell('us-ca-san-francisco', 'medianOwnerCostsWithMortgage').endsWith('California: no margin to test the difference'),
      stateCell('us-ca-san-francisco', 'medianOwnerCostsWithMortgage'),
    );
    // Housing units: the state's figure, no verdict (a city always has fewer homes than its state).
    assert.equal(stateCell('us-tx-austin', 'housingUnits'), '12,128,515 ± 1,574 Texas');
    // The price change beside the state's and the nation's: FHFA publishes no margin, so no verdict.
    assert.equal(stateCell('us-tx-austin', 'homePriceChange'), '1.6% Texas 3.0% United States');
    // The income beside the nation's too, each with its verdict.
    assert.match(
      stateCell('us-tx-austin', 'medianHouseholdIncome'),
      /Texas: Austin higher, a significant difference.*United States: Austin higher, a significant difference$/,
    );
    // Sources with no state figure: a dash.
    for (const metricId of ['permits', 'homePriceIndex']) assert.equal(stateCell('us-tx-austin', metricId), '—', metricId);
  });
});

describe('good news and warnings', () => {
  /** The class of the paragraph that holds a sentence, on a page. */
  const classOf = (html: string, sentence: string): string | undefined =>
    [...html.matchAll(/<p(?: class="([^"]*)")?>([\s\S]*?)<\/p>/g)].find((m) => visible(m[2] ?? '').includes(sentence))?.[1];

  it('says that nothing is missing, and that the worked example matches, as good news, not in a warning box', () => {
    assert.equal(classOf(text(PATHS.dataStatus), 'Every market has every required metric.'), 'confirm');
    assert.equal(classOf(text(PATHS.methodology), 'These are the scores the profile publishes:'), 'confirm');
    for (const p of profiles) assert.equal(classOf(text(PATHS.marketPage(p.market.id)), 'Every required metric is present.'), 'confirm', p.market.id);
    // The good-news style is not the warning's: neither its colours nor its class.
    const rule = STYLESHEET.match(/\n\.confirm \{[^}]*\}/)?.[0] ?? '';
    assert.ok(rule.includes('var(--confirm)') && !rule.includes('notice'), rule);
  });

  it('keeps the warning box for what is missing', () => {
    const edited = newYorkRentMissing();
    const page = (path: string): string => edited.routes.get(path)?.identity.body.toString('utf8') ?? '';
    assert.equal(classOf(page(PATHS.dataStatus), '1 of 16 markets lacks a required metric: New York, NY.'), 'notice');
    assert.equal(classOf(page(PATHS.marketPage('us-ny-new-york')), 'Missing: “Median gross rent”.'), 'notice notice-missing');
    assert.equal(classOf(page(PATHS.marketPage('us-tx-austin')), 'Every required metric is present.'), 'confirm');
  });
});

describe('caveats', () => {
  it('are worded for a page on every page that shows them, and stay verbatim in the JSON', () => {
    // Every caveat the contract fixes has a page wording where its JSON words name an endpoint or a JSON field.
    for (const c of PROFILE_CAVEATS) assert.doesNotMatch(pageCaveat(c), /\bendpoint\b|\bJSON\b|"illustrative": true/, c);
    let shown = 0;
    for (const [path, html] of pages) {
      const section = html.match(/<section class="caveats"[\s\S]*?<\/section>/)?.[0];
      if (section === undefined) continue;
      shown += 1;
      const words = visible(section);
      assert.doesNotMatch(words, /This endpoint|Production JSON|"illustrative": true/, path);
      for (const c of PROFILE_CAVEATS) assert.ok(words.includes(pageCaveat(c)), `${path}: "${pageCaveat(c)}"`);
    }
    assert.equal(shown, 1 + profiles.length, 'the home page and every market page');
    assert.ok(
      visible(text(PATHS.home)).includes('This page shows no live data: values are not live, not real-time and not forecasts.'),
      "visible(text(PATHS.home)).includes('This page shows no live data: values are not live, not real-time and not forecasts.')",
    );
    for (const p of profiles) assert.deepEqual(p.caveats, PROFILE_CAVEATS, p.market.id);
    assert.deepEqual(index.caveats, PROFILE_CAVEATS);
  });
});

describe('numbers and dates for people', () => {
  it('writes each unit in words or symbols, with thousands separators and the published decimals', () => {
    assert.equal(formatValue(1843, 'USD/mo', 0), '$1,843 per month');
    assert.equal(formatValue(81286, 'USD/yr', 0), '$81,286 per year');
    assert.equal(formatValue(52, '%', 1), '52.0%');
    assert.equal(formatValue(386.91, 'index', 2), '386.91 (index)');
    assert.equal(formatValue(3718427, 'units', 0), '3,718,427 units');
    assert.equal(formatValue(12.5, 'acres', 1), '12.5 acres');
    assert.equal(formatDate('2026-09-28'), 'September 28, 2026');
  });
});

describe('site pages', () => {
  it('home: what the service is, a comparison table of all markets and a chart of scores', () => {
    const html = text(PATHS.home);
    const words = visible(html);
    assert.ok(words.includes('static fixture') || words.includes('Static fixture'), "words.includes('static fixture') || words.includes('Static fixture')");
    assert.match(html, /<table class="compare">/);
    for (const m of index.markets) assert.ok(html.includes(`href="${PATHS.marketPage(m.id)}"`), m.id);
    assert.match(html, /<svg class="chart chart-compare"[^>]*aria-labelledby="comparison-chart-title comparison-chart-desc"/);
    const chart = html.match(/<svg class="chart chart-compare"[\s\S]*?<\/svg>/)?.[0] ?? '';
    assert.equal(
      (chart.match(/<rect [^>]*fill="#/g) ?? []).length,
      index.markets.reduce((n, m) => n + Object.keys(m.scores).length, 0),
      'one bar per published score',
    );
    // The headline column says what it is: renters and owners both.
    const head = html.match(/<table class="compare">[\s\S]*?<\/thead>/)?.[0] ?? '';
    for (const key of SCORE_KEYS) assert.ok(visible(head).includes(scoreLabel(key)), key);
    assert.ok(visible(head).includes('Affordability (renters and owners)'), "visible(head).includes('Affordability (renters and owners)')");
  });

  it('home: a map with one labelled dot per market, coloured by a score the legend names', () => {
    const html = text(PATHS.home);
    const map = html.match(/<svg class="map"[\s\S]*?<\/svg>/)?.[0] ?? '';
    assert.match(map, /^<svg class="map" viewBox="0 0 975 610" width="100%" role="img" aria-labelledby="map-title map-desc">/);
    assert.equal((map.match(/<circle class="map-dot"/g) ?? []).length, index.markets.length);
    const desc = decode(map.match(/<desc id="map-desc">([^<]*)<\/desc>/)?.[1] ?? '');
    const labels = visible(map.match(/<g class="map-labels map-labels-wide">[\s\S]*?<\/g>/)?.[0] ?? '');
    for (const m of index.markets) {
      const score = m.scores.affordability;
      assert.ok(desc.includes(`${m.name}, ${m.stateCode} ${score ?? 'not computed'}`), `${m.id} in the map's description`);
      assert.ok(labels.includes(`${m.name}, ${m.stateCode} ${score ?? 'n/a'}`), `${m.id} labelled on the map`);
    }
    const legend = visible(html.match(/<ul class="legend map-legend">[\s\S]*?<\/ul>/)?.[0] ?? '');
    for (const range of ['0–19', '20–39', '40–59', '60–79', '80–100', 'not computed']) assert.ok(legend.includes(range), range);
    assert.ok(
      visible(html).includes('coloured by its affordability (renters and owners) score'),
      "visible(html).includes('coloured by its affordability (renters and owners) score')",
    );
  });

  it('home: every metric compared across the markets, in a chart each and in one table', () => {
    const html = text(PATHS.home);
    for (const m of WORLD_METRICS) {
      const chart = html.match(
        new RegExp(`<svg class="chart chart-metric"[^>]*aria-labelledby="metric-chart-${m.id}-title metric-chart-${m.id}-desc">[\\s\\S]*?</svg>`),
      )?.[0];
      assert.ok(chart, `${m.id}: no chart`);
      const desc = decode(chart.match(/<desc[^>]*>([^<]*)<\/desc>/)?.[1] ?? '');
      for (const p of profiles) {
        const v = p.profile.metrics[m.id]?.value;
        assert.ok(desc.includes(`${p.market.name}, ${p.market.stateCode} ${v === undefined ? 'no value' : formatShort(m.id, v)}`), `${m.id} ${p.market.id}`);
      }
    }
    const table = html.match(/<table class="dense">[\s\S]*?<\/table>/)?.[0] ?? '';
    const rows = [...table.matchAll(/<tr>[\s\S]*?<\/tr>/g)].map((r) => r[0]);
    for (const p of profiles) {
      const row = rows.find((r) => r.includes(`href="${PATHS.marketPage(p.market.id)}"`));
      assert.ok(row, p.market.id);
      const cells = [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => visible(c[1] ?? '').trim());
      assert.deepEqual(
        cells,
        WORLD_METRICS.map((m) => {
          const v = p.profile.metrics[m.id]?.value;
          return v === undefined ? '— no value' : formatShort(m.id, v);
        }),
        p.market.id,
      );
    }
  });

  it('home, market and methodology pages name the illustrative values where the numbers are, linking the data-status page', () => {
    // Today's fixtures have none: a test world whose ACS retrieval.json marks the vacancy rates illustrative, as a hand-made fixture would.
    const marked = buildWorld({
      baseUrl: BASE_URL,
      read: (path) => {
        const raw = readFileSync(join(FIXTURES, path), 'utf8');
        if (path !== 'census-acs-5yr/retrieval.json') return raw;
        return JSON.stringify({ ...(JSON.parse(raw) as object), illustrative: 'The vacancy rates are illustrative.', illustrativeMetrics: ['vacancyRate'] });
      },
    });
    for (const path of [PATHS.home, ...profiles.map((p) => PATHS.marketPage(p.market.id)), PATHS.methodology]) {
      const html = marked.routes.get(path)?.identity.body.toString('utf8') ?? '';
      const note = html.match(/<span class="illustrative-note">[\s\S]*?Which values are which<\/a>\.<\/span>/)?.[0];
      assert.ok(note !== undefined, `${path}: no illustrative note`);
      const words = visible(note);
      assert.ok(
        words.includes(
          'Illustrative fixture values: the vacancy rate value is of the right magnitude but not the published figure (marked illustrative ); do not cite it, nor the scores computed from it.',
        ),
        `${path}: ${words}`,
      );
      assert.ok(words.includes("Every other value is the agency's published figure."), `${path}: ${words}`);
      assert.ok(note.includes(`href="${PATHS.dataStatus}#values"`), path);
    }
  });

  it('with no illustrative source, as today, no page carries the notice', () => {
    for (const r of table.routes.values()) {
      if (r.kind !== 'html') continue;
      const html = r.identity.body.toString('utf8');
      assert.ok(!html.includes('illustrative-note') && !visible(html).includes('Illustrative fixture values'), r.path);
      assert.ok(!html.includes('class="tag-illustrative"'), `${r.path}: a value or score marked illustrative`);
    }
    assert.ok(visible(text(PATHS.dataSources)).includes("Every value is the agency's published figure"), 'the data sources page says every value is published');
  });

  it('methodology: version, and each metric in its own section with its definition and a link to its source', () => {
    const html = text(PATHS.methodology);
    assert.ok(visible(html).includes(`Methodology ${METHODOLOGY_VERSION}`), 'visible(html).includes(`Methodology ${METHODOLOGY_VERSION}`)');
    for (const m of WORLD_METRICS) {
      // The metric's section: from its anchor to the next metric's.
      const start = html.indexOf(`id="metric-${m.id}"`);
      assert.ok(start > 0, m.id);
      const next = html.indexOf('id="metric-', start + 1);
      const section = html.slice(start, next === -1 ? html.indexOf('id="scores"') : next);
      assert.ok(m.definition.length > 40 && visible(section).includes(m.definition), `${m.id}: definition`);
      assert.ok(section.includes(`href="/data-sources#${m.sourceId}"`), `${m.id}: source link to ${m.sourceId}`);
      assert.ok(visible(section).includes(m.label), `${m.id}: label`);
    }
    assert.ok(
      html.includes('id="freshness"') && html.includes('id="worked-example"'),
      'html.includes(\'id="freshness"\') && html.includes(\'id="worked-example"\')',
    );
  });

  it('methodology: each threshold on its own row, with its two numbers and what it rests on', () => {
    const html = text(PATHS.methodology);
    const rows = html.slice(html.indexOf('id="thresholds"'), html.indexOf('id="formulas"')).split('<tr').slice(2);
    assert.equal(rows.length, Object.keys(THRESHOLDS).length);
    for (const [key, t] of Object.entries(THRESHOLDS) as [keyof typeof THRESHOLDS, { zeroAt: number; fullAt: number }][]) {
      const row = rows.find((r) => r.includes(`<code>${key}</code>`));
      assert.ok(row, key);
      const cell = (label: string): string =>
        visible(
          row
            .slice(row.indexOf(`data-label="${label}"`))
            .replace(/^[^>]*>/, '')
            .split('</td>')[0] ?? '',
        ).trim();
      assert.equal(cell('Scores 0 at'), formatNumber(t.zeroAt), `${key}: 0 at`);
      assert.equal(cell('Scores 100 at'), formatNumber(t.fullAt), `${key}: 100 at`);
      assert.equal(cell('What it rests on'), THRESHOLD_BASIS[key], `${key}: basis`);
    }
  });

  it("methodology: the worked example's arithmetic holds when redone here, and its rounded results are the scores the profile publishes", () => {
    const words = visible(text(PATHS.methodology));
    const example = profiles.find((p) => words.includes(`Worked example: ${p.market.name}, ${p.market.stateCode}`));
    assert.ok(example, 'worked example names a market');
    const num = (s: string): number => Number(s.replace(/,/g, ''));
    // Each scaled input: s(x = v) with 0 at a and 100 at b = r, redone with the scale written out by hand.
    const scaled = [...words.matchAll(/s\((\w+) = ([\d.,]+)\) with 0 at ([\d.,]+) and 100 at ([\d.,]+) = ([\d.]+)/g)];
    assert.equal(scaled.length, 5, 'five thresholded inputs');
    for (const [, name, v, a, b, r] of scaled) {
      const [lo, hi] = [num(a ?? ''), num(b ?? '')];
      const expected = Math.min(100, Math.max(0, (100 * (num(v ?? '') - lo)) / (hi - lo)));
      // The page shows x to two decimals and scales the unrounded x: allow that rounding through the slope, and the result's own.
      const tolerance = (0.005 * 100) / Math.abs(hi - lo) + 0.005;
      assert.ok(Math.abs(expected - num(r ?? '')) <= tolerance, `${name}: ${expected} vs ${r}`);
    }
    // Each weighted sum and its rounding: w1 × x1 + w2 × x2 = sum, rounded: n.
    // One term (renter affordability reads one input) or two.
    const sums = [...words.matchAll(/([\d.]+) × ([\d.]+)(?: \+ ([\d.]+) × ([\d.]+))? = ([\d.]+) , rounded: (\d+)/g)];
    assert.equal(sums.length, 5, 'one sum per score');
    for (const [line, w1, x1, w2, x2, sum, rounded] of sums) {
      const total = num(w1 ?? '') * num(x1 ?? '') + (w2 === undefined ? 0 : num(w2) * num(x2 ?? ''));
      assert.ok(Math.abs(total - num(sum ?? '')) < 0.01, line);
      assert.equal(num(rounded ?? ''), Math.floor(num(sum ?? '') + 0.5), `${line}: half up`);
    }
    assert.deepEqual(
      sums.map((m) => Number(m[6])),
      ['renterAffordability', 'ownerAffordability', 'supply', 'affordability', 'overall'].map(
        (k) => example.profile.scores[k as keyof typeof example.profile.scores],
      ),
    );
    const published = Object.entries(example.profile.scores)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    assert.ok(words.includes(`These are the scores the profile publishes: ${published}.`), words);
  });

  it("methodology: each derived input of the worked example is written out with the example's own numbers, and the arithmetic holds", () => {
    const words = visible(text(PATHS.methodology));
    const derived = [...words.matchAll(/(rentToIncome|ownerCostsToIncome|priceToIncome|permitsPerThousand) = ([\d,.×÷ ]+?) = ([\d.]+)/g)];
    assert.deepEqual(
      derived.map((d) => d[1]),
      // In the order the scores read them: the renter part, the owner part, supply.
      ['rentToIncome', 'priceToIncome', 'ownerCostsToIncome', 'permitsPerThousand'],
    );
    for (const [, key, expression = '', result = ''] of derived) {
      // Left to right, as the line reads: numbers with thousands separators, × and ÷.
      const tokens = expression.trim().split(/\s+/);
      let value = Number((tokens[0] ?? '').replace(/,/g, ''));
      for (let i = 1; i < tokens.length; i += 2) {
        const operand = Number((tokens[i + 1] ?? '').replace(/,/g, ''));
        value = tokens[i] === '×' ? value * operand : value / operand;
      }
      assert.equal(value.toFixed(2), result, `${key}: ${expression} = ${result}`);
    }
  });

  it('data catalog: every endpoint with a curl line, and an anchor for every problem type', () => {
    const html = text(PATHS.dataCatalog);
    const words = visible(html);
    // Each curl line as a reader copies it: its break marks and pieces add no text.
    const curls = [...html.matchAll(/<pre class="curl"[^>]*>([\s\S]*?)<\/pre>/g)].map((m) => decode((m[1] ?? '').replace(/<[^>]+>/g, '')));
    for (const e of ENDPOINTS) assert.ok(words.includes(`curl -sS`) && curls.some((c) => c.startsWith('curl -sS') && c.endsWith(BASE_URL + e.path)), e.path);
    for (const code of CATALOG_CODES) {
      const fragment = new URL(problemType(BASE_URL, code)).hash.slice(1);
      assert.ok(idsOf(html).has(fragment), `no anchor for ${code}`);
    }
    for (const id of [
      'problem-bad-request',
      'problem-not-found',
      'problem-market-not-found',
      'problem-method-not-allowed',
      'problem-headers-too-large',
      'problem-request-timeout',
    ]) {
      assert.ok(idsOf(html).has(id), id);
    }
    assert.ok(
      words.includes('431') && words.includes('headers_too_large') && words.includes('408') && words.includes('request_timeout'),
      "words.includes('431') && words.includes('headers_too_large') && words.includes('408') && words.includes('request_timeout')",
    );
  });

  it('data sources: every source with agency, dataset, landing page, cadence, confidence and terms', () => {
    const html = text(PATHS.dataSources);
    const words = visible(html);
    for (const s of new Map(profiles.flatMap((p) => p.sources.map((x) => [x.sourceId, x] as const))).values()) {
      assert.ok(idsOf(html).has(s.sourceId), s.sourceId);
      for (const v of [s.agency, s.datasetName, s.updateFrequency, s.confidence]) assert.ok(words.includes(v), `${s.sourceId}: ${v}`);
      assert.ok(html.includes(`href="${s.sourceUrl}"`), s.sourceUrl);
    }
    assert.ok(words.includes('License and terms'), "words.includes('License and terms')");
  });

  it('privacy: no cookies, no tracking, and exactly what the access log holds', () => {
    const words = visible(text(PATHS.privacy));
    for (const phrase of ['No cookies', 'No tracking', 'LOG=1', 'no IP address, no user agent']) assert.ok(words.includes(phrase), phrase);
    for (const field of ['time', 'method', 'path', 'status', 'bytes', 'encoding', 'ms']) assert.ok(words.includes(` ${field} `), field);
    for (const route of table.routes.values()) assert.ok(!route.headers.some(([k]) => k.toLowerCase() === 'set-cookie'), route.path);
  });

  it('changelog: schema, methodology and data versions with dates, and the versioning policy', () => {
    const words = visible(text(PATHS.changelog));
    assert.ok(
      words.includes(`"${SCHEMA_VERSION}"`) && words.includes(METHODOLOGY_VERSION) && words.includes(index.generatedAt),
      'words.includes(`"${SCHEMA_VERSION}"`) && words.includes(METHODOLOGY_VERSION) && words.includes(index.generatedAt)',
    );
    assert.ok(
      words.includes('Versioning policy') && words.includes('geographyScope') && words.includes('liveData: false'),
      "words.includes('Versioning policy') && words.includes('geographyScope') && words.includes('liveData: false')",
    );
  });

  it('data status: every market and every source with freshness, dates and coverage', () => {
    const html = text(PATHS.dataStatus);
    const words = visible(html);
    for (const p of profiles)
      assert.ok(
        words.includes(`${p.profile.coverage.totalProvided} of ${p.profile.coverage.totalRequired}`) && html.includes(PATHS.marketPage(p.market.id)),
        'words.includes(`${p.profile.coverage.totalProvided} of ${p.profile.coverage.totalRequired}`) && html.includes(PATHS.marketPage(p.market.id))',
      );
    for (const s of profiles.flatMap((p) => p.sources)) assert.ok(html.includes(`datetime="${s.latestReleaseDate ?? ''}"`), s.sourceId);
  });

  it('404 page: HTML that points back to the home page and the catalog', () => {
    const html = table.notFoundPage.toString('utf8');
    assert.ok(visible(html).includes('Page not found'), "visible(html).includes('Page not found')");
    assert.ok(
      html.includes('href="/"') && html.includes(`href="${PATHS.dataCatalog}"`),
      'html.includes(\'href="/"\') && html.includes(`href="${PATHS.dataCatalog}"`)',
    );
  });
});
