// The pages as a reader meets them: every link resolves in the route table, and each page says what it must.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CSV_COLUMNS, PROFILE_CAVEATS, SCHEMA_VERSION, type MarketIndex, type MarketProfile } from '../../src/contract/schemas.ts';
import { SERIES_CSV_COLUMNS } from '../../src/contract/series.ts';
import { valuesOf, type MetricId } from '../../src/methodology/metrics.ts';
import { THRESHOLDS, THRESHOLD_BASIS, scoreInputs } from '../../src/methodology/scores.ts';
import { METHODOLOGY_CHANGES, METHODOLOGY_VERSION } from '../../src/methodology/version.ts';
import { formatDate, formatNumber, formatShort, formatValue, ordinal, shortSourceName } from '../../src/render/pages/format.ts';
import { SCORE_KEYS, scoreLabel } from '../../src/render/pages/scores.ts';
import { basisOf } from '../../src/render/pages/standing.tsx';
import { pageCaveat } from '../../src/render/pages/components.tsx';
import { STYLESHEET } from '../../src/render/pages/stylesheet.ts';
import { ENDPOINTS, PAGES, makeSite } from '../../src/render/pages/site.ts';
import { assembleSnapshot } from '../../src/methodology/snapshot.ts';
import { loadSources } from '../../src/sources/load.ts';
import { PATHS } from '../../src/contract/paths.ts';
import { CONTENT_TYPES, type Kind } from '../../src/protocol/headers.ts';
import { CATALOG_CODES, pageMeant, problemType } from '../../src/protocol/problems.ts';
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
  ...[...table.hintPages].map(([path, body]): [string, string] => [`(404 page meaning ${path})`, body.toString('utf8')]),
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
      assert.ok(links.length > 10, `${path} has only ${links.length} links`);
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

  it('gives every page a link to every page and to the site map; the home page links every page, market and endpoint', () => {
    for (const [path, html] of pages) {
      const hrefs = new Set(linksOf(html).map((l) => l.value));
      for (const p of PAGES) assert.ok(hrefs.has(p.path), `${path} does not link ${p.path}`);
      assert.ok(hrefs.has('/#site-map'), `${path} does not link the site map`);
    }
    const home = new Set(linksOf(text(PATHS.home)).map((l) => l.value));
    for (const e of ENDPOINTS) assert.ok(home.has(e.path), `the home page does not link ${e.path}`);
    for (const id of table.marketIds) assert.ok(home.has(PATHS.marketPage(id)), `the home page does not link market ${id}`);
  });

  it('keeps the footer to a few lines: no list of markets or endpoints on every page', () => {
    for (const [path, html] of pages) {
      const footer = html.match(/<footer[\s\S]*?<\/footer>/)?.[0] ?? '';
      assert.ok(footer !== '', `${path}: no footer`);
      assert.ok(linksOf(footer).length <= 4, `${path}: ${linksOf(footer).length} links in the footer`);
      assert.ok(!footer.includes('/markets/'), `${path}: the footer lists markets`);
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
  /** The score lines of a market page, each "Label value / 100 what drives it". */
  const scoreLines = (html: string): string[] =>
    [...(html.match(/<ul class="scores">[\s\S]*?<\/ul>/)?.[0] ?? '').matchAll(/<li>[\s\S]*?<\/li>/g)].map((m) => visible(m[0]).trim());
  /** A metric's row of the table of every figure. */
  const rowOf = (html: string, metricId: string): string => rowsOf(html).find((r) => r.includes(`href="/methodology#metric-${metricId}"`)) ?? '';
  /** A cell of a metric's row, by its column's label. */
  const cellOf = (row: string, label: string): string => visible(row.match(new RegExp(`data-label="${label}"[^>]*>([\\s\\S]*?)</td>`))?.[1] ?? '').trim();

  for (const p of profiles) {
    const id = p.market.id;
    it(`${id}: every metric with value, margin, period and linked source; coverage, caveats, downloads`, () => {
      const html = text(PATHS.marketPage(id));
      const words = visible(html);
      assert.ok(words.includes(`${p.market.name}, ${p.market.stateCode}`), 'market name');
      assert.ok(words.includes(p.market.state), 'state');
      if (p.market.cbsaName !== undefined) assert.ok(words.includes(p.market.cbsaName), 'metro');
      for (const metric of Object.values(p.profile.metrics)) {
        const row = rowOf(html, metric.id);
        assert.ok(row !== '', `${id}: no row for ${metric.id}`);
        const source = p.sources.find((s) => s.sourceId === metric.sourceId);
        assert.ok(source, 'source');
        const rowText = visible(row);
        const shown = formatShort(metric.id, metric.value, metric.qualifier);
        assert.ok(rowText.includes(shown), `${id} ${metric.id}: "${shown}" not in "${rowText}"`);
        // Money over a period says which ("$1,729 a month ± $14").
        const per = metric.unit === 'USD/mo' ? ' a month' : metric.unit === 'USD/yr' ? ' a year' : '';
        if (metric.marginOfError !== undefined)
          assert.ok(rowText.includes(`${shown}${per} ± ${formatShort(metric.id, metric.marginOfError)}`), `${id} ${metric.id}: margin in "${rowText}"`);
        assert.ok(rowText.includes(metric.asOf), `${id} ${metric.id}: period`);
        // The short name links to the sources page; the full name is in the page's sources table.
        assert.ok(
          row.includes(`href="/data-sources#${metric.sourceId}"`) && rowText.includes(shortSourceName(source.sourceName)),
          `${id} ${metric.id}: source link`,
        );
        assert.ok(words.includes(source.sourceName), `${id}: ${source.sourceName}`);
      }
      for (const missing of p.profile.coverage.missing)
        assert.ok(visible(rowOf(html, missing)).includes('Not available'), `${id}: missing ${missing} not said plainly`);
      for (const s of p.sources) assert.ok(html.includes(`href="${s.sourceUrl}"`), `${id}: landing page of ${s.sourceId}`);
      assert.ok(words.includes(`${p.profile.coverage.totalProvided} of the ${p.profile.coverage.totalRequired} metrics`), 'coverage');
      for (const c of p.caveats) assert.ok(words.includes(pageCaveat(c)), `${id}: caveat "${pageCaveat(c)}"`);
      assert.ok(html.includes(`<section class="caveats" aria-labelledby="caveats">`), 'caveats section');
      assert.ok(html.includes(`<a href="${PATHS.profile(id)}" type="application/json">`), 'JSON download');
      assert.ok(html.includes(`<a href="${PATHS.marketCsv(id)}" type="text/csv"`), 'CSV download');
      assert.ok(html.includes(`<a href="${PATHS.seriesCsv(id)}" type="text/csv"`), 'series CSV download');
      assert.ok(html.includes(`<link rel="alternate" type="application/json" href="${PATHS.profile(id)}"`), 'alternate JSON');
      assert.ok(html.includes(`<link rel="alternate" type="text/csv" href="${PATHS.marketCsv(id)}"`), 'alternate CSV');
      const lines = scoreLines(html);
      assert.equal(lines.length, SCORE_KEYS.length, `${id}: a line per score`);
      for (const [key, value] of Object.entries(p.profile.scores))
        assert.ok(
          lines.some((l) => l.startsWith(`${scoreLabel(key)} ${value} / 100`)),
          `${id}: score ${key} in ${lines.join(' | ')}`,
        );
    });

    it(`${id}: the key figures first, each beside its state's and, where published, the nation's`, () => {
      const html = text(PATHS.marketPage(id));
      const figures = html.match(/<div class="key-figures">[\s\S]*?<\/section>/)?.[0] ?? '';
      // They stand before the table of every figure, the scores and the chart.
      assert.ok(html.indexOf('class="key-figures"') < html.indexOf('id="metrics"'), 'key figures first');
      for (const metricId of ['medianGrossRent', 'medianHouseholdIncome', 'medianHomeValue', 'homePriceChange', 'permits'] as const) {
        const metric = p.profile.metrics[metricId];
        assert.ok(metric, `${id}: ${metricId}`);
        const card = visible(
          figures.match(new RegExp(`<div class="figure[^"]*"><h3 class="figure-label"><a href="/methodology#metric-${metricId}">[\\s\\S]*?</div>`))?.[0] ?? '',
        );
        assert.ok(card.includes(formatShort(metricId, metric.value, metric.qualifier)), `${id} ${metricId}: ${card}`);
        assert.ok(card.includes(metric.asOf), `${id} ${metricId}: period in ${card}`);
        if (metric.marginOfError !== undefined)
          assert.ok(card.includes(`± ${formatShort(metricId, metric.marginOfError)}`), `${id} ${metricId}: margin in ${card}`);
        for (const c of metric.comparisons ?? []) assert.ok(card.includes(formatShort(metricId, c.value)), `${id} ${metricId}: ${c.name}'s figure in ${card}`);
        // A level with no published figure is said, not left out.
        if (!(metric.comparisons ?? []).some((c) => c.level === 'nation')) assert.ok(card.includes('not published here'), `${id} ${metricId}: ${card}`);
      }
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
      // Near the top, one short line says it without codes and links to the detail.
      const short = html.match(/<p class="line-note">([\s\S]*?)<\/p>/)?.[1] ?? '';
      assert.ok(short.includes('href="#geography"') && visible(short).includes(p.market.name), `${id}: ${visible(short)}`);
      assert.ok(!html.includes('notice-geography'), 'the old warning box is gone');
    });

    it(`${id}: every metric placed among the markets but the price index, and house prices beside the state's and the nation's on one chart`, () => {
      const html = text(PATHS.marketPage(id));
      for (const metric of Object.values(p.profile.metrics)) {
        const rank = cellOf(rowOf(html, metric.id), 'Rank');
        if (metric.id === 'homePriceIndex') assert.match(rank, /^not ranked: an index/, `${id}: ${rank}`);
        else assert.match(rank, new RegExp(`^(tied )?(\\d+(st|nd|rd|th) )?(highest|lowest) of ${profiles.length}`), `${id} ${metric.id}: ${rank}`);
        // A metric ranked by something other than its own value says the market's figure on it: permits per 1,000 units.
        const basis = basisOf(metric.id as MetricId);
        const value = basis.of(valuesOf(p.profile.metrics));
        if (basis.key !== metric.id && basis.unranked === undefined) assert.ok(value !== undefined && rank.includes(basis.format(value)), `${id}: ${rank}`);
      }
      assert.match(html, /<svg class="chart chart-price"[^>]*role="img" aria-labelledby="price-chart-title price-chart-desc"/, 'price chart');
      const title = decode(html.match(/<title id="price-chart-title">([^<]*)<\/title>/)?.[1] ?? '');
      assert.ok(
        title.endsWith(
          `${p.market.state === 'District of Columbia' ? 'District of Columbia' : p.market.state} and the United States, 2000 Q1 to 2026 Q2 (2000 Q1 = 100)`,
        ),
        `${id}: ${title}`,
      );
      // Three lines, one per area, each named in the legend.
      assert.equal((html.match(/<path d="M[^"]*" fill="none"/g) ?? []).length, 3, `${id}: three lines`);
      const legend = visible(html.match(/<ul class="legend">[\s\S]*?<\/ul>/)?.[0] ?? '');
      for (const area of [p.market.state, 'the United States']) assert.ok(legend.includes(area), `${id}: ${area} in the legend "${legend}"`);
      assert.ok(
        html.includes('<summary>Every quarter&#39;s value, as a table</summary>') || html.includes("<summary>Every quarter's value, as a table</summary>"),
        'table of every quarter',
      );
    });
  }

  it('ranks permits per 1,000 housing units, leaves the price index unranked, and says each place from the nearer end', () => {
    const rankCell = (id: string, metricId: MetricId): string => cellOf(rowOf(text(PATHS.marketPage(id)), metricId), 'Rank');
    /** The place counted from the nearer end (ties share the place nearer it), counted here, not by the page's code. */
    const placeOf = (value: number, all: number[]): string => {
      const top = all.filter((v) => v > value).length + 1;
      const bottom = all.filter((v) => v < value).length + 1;
      const tied = all.filter((v) => v === value).length > 1 ? 'tied ' : '';
      const [place, end] = top <= bottom ? [top, 'highest'] : [bottom, 'lowest'];
      return `${tied}${place === 1 ? '' : `${ordinal(place)} `}${end} of ${profiles.length}`;
    };
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
      assert.equal(rankCell(id, 'permits'), `${placeOf(own, perThousand)}: ${formatNumber(own, 1)} per 1,000 units`, id);
      assert.equal(rankCell(id, 'homePriceChange'), placeOf(changes[i] ?? NaN, changes), id);
      assert.equal(rankCell(id, 'homePriceIndex'), 'not ranked: an index, 1995 Q1 = 100', id);
    }
    // New York has the most permits, and stands 6th from the bottom per 1,000 units; Miami's price change is 6th from the top.
    assert.equal(rankCell('us-ny-new-york', 'permits'), '6th lowest of 16: 7.4 per 1,000 units');
    assert.equal(rankCell('us-fl-miami', 'homePriceChange'), '6th highest of 16');
    const legend = visible(text(PATHS.marketPage('us-ny-new-york')).match(/<p class="table-legend">[\s\S]*?<\/p>/)?.[0] ?? '');
    assert.ok(legend.includes('Places count from the nearer end; the house price index is not ranked, its change is.'), legend);
  });

  it('says every place from the nearer end, the lowest as lowest, and a tie as a tie', () => {
    let lowest = 0;
    for (const p of profiles) {
      const html = text(PATHS.marketPage(p.market.id));
      for (const row of rowsOf(html).filter((r) => r.includes('data-label="Rank"'))) {
        const cell = cellOf(row, 'Rank');
        if (cell.startsWith('not ranked')) continue;
        const m = cell.match(new RegExp(`^(tied )?(?:(\\d+)(?:st|nd|rd|th) )?(highest|lowest) of ${profiles.length}`));
        assert.ok(m, cell);
        // Never further than half-way from the end it is counted from: "16th highest of 16" is "lowest of 16".
        assert.ok(Number(m[2] ?? 1) <= Math.ceil(profiles.length / 2), cell);
        if (m[2] === undefined && m[3] === 'lowest') lowest += 1;
      }
      assert.ok(!visible(html).includes(`16th highest of ${profiles.length}`), p.market.id);
    }
    assert.ok(lowest >= 9, `${lowest} cells say "lowest of 16"`);
    // Chicago's and Nashville's vacancy rates are both 9.1 %, the 7th highest.
    for (const id of ['us-il-chicago', 'us-tn-nashville'])
      assert.equal(cellOf(rowOf(text(PATHS.marketPage(id)), 'vacancyRate'), 'Rank'), 'tied 7th highest of 16', id);
  });

  it('says plainly when a value is missing, and why the scores that need it are absent', () => {
    const edited = newYorkRentMissing();
    const html = edited.routes.get(PATHS.marketPage('us-ny-new-york'))?.identity.body.toString('utf8') ?? '';
    const words = visible(html);
    assert.ok(words.includes('Missing: “Median gross rent”.'), words);
    const lines = scoreLines(html);
    for (const key of ['renterAffordability', 'affordability', 'overall'])
      assert.ok(
        lines.some((l) => l.startsWith(`${scoreLabel(key)} Not computed`)),
        `${key} not computed`,
      );
    assert.ok(
      lines.some((l) => l.startsWith(`${scoreLabel('ownerAffordability')} `) && !l.includes('Not computed')),
      'the owner score is computed',
    );
    assert.ok(words.includes('never shown as 0'), "words.includes('never shown as 0')");
    assert.ok(words.includes('Coverage: 9 of the 10 metrics'), "words.includes('Coverage: 9 of the 10 metrics')");
    assert.ok(visible(rowOf(html, 'medianGrossRent')).includes('Not available'), 'the row says it');
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
    const short = visible(text(PATHS.marketPage('us-tx-austin')).match(/<p class="line-note">([\s\S]*?)<\/p>/)?.[1] ?? '').trim();
    assert.equal(
      short,
      'Price index and price change: the Austin-Round Rock-San Marcos, TX metro area; every other figure: Austin city, Texas ( codes and details ).',
    );
  });

  it('New York: its permits are the sum of the five borough rows, said beside the value; no page says it lacks permits', () => {
    const ny = text(PATHS.marketPage('us-ny-new-york'));
    const row = rowOf(ny, 'permits');
    assert.ok(
      visible(row).includes(
        'The sum of the five rows the Building Permits Survey publishes for New York city, New York, one per county: Bronx borough, Brooklyn borough, Manhattan borough, Queens borough and Staten Island borough.',
      ),
      visible(row),
    );
    assert.ok(visible(row).includes('27,241'), "visible(row).includes('27,241')");
    for (const p of profiles.filter((x) => x.market.id !== 'us-ny-new-york')) {
      const other = rowOf(text(PATHS.marketPage(p.market.id)), 'permits');
      assert.ok(!other.includes('value-note'), `${p.market.id}: a permits note`);
    }
    assert.ok(!visible(row).includes('Not available'), "!visible(row).includes('Not available')");
    const lacking = /\b(no|lacks?|missing|without) (building )?permits\b/i;
    // The changelog alone may say it: under methodology v1.0 New York had no permits value, which is history.
    for (const [path, html] of pages.filter(([path]) => path !== PATHS.changelog)) assert.doesNotMatch(visible(html), lacking, path);
    assert.doesNotMatch(readFileSync(new URL('../../docs/pages.md', import.meta.url), 'utf8'), lacking);
  });

  it("New York: the price chart rebases the division's, the state's and the nation's indexes to 2000 Q1 and says how the latest year compares", () => {
    const html = text(PATHS.marketPage('us-ny-new-york'));
    const ny = profiles.find((p) => p.market.id === 'us-ny-new-york');
    const change = ny?.profile.metrics['homePriceChange'];
    assert.ok(change, 'the price change');
    // The sentence with the published numbers: the division's change, then the state's and the nation's.
    const words = visible(html);
    const [state, nation] = ['state', 'nation'].map((level) => change.comparisons?.find((c) => c.level === level)?.value ?? NaN);
    assert.ok(
      words.includes(
        `Prices in the New York-Jersey City-White Plains, NY-NJ metropolitan division rose ${formatNumber(change.value, 1)}% in the year to 2026 Q2, New York's ${formatNumber(state ?? NaN, 1)}% and the nation's ${formatNumber(nation ?? NaN, 1)}%.`,
      ),
      words,
    );
    // Each line ends at its latest quarter rebased to 2000 Q1 = 100, from the fixture's rows (division 35614; the state and the nation from the master file).
    const metro = readFileSync(join(FIXTURES, 'fhfa-hpi/hpi_at_metro.csv'), 'utf8')
      .split('\n')
      .filter((l) => l.includes(',35614,'));
    const at = (lines: string[], year: string, quarter: string): number =>
      Number(
        lines
          .find((l) => l.includes(`,${year},${quarter},`))
          ?.split(',')
          .at(-2),
      );
    const chart = html.match(/<svg class="chart chart-price"[\s\S]*?<\/svg>\s*<p class="chart-data"/)?.[0] ?? '';
    const end = Math.round((at(metro, '2026', '2') / at(metro, '2000', '1')) * 100);
    assert.ok(visible(chart).includes(`Metro ${formatNumber(end)}`), `${end} in ${visible(chart)}`);
    // The chart links the numbers it draws: the market's series, as CSV and JSON.
    const data = html.match(/chart chart-price[\s\S]*?(<p class="chart-data">[\s\S]*?<\/p>)/)?.[1] ?? '';
    assert.ok(data.includes(`href="${PATHS.seriesCsv('us-ny-new-york')}"`) && data.includes(`href="${PATHS.series('us-ny-new-york')}"`), data);
    // Every quarter of the fixture's series is in the table behind the chart: 1975 Q3 (the first with a value) to 2026 Q2.
    const table = html.match(/<table class="compact">[\s\S]*?<\/table>/)?.[0] ?? '';
    const rows = metro.filter((l) => !l.endsWith(',-,-'));
    assert.ok(rows.length > 190, `${rows.length} quarters`);
    for (const line of rows) {
      const value = Number(line.split(',').at(-2));
      assert.ok(table.includes(`>${formatNumber(value, 2)}<`), line);
    }
  });

  it('writes numbers for people: thousands separators in the page, raw values in the API', () => {
    const ny = profiles.find((p) => p.market.id === 'us-ny-new-york');
    const units = ny?.profile.metrics['housingUnits']?.value;
    assert.equal(units, 3678486);
    const words = visible(text(PATHS.marketPage('us-ny-new-york')));
    assert.ok(words.includes('3,678,486'), "words.includes('3,678,486')");
    assert.ok(!words.includes('3678486'), "!words.includes('3678486')");
    assert.ok(words.includes('$1,821 a month'), "words.includes('$1,821 a month')");
  });

  it("shows the agency's margin of error beside each published ACS value and the state's figure beside it, and marks nothing illustrative", () => {
    const ny = text(PATHS.marketPage('us-ny-new-york'));
    const cell = (metricId: string): string => visible(rowOf(ny, metricId));
    // The Census Bureau's 2020-2024 estimates for New York city and New York State, with their 90 % margins (test/unit/published-values.test.ts).
    assert.ok(cell('medianGrossRent').includes('$1,821 a month ± $7'), cell('medianGrossRent'));
    assert.ok(cell('medianHouseholdIncome').includes('$80,483 a year ± $601'), cell('medianHouseholdIncome'));
    assert.ok(cell('medianHomeValue').includes('$777,600 ± $4,889'), cell('medianHomeValue'));
    assert.ok(cell('housingUnits').includes('3,678,486 ± 1,496'), cell('housingUnits'));
    assert.ok(cell('medianOwnerCostsWithMortgage').includes('$3,293 a month ± $'), cell('medianOwnerCostsWithMortgage'));
    assert.ok(cell('homeownershipRate').includes('32.8% ± 0.'), cell('homeownershipRate'));
    for (const row of rowsOf(ny).filter((r) => r.includes('href="/methodology#metric-'))) assert.ok(!visible(row).includes('illustrative'), visible(row));
    const scores = scoreLines(ny);
    assert.equal(scores.length, 5);
    for (const l of scores) assert.ok(!l.includes('illustrative'), l);
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

  it("marks beside each ACS figure whether the state's and the nation's differ from it at the 90 % level, as the Census Bureau's test finds, with one legend", () => {
    const around = (id: string, metricId: string, level: 'state' | 'nation'): string => {
      const p = profiles.find((x) => x.market.id === id);
      return cellOf(rowOf(text(PATHS.marketPage(id)), metricId), level === 'nation' ? 'US' : (p?.market.stateCode ?? ''));
    };
    // Austin's rent 1,729 ± 14 against Texas's 1,403 ± 4: the difference, 326, is far beyond √(14² + 4²) = 14.6.
    assert.equal(around('us-tx-austin', 'medianGrossRent', 'state'), '$1,403 ± $4 ▲ Austin significantly higher');
    // Austin's homeownership 43.4 ± 0.7 against Texas's 62.6 ± 0.3.
    assert.equal(around('us-tx-austin', 'homeownershipRate', 'state'), '62.6% ± 0.3% ▼ Austin significantly lower');
    // Seattle's vacancy rate 7.7 ± 0.4 against Washington State's 7.3 ± 0.2: 0.4 apart, within √(0.4² + 0.2²) = 0.45.
    assert.equal(around('us-wa-seattle', 'vacancyRate', 'state'), '7.3% ± 0.2% ≈ no significant difference');
    // Washington city is the District: the same figure, said so.
    assert.ok(
      around('us-dc-washington', 'medianGrossRent', 'state').endsWith('= one area: the same figure'),
      around('us-dc-washington', 'medianGrossRent', 'state'),
    );
    // San Francisco's owner costs have no margin (a median in the open-ended top interval): the test cannot be made, and the page says so.
    assert.ok(
      around('us-ca-san-francisco', 'medianOwnerCostsWithMortgage', 'state').endsWith('not tested: one figure has no margin'),
      around('us-ca-san-francisco', 'medianOwnerCostsWithMortgage', 'state'),
    );
    // Housing units: the state's figure, no verdict (a city always has fewer homes than its state).
    assert.equal(around('us-tx-austin', 'housingUnits', 'state'), '12,128,515 ± 1,574');
    // The price change beside the state's and the nation's: FHFA publishes no margin, so no verdict.
    assert.equal(around('us-tx-austin', 'homePriceChange', 'state'), '1.6%');
    assert.equal(around('us-tx-austin', 'homePriceChange', 'nation'), '3.0%');
    // The income beside the nation's too, each with its verdict.
    assert.equal(around('us-tx-austin', 'medianHouseholdIncome', 'state'), '$78,476 ± $263 ▲ Austin significantly higher');
    assert.equal(around('us-tx-austin', 'medianHouseholdIncome', 'nation'), '$80,734 ± $166 ▲ Austin significantly higher');
    // Where no figure is served for a level, the cell says so; the price index's level is compared on the chart.
    assert.equal(around('us-tx-austin', 'permits', 'state'), 'not published here');
    assert.equal(around('us-tx-austin', 'medianGrossRent', 'nation'), 'not published here');
    assert.equal(around('us-tx-austin', 'homePriceIndex', 'state'), 'on the chart');
    // One legend says what the marks mean, instead of a sentence in every row.
    const legend = visible(text(PATHS.marketPage('us-tx-austin')).match(/<p class="table-legend">[\s\S]*?<\/p>/)?.[0] ?? '');
    for (const words of ['▲ ▼ Austin significantly higher or lower than there', '≈ no significant difference', '= one area', 'no mark: not tested'])
      assert.ok(legend.includes(words), `${words} in ${legend}`);
    assert.ok(!visible(text(PATHS.marketPage('us-tx-austin'))).includes('a significant difference'), 'no sentence per row');
  });

  it("Austin: every value, margin and comparison figure (state and nation) of its JSON on its page, and the home value's change in a sentence", () => {
    const austin = profiles.find((p) => p.market.id === 'us-tx-austin');
    assert.ok(austin, 'austin');
    const words = visible(text(PATHS.marketPage('us-tx-austin')));
    for (const m of Object.values(austin.profile.metrics)) {
      const figures = [
        m.value,
        ...(m.marginOfError === undefined ? [] : [m.marginOfError]),
        ...(m.comparisons ?? []).flatMap((c) => [c.value, ...(c.marginOfError === undefined ? [] : [c.marginOfError])]),
      ];
      for (const f of figures) assert.ok(words.includes(formatShort(m.id, f)), `${m.id}: ${formatShort(m.id, f)}`);
    }
    // 2020-2024 against 2015-2019: $555,300 ± $8,017 against $337,400 ± $3,146; the change $217,900 ± $8,612, 64.6 %, significant, nominal.
    assert.ok(
      words.includes(
        'Up $217,900 ± $8,612 (64.6%) from $337,400 ± $3,146 in 2015-2019, a significant change. Each in its own dollars (2019, 2024), not adjusted for inflation.',
      ),
      words,
    );
  });

  it("San Francisco: the open-ended owner costs as published, $4,000+, never the API's $4,001; its scores as the bounds they are", () => {
    for (const [path, html] of [
      ...pages,
      ...[...table.routes.values()].filter((r) => r.kind === 'html').map((r): [string, string] => [r.path, r.identity.body.toString('utf8')]),
    ])
      assert.ok(!html.includes('4,001'), `${path} shows 4,001`);
    const sf = text(PATHS.marketPage('us-ca-san-francisco'));
    assert.ok(visible(rowOf(sf, 'medianOwnerCostsWithMortgage')).includes('$4,000+'), 'the row');
    // Its place among the markets rests on the open-ended figure, and says so.
    assert.ok(
      cellOf(rowOf(sf, 'medianOwnerCostsWithMortgage'), 'Rank').endsWith('with one figure published as 4,000+'),
      cellOf(rowOf(sf, 'medianOwnerCostsWithMortgage'), 'Rank'),
    );
    const lines = scoreLines(sf);
    assert.ok(
      lines.some(
        (l) => l.startsWith('Owner affordability 11 / 100 at most') && l.includes('The true score lies from 0 to 11 (owner costs: $4,000+, open-ended).'),
      ),
      lines.join(' | '),
    );
    assert.ok(
      lines.some((l) => l.startsWith(`${scoreLabel('affordability')} 35 / 100 at most`) && l.includes('from 30 to 35')),
      lines.join(' | '),
    );
    assert.ok(
      lines.some((l) => l.startsWith('Overall 29 / 100 at most') && l.includes('from 26 to 29')),
      lines.join(' | '),
    );
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
  /** The rows of the home page's one table, by market id. */
  const homeRows = (): Map<string, string> => {
    const table = text(PATHS.home).match(/<table class="markets">[\s\S]*?<\/table>/)?.[0] ?? '';
    return new Map(
      [...table.matchAll(/<tr>[\s\S]*?<\/tr>/g)].flatMap((r) => {
        const id = r[0].match(/href="\/markets\/([^"]+)"/)?.[1];
        return id === undefined ? [] : [[id, r[0]] as const];
      }),
    );
  };
  const cellsOf = (row: string): string[] => [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => visible(c[1] ?? '').trim());

  it('home: what the data are, and one table of every market, by overall score, highest first, with its five scores', () => {
    const html = text(PATHS.home);
    const words = visible(html);
    assert.ok(words.includes('Static fixture'), "words.includes('Static fixture')");
    assert.ok(words.includes('The figures: median rent, median income, home value'), words);
    assert.equal((html.match(/<table/g) ?? []).length, 1, 'one table');
    assert.ok(words.includes('The 16 markets by overall score, highest first'), 'the order it states');
    const rows = homeRows();
    assert.equal(rows.size, index.markets.length);
    // Its order is the one it states.
    const order = [...rows.keys()];
    const overall = order.map((id) => index.markets.find((m) => m.id === id)?.scores.overall ?? -1);
    assert.deepEqual(
      overall,
      [...overall].sort((a, b) => b - a),
    );
    // Every market's five scores, each in its column.
    const head = html.match(/<table class="markets">[\s\S]*?<\/thead>/)?.[0] ?? '';
    const columns = [...head.matchAll(/<th scope="col"[^>]*>([\s\S]*?)<\/th>/g)].map((c) => visible(c[1] ?? '').trim()).slice(1);
    for (const m of index.markets) {
      const cells = cellsOf(rows.get(m.id) ?? '');
      for (const key of SCORE_KEYS) {
        const at = columns.findIndex((c) => c === scoreLabel(key));
        assert.ok(at !== -1, `a column for ${key}`);
        const v = m.scores[key];
        assert.ok((cells[at] ?? '').replace(/^≤ at most /, '').startsWith(v === undefined ? '—' : String(v)), `${m.id} ${key}: ${cells[at] ?? ''}`);
      }
    }
    // The headline column says what it is: renters and owners both.
    assert.ok(visible(head).includes('Affordability (renters and owners)'), "visible(head).includes('Affordability (renters and owners)')");
  });

  it("home: each market's key figures once, in its row, an open-ended one as published; a score that is a bound said so", () => {
    const rows = homeRows();
    const html = text(PATHS.home);
    for (const p of profiles) {
      const cells = cellsOf(rows.get(p.market.id) ?? '');
      for (const id of ['medianGrossRent', 'medianHouseholdIncome', 'medianHomeValue', 'homePriceChange'] as const) {
        const m = p.profile.metrics[id];
        assert.ok(m !== undefined && cells.includes(formatShort(id, m.value, m.qualifier)), `${p.market.id} ${id}: ${cells.join(' | ')}`);
      }
      const perThousand = scoreInputs(valuesOf(p.profile.metrics)).permitsPerThousand;
      assert.ok(perThousand !== undefined && cells.includes(formatNumber(perThousand, 1)), `${p.market.id}: permits per 1,000 units`);
    }
    // No second copy: no chart of the same values, no second table.
    assert.ok(!html.includes('chart-metric') && !html.includes('chart-compare'), 'no chart repeats the table');
    const sf = cellsOf(rows.get('us-ca-san-francisco') ?? '');
    assert.ok(sf.includes('≤ at most 11') && sf.includes('≤ at most 35') && sf.includes('≤ at most 29'), sf.join(' | '));
    assert.ok(
      visible(html).includes(
        'San Francisco, CA: median owner costs with a mortgage are published as $4,000+, so its scores are bounds, the true ones lying within owner affordability 0–11, affordability (renters and owners) 30–35 and overall 26–29.',
      ),
      'the bounds, said once',
    );
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
      // A score that is the most its open-ended input allows says so: "≤35" on the map, "35 at most" in words.
      const bound = m.scoreBounds?.affordability?.bound === 'upper';
      assert.ok(desc.includes(`${m.name}, ${m.stateCode} ${score ?? 'not computed'}${bound ? ' at most' : ''}`), `${m.id} in the map's description`);
      assert.ok(labels.includes(`${m.name}, ${m.stateCode} ${bound ? '≤' : ''}${score ?? 'n/a'}`), `${m.id} labelled on the map`);
    }
    const legend = visible(html.match(/<ul class="legend map-legend">[\s\S]*?<\/ul>/)?.[0] ?? '');
    for (const range of ['0–19', '20–39', '40–59', '60–79', '80–100', 'not computed']) assert.ok(legend.includes(range), range);
    assert.ok(
      visible(html).includes('coloured and labelled by its affordability (renters and owners) score'),
      "visible(html).includes('coloured and labelled by its affordability (renters and owners) score')",
    );
  });

  it('home: every download and every page once, in the site map every footer links', () => {
    const html = text(PATHS.home);
    const map = html.match(/<section aria-labelledby="site-map">[\s\S]*?<\/section>/)?.[0] ?? '';
    for (const e of ENDPOINTS) assert.equal((html.match(new RegExp(`<a href="${e.path}"`, 'g')) ?? []).length, 1, `${e.path} linked once`);
    for (const e of ENDPOINTS) assert.ok(map.includes(`href="${e.path}"`), e.path);
    for (const p of PAGES.filter((x) => x.path !== PATHS.home)) assert.ok(map.includes(`href="${p.path}"`) && visible(map).includes(p.summary), p.path);
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

  it('data status: one table of the sources, with who, period, release, next release and margins; every market in a sentence', () => {
    const html = text(PATHS.dataStatus);
    const words = visible(html);
    // All sixteen markets share their coverage and freshness: one line says so, linking them, instead of sixteen rows.
    assert.ok(words.includes('All 16 markets : 10 of 10 metrics (100%), aging , as fresh as the least fresh source each cites.'), words);
    assert.ok(html.includes('href="/#compare"'), 'the markets, one link away');
    assert.equal((html.match(/<table/g) ?? []).length, 1, 'one table: the sources');
    const table = html.match(/<table class="source-status">[\s\S]*?<\/table>/)?.[0] ?? '';
    for (const s of new Map(profiles.flatMap((p) => p.sources.map((x) => [x.sourceId, x] as const))).values()) {
      const row = [...table.matchAll(/<tr>[\s\S]*?<\/tr>/g)].map((r) => r[0]).find((r) => r.includes(`href="/data-sources#${s.sourceId}"`)) ?? '';
      assert.ok(row.includes(`datetime="${s.latestReleaseDate ?? ''}"`) && visible(row).includes(s.agency), s.sourceId);
      for (const m of WORLD_METRICS.filter((x) => x.sourceId === s.sourceId))
        assert.ok(visible(row).includes(m.margin), `${s.sourceId}: how the ${m.id} margin is obtained`);
    }
    // Every value published, and the one open-ended one named as published.
    assert.ok(words.includes('All 160 values of this snapshot are published figures; none is illustrative.'), words);
    assert.ok(words.includes("San Francisco, CA's median owner costs with a mortgage, published as $4,000+"), words);
  });

  it('says where each release date comes from on every page that shows one: "inferred from FHFA\'s calendar", "as public records report it"', () => {
    // The world's retrieval records are of 2026-11-29, before the bases were recorded: a world with today's records' bases and readFrom.
    const basis: Record<string, object> = {
      'fhfa-hpi/retrieval.json': { latestReleaseDateBasis: 'inferred', readFrom: 'FHFA files as public copies hold them.' },
      'census-acs-5yr/retrieval.json': { latestReleaseDateBasis: 'reported', readFrom: 'The summary files as a public copy quotes them.' },
    };
    const marked = buildWorld({
      baseUrl: BASE_URL,
      read: (path) => {
        const raw = readFileSync(join(FIXTURES, path), 'utf8');
        const extra = basis[path];
        return extra === undefined ? raw : JSON.stringify({ ...(JSON.parse(raw) as object), ...extra });
      },
    });
    const page = (path: string): string => visible(marked.routes.get(path)?.identity.body.toString('utf8') ?? '');
    for (const path of [PATHS.marketPage('us-tx-austin'), PATHS.dataStatus, PATHS.dataSources, PATHS.changelog, PATHS.methodology]) {
      const words = page(path);
      assert.ok(words.includes(`${formatDate('2026-08-25')} (inferred from FHFA's calendar)`), `${path}: ${words.slice(0, 200)}`);
      assert.ok(words.includes(`${formatDate('2026-01-29')} (as public records report it)`), path);
    }
    const sources = page(PATHS.dataSources);
    assert.ok(
      sources.includes('Read from: FHFA files as public copies hold them.') || sources.includes('Read from FHFA files as public copies hold them.'),
      sources,
    );
    assert.ok(sources.includes('The summary files as a public copy quotes them.'), 'readFrom of the ACS');
  });

  it("data sources: one table of the area each market's figures describe, each city once", () => {
    const html = text(PATHS.dataSources);
    assert.equal((html.match(/<table/g) ?? []).length, 1, 'one table');
    const words = visible(html);
    for (const p of profiles)
      for (const b of (p.geographyScope?.boundaries ?? []).filter((x) => x.level === 'place'))
        assert.equal(words.split(b.name).length - 1, 1, `${b.name} once`);
    assert.ok(!words.includes("Published: every value is the agency's own"), 'said once, at the top');
  });

  it('changelog: links to the methodology page for the version in service instead of copying its changes', () => {
    const html = text(PATHS.changelog);
    const current = METHODOLOGY_CHANGES.find((m) => m.version === METHODOLOGY_VERSION);
    assert.ok(current, 'the version in service');
    for (const change of current.changes) assert.ok(!visible(html).includes(change), `copied: ${change.slice(0, 60)}`);
    assert.ok(html.includes(`href="${PATHS.methodology}#changes"`), 'links to it');
    for (const m of METHODOLOGY_CHANGES.filter((x) => x.version !== METHODOLOGY_VERSION))
      for (const change of m.changes) assert.ok(visible(html).includes(change), `${m.version}: ${change.slice(0, 60)}`);
  });

  it('lists the contents of the methodology and data catalog pages in the order of their sections', () => {
    for (const path of [PATHS.methodology, PATHS.dataCatalog]) {
      const html = text(path);
      const toc = [...(html.match(/<nav aria-label="On this page" class="toc">[\s\S]*?<\/nav>/)?.[0] ?? '').matchAll(/href="#([^"]+)"/g)].map(
        (m) => m[1] ?? '',
      );
      assert.ok(toc.length >= 6, `${path}: ${toc.join(', ')}`);
      const at = toc.map((id) => html.indexOf(`id="${id}"`));
      assert.ok(
        at.every((x) => x > 0),
        `${path}: ${toc.join(', ')}`,
      );
      assert.deepEqual(
        at,
        [...at].sort((a, b) => a - b),
        `${path}: ${toc.join(', ')}`,
      );
    }
  });

  it('data catalog: the columns of both CSV kinds in one table, each column once', () => {
    const html = text(PATHS.dataCatalog);
    const table = html.match(/<table class="columns-table">[\s\S]*?<\/table>/)?.[0] ?? '';
    const names = [...table.matchAll(/<th scope="row"><code>([^<]+)<\/code><\/th>/g)].map((m) => m[1] ?? '');
    assert.deepEqual(names, [...new Set([...CSV_COLUMNS.map((c) => c.name), ...SERIES_CSV_COLUMNS.map((c) => c.name)])]);
    for (const c of [...CSV_COLUMNS, ...SERIES_CSV_COLUMNS]) assert.ok(decode(table).includes(c.description), `${c.name}: ${c.description}`);
    assert.equal((html.match(/<table/g) ?? []).length, 1, 'one table');
  });

  it('404 page: HTML that points back to the home page and the catalog', () => {
    const html = table.notFoundPage.toString('utf8');
    assert.ok(visible(html).includes('Page not found'), "visible(html).includes('Page not found')");
    assert.ok(!visible(html).includes('Did you mean'), 'it names no page');
    assert.ok(
      html.includes('href="/"') && html.includes(`href="${PATHS.dataCatalog}"`),
      'html.includes(\'href="/"\') && html.includes(`href="${PATHS.dataCatalog}"`)',
    );
  });

  it('404 pages that name the page meant first: a page in other case or with a trailing slash, a market by its slug or city name', () => {
    const meant = (path: string): string | undefined => pageMeant(path, { pages: table.pageHints });
    const cases: [string, string | undefined][] = [
      ['/markets/austin', '/markets/us-tx-austin'],
      ['/markets/US-TX-AUSTIN', '/markets/us-tx-austin'],
      ['/markets/us-tx-austin/', '/markets/us-tx-austin'],
      ['/Austin', '/markets/us-tx-austin'],
      ['/markets/san-francisco', '/markets/us-ca-san-francisco'],
      ['/markets/San Francisco, CA', '/markets/us-ca-san-francisco'],
      ['/markets/new york', '/markets/us-ny-new-york'],
      ['/Methodology', PATHS.methodology],
      ['/data-status/', PATHS.dataStatus],
      ['/no-such-page', undefined],
      ['/markets/springfield', undefined],
      ['/api/markets/austin', undefined],
    ];
    for (const [path, expected] of cases) assert.equal(meant(path), expected, path);
    const austin = table.hintPages.get('/markets/us-tx-austin')?.toString('utf8') ?? '';
    const first = austin.match(/<main[^>]*>[\s\S]*?<\/p>/)?.[0] ?? '';
    assert.ok(visible(first).includes('Page not found Did you mean Austin, TX ?'), visible(first));
    assert.ok(first.includes('href="/markets/us-tx-austin"'), first);
    assert.ok(visible(table.hintPages.get(PATHS.methodology)?.toString('utf8') ?? '').includes('Did you mean Methodology ?'), 'a page by its name');
    // Every page a path can mean has its own 404 page, and only those.
    assert.deepEqual([...table.hintPages.keys()].sort(), [...new Set(table.pageHints.map((h) => h.path))].sort());
  });
});
