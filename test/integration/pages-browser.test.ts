// Every page in a real browser from the real server: no console errors, no failed requests, no overflow at 375 or 1280 px, every table's columns
// reachable and no table wider than its box, every chart named, no serious axe findings; screenshots for review.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Result } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PATHS } from '../../src/contract/paths.ts';
import { startServer, type RunningServer } from '../../src/runtimes/server/listener.ts';
import type { MarketProfile } from '../../src/contract/schemas.ts';
import { formatShort } from '../../src/render/pages/format.ts';
import { buildWorld } from '../world/world.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SCREENSHOTS = new URL('../../artifacts/screenshots/', import.meta.url).pathname;
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };
const SCREENSHOT_MARKET = 'us-ny-new-york';
/** The 404 pages: their status is 404, and Chromium logs it as a failed resource. */
const isMissing = (path: string): boolean => path === MISSING_PAGE || path === HINTED_PAGE;
/** Width and height of a PNG, from its IHDR chunk (bytes 16 to 24, big-endian). */
function pngSize(png: Buffer): { width: number; height: number } {
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG file');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** A path that names a market by its city: the 404 page names the market meant first. */
const HINTED_PAGE = '/markets/austin';
/** A path no route answers: the server sends the HTML 404 page, which must pass the same checks. */
const MISSING_PAGE = '/no-such-page';

const table = buildWorld({ baseUrl: 'http://localhost:3000' });

/** The eight pages the reader's measures are taken on: every page once, a market's by Austin's. */
const MEASURED_MARKET = 'us-tx-austin';
const MEASURED_PAGES: readonly string[] = [
  PATHS.home,
  PATHS.marketPage(MEASURED_MARKET),
  PATHS.methodology,
  PATHS.dataStatus,
  PATHS.dataSources,
  PATHS.dataCatalog,
  PATHS.changelog,
  PATHS.privacy,
];
const austin = JSON.parse(table.routes.get(PATHS.profile(MEASURED_MARKET))?.identity.body.toString('utf8') ?? '{}') as MarketProfile;
/** How a page writes a figure of Austin's JSON in its short form ("$1,729", "43.4%"): a qualified one as published. */
const figure = (metricId: string, value: number): string => formatShort(metricId, value);
/** Austin's ten values, as its page writes them, by metric. */
const AUSTIN_VALUES: ReadonlyMap<string, string> = new Map(Object.values(austin.profile.metrics).map((m) => [m.id, figure(m.id, m.value)]));
/** Every figure of Austin's JSON: each value, its margin, its state's and the nation's figures and their margins, its earlier period's. */
const AUSTIN_FIGURES: readonly string[] = [
  ...new Set(
    Object.values(austin.profile.metrics).flatMap((m) => [
      figure(m.id, m.value),
      ...(m.marginOfError === undefined ? [] : [figure(m.id, m.marginOfError)]),
      ...(m.comparisons ?? []).flatMap((c) => [figure(m.id, c.value), ...(c.marginOfError === undefined ? [] : [figure(m.id, c.marginOfError)])]),
      ...(m.change === undefined
        ? []
        : [figure(m.id, m.change.from.value), ...(m.change.from.marginOfError === undefined ? [] : [figure(m.id, m.change.from.marginOfError)])]),
    ]),
  ),
];
/** What the measures allow: the eight pages' total height at each width, the footer on a phone, the screens Austin's values stand in. */
const LIMITS = { total: { 375: 55_000, 1280: 30_000 }, footer: 400, valuesWithin: { 375: 2_436, 1280: 1_800 } } as const;

const pagePaths = [...[...table.routes.values()].filter((r) => r.kind === 'html').map((r) => r.path), MISSING_PAGE, HINTED_PAGE];

/** The pages whose screenshots are reviewed by eye, at both widths (full page): the eight, New York's (the longest price series, five boroughs' permits), a 404. */
const SCREENSHOT_PAGES: readonly (readonly [string, string])[] = [
  ...MEASURED_PAGES.map((path): [string, string] => [path === PATHS.home ? 'home' : path.slice(1).replaceAll('/', '-'), path]),
  [`markets-${SCREENSHOT_MARKET}`, PATHS.marketPage(SCREENSHOT_MARKET)],
  ['not-found-austin', HINTED_PAGE],
];

/** What the layout check found on one page at one width. */
interface Layout {
  /** The page's width once every <details> is open (the tables inside them count too). */
  scrollWidth: number;
  tables: number;
  /** A column a reader cannot bring on screen, a header row that is a tall band, a table wider than its box. */
  tableProblems: string[];
  /** Every chart (an <svg> that is not decoration) and its accessible name. */
  charts: { id: string; name: string }[];
  chartProblems: string[];
  /** Text drawn over text or over a line in a chart (the map's labels, the price index's latest value), at the browser's own font. */
  overlapProblems: string[];
  /** A code block whose line breaks inside a word or URL, or that scrolls where the keyboard cannot reach it. */
  codeProblems: string[];
  /** How many code blocks and chart labels were checked. */
  checked: { code: number; mapLabels: number; priceLabels: number };
}

interface Visit {
  path: string;
  status: number | undefined;
  problems: string[];
  scrollWidth: number;
  stylesheetApplied: boolean;
  serious: string[];
  minor: string[];
  layout: Layout;
  /** The reader's measures (issue: pages taken in at a glance), on the eight pages they are taken on. */
  measures: Measures | undefined;
}

/** What a reader meets on one page at one width: its length, its footer, boxes that scroll sideways, its lines, where values first show. */
interface Measures {
  height: number;
  footer: number;
  /** Boxes whose content is wider than they are and that scroll sideways (every <details> closed, as a reader first meets the page). */
  scrollers: string[];
  /** The text of main, caveats aside, one entry per line or table cell, whitespace collapsed. */
  lines: string[];
  /** The first place (page y, px) each text is shown; null where it is not shown. */
  firstAt: Record<string, number | null>;
}

/**
 * Runs in the page, every <details> closed. Its height and the footer's; the boxes that scroll sideways; the lines of main
 * (the caveats aside: they are exempt from the repeat rules), from innerText split at line and cell ends; and the first
 * y at which each of `texts` is shown (a text node that holds it and is drawn, SVG titles and descriptions aside).
 */
function measurePage(texts: readonly string[]): Measures {
  const scrollers: string[] = [];
  for (const el of document.querySelectorAll('body *')) {
    const o = getComputedStyle(el).overflowX;
    if ((o === 'auto' || o === 'scroll') && el.scrollWidth > el.clientWidth + 1)
      scrollers.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} (${el.scrollWidth} px in ${el.clientWidth} px)`);
  }
  const main = document.querySelector('main');
  const lines = [...(main?.children ?? [])]
    .filter((c) => !c.matches('.caveats'))
    .flatMap((c) => (c as HTMLElement).innerText.split(/[\n\t]+/))
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '');
  const firstAt: Record<string, number | null> = {};
  for (const t of texts) firstAt[t] = null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const own = node.textContent ?? '';
    if (node.parentElement?.closest('title, desc') != null) continue;
    for (const t of texts) {
      const at = own.indexOf(t);
      if (at === -1) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + t.length);
      const r = range.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const y = r.top + window.scrollY;
      const seen = firstAt[t];
      if (seen === null || seen === undefined || y < seen) firstAt[t] = Math.round(y);
    }
  }
  return {
    height: document.documentElement.scrollHeight,
    footer: Math.round(document.querySelector('footer')?.getBoundingClientRect().height ?? 0),
    scrollers,
    lines,
    firstAt,
  };
}

/**
 * Runs in the page. Opens every <details>, then checks each table: at any width, every cell of its header row and first
 * body row can be brought on screen (scrolling its own region if it has one) and is then not covered by anything else
 * (a sticky column, say); where the header row is hidden (the phone's card layout), every data cell names its column
 * (data-label); no header row over 60 px tall whose cells on screen hold text for less than 40 % of its height (a band
 * made by wrapped headings off screen); and, when `fit` is set (a desktop), no table is wider than its box, so nothing
 * needs scrolling. Every <svg> that is not aria-hidden must be role="img" with a name from aria-labelledby or aria-label.
 */
function checkLayout(fit: boolean): Layout {
  for (const d of document.querySelectorAll('details')) d.open = true;
  const tableProblems: string[] = [];
  const tables = [...document.querySelectorAll('table')];
  const nameOf = (t: HTMLTableElement): string => (t.caption?.textContent ?? '(no caption)').replace(/\s+/g, ' ').trim().slice(0, 70);
  const scrollerOf = (el: Element): HTMLElement | undefined => {
    for (let p = el.parentElement; p !== null; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') return p;
    }
    return undefined;
  };
  /** Displayed, and not visually hidden by an ancestor (the card layout hides the header row with a 1 px clipped box). */
  const shown = (el: Element): boolean => {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (r.width <= 2 || r.height <= 2 || cs.visibility === 'hidden' || cs.display === 'none') return false;
    for (let p: Element | null = el; p !== null; p = p.parentElement) {
      const ps = getComputedStyle(p);
      const pr = p.getBoundingClientRect();
      if (ps.clipPath !== 'none' || (ps.overflow === 'hidden' && (pr.width <= 2 || pr.height <= 2))) return false;
    }
    return true;
  };
  for (const table of tables) {
    const name = nameOf(table);
    const scroller = scrollerOf(table);
    if (scroller !== undefined) scroller.scrollLeft = 0;
    if (scroller !== undefined && getComputedStyle(scroller).overflowX === 'hidden') tableProblems.push(`${name}: inside a box that hides overflow`);
    if (fit) {
      const box = (table.closest('.table-scroll, .table-reflow') as HTMLElement | null) ?? table.parentElement;
      const width = table.getBoundingClientRect().width;
      if (box !== null && width > box.clientWidth + 1) tableProblems.push(`${name}: ${Math.round(width)} px of content in a box of ${box.clientWidth} px`);
    }
    const head = table.tHead?.rows[0];
    const body = table.tBodies[0]?.rows[0];
    const headShown = head !== undefined && shown(head);
    if (head !== undefined && headShown) {
      // A tall header row whose cells on screen hold little text is an empty band: its height comes from cells off screen.
      const height = head.getBoundingClientRect().height;
      const area = scroller?.getBoundingClientRect();
      const onScreen = [...head.cells].filter((c) => {
        const r = c.getBoundingClientRect();
        return r.right > Math.max(0, area?.left ?? 0) && r.left < Math.min(window.innerWidth, area?.right ?? window.innerWidth);
      });
      const text = Math.max(
        0,
        ...onScreen.map((c) => {
          const range = document.createRange();
          range.selectNodeContents(c);
          return range.getBoundingClientRect().height;
        }),
      );
      if (height > 60 && text < height * 0.4)
        tableProblems.push(`${name}: the header row is ${Math.round(height)} px tall, its cells on screen hold ${Math.round(text)} px of text`);
    }
    const cells = [...(headShown ? [...(head?.cells ?? [])] : []), ...(body?.cells ?? [])];
    for (const cell of cells) {
      const label = `${name}: column "${(cell.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 30)}"`;
      if (!shown(cell)) {
        tableProblems.push(`${label} is not displayed`);
        continue;
      }
      if (head !== undefined && !headShown && cell.tagName === 'TD' && cell.colSpan === 1 && (cell.getAttribute('data-label') ?? '') === '')
        tableProblems.push(`${label} has no visible column name (hidden header row, no data-label)`);
      // A script can scroll a box that hides its overflow, a reader cannot: such a box stays where it is.
      const own = scrollerOf(cell);
      const frozen = own !== undefined && getComputedStyle(own).overflowX === 'hidden';
      cell.scrollIntoView({ block: 'center', inline: 'end' });
      if (frozen && own !== undefined) own.scrollLeft = 0;
      const area = own?.getBoundingClientRect();
      const left = Math.max(0, area?.left ?? 0);
      const right = Math.min(window.innerWidth, area?.right ?? window.innerWidth);
      let r = cell.getBoundingClientRect();
      if (r.width > right - left && !frozen) {
        // Wider than the visible box: its start must come on screen.
        cell.scrollIntoView({ block: 'center', inline: 'start' });
        r = cell.getBoundingClientRect();
      }
      const fits = r.width <= right - left ? r.left >= left - 1 && r.right <= right + 1 : r.left >= left - 1 && r.left < right - 1;
      if (!fits) {
        tableProblems.push(
          `${label} cannot be brought on screen (at ${Math.round(r.left)}-${Math.round(r.right)}, visible ${Math.round(left)}-${Math.round(right)})`,
        );
        continue;
      }
      // A cell that runs on as text (a card's inline cell) may wrap: probe where its first line's text ends, not the corner of its whole box.
      const line = cell.getClientRects()[0] ?? r;
      const probe = document.elementFromPoint(Math.min(line.right, right) - 3, line.top + Math.min(line.height / 2, 8));
      if (probe === null || !cell.contains(probe)) tableProblems.push(`${label} is covered by ${probe?.tagName ?? 'nothing'} when scrolled into view`);
    }
  }
  window.scrollTo(0, 0);
  const charts: { id: string; name: string }[] = [];
  const chartProblems: string[] = [];
  for (const svg of document.querySelectorAll('svg')) {
    if (svg.closest('[aria-hidden="true"]') !== null) continue;
    const id = svg.getAttribute('class') ?? svg.outerHTML.slice(0, 60);
    const labelledBy = (svg.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter((x) => x !== '');
    const name = [...labelledBy.map((x) => document.getElementById(x)?.textContent ?? ''), svg.getAttribute('aria-label') ?? '']
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (svg.getAttribute('role') !== 'img') chartProblems.push(`${id}: role is ${svg.getAttribute('role') ?? 'missing'}, not img`);
    if (labelledBy.some((x) => document.getElementById(x) === null)) chartProblems.push(`${id}: aria-labelledby names an id that is not on the page`);
    if (name === '') chartProblems.push(`${id}: no accessible name`);
    charts.push({ id, name });
  }
  // The map's labels on show at this width, as the browser draws them: no two meet.
  const overlapProblems: string[] = [];
  const meet = (a: DOMRect, b: DOMRect): boolean => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const mapLabels = [...document.querySelectorAll('.map-labels')]
    .filter((g) => getComputedStyle(g).display !== 'none')
    .flatMap((g) => [...g.querySelectorAll('text')]);
  for (const [i, a] of mapLabels.entries())
    for (const b of mapLabels.slice(i + 1))
      if (meet(a.getBoundingClientRect(), b.getBoundingClientRect()))
        overlapProblems.push(`map labels "${a.textContent ?? ''}" and "${b.textContent ?? ''}" meet`);
  // The price chart's end labels: no two meet, and no point of a line (sampled along each path, in screen pixels) is within a label's box or the stroke's half-width of it.
  const priceLabels = [...document.querySelectorAll('svg.chart-price .annotation text')];
  for (const [i, a] of priceLabels.entries())
    for (const b of priceLabels.slice(i + 1))
      if (meet(a.getBoundingClientRect(), b.getBoundingClientRect()))
        overlapProblems.push(`price labels "${a.textContent ?? ''}" and "${b.textContent ?? ''}" meet`);
  for (const label of priceLabels) {
    const box = label.getBoundingClientRect();
    for (const path of label.closest('svg')?.querySelectorAll('path[fill="none"]') ?? []) {
      const line = path as SVGPathElement;
      const ctm = line.getScreenCTM();
      if (ctm === null) continue;
      for (let at = 0, length = line.getTotalLength(); at <= length; at += 0.5) {
        const p = line.getPointAtLength(at).matrixTransform(ctm);
        if (p.x > box.left - 2 && p.x < box.right + 2 && p.y > box.top - 2 && p.y < box.bottom + 2) {
          overlapProblems.push(`the line crosses the label "${label.textContent ?? ''}" at (${Math.round(p.x)}, ${Math.round(p.y)})`);
          break;
        }
      }
    }
  }
  // Code blocks: a line breaks only at a space or after a slash (a soft wrap inside a word is a fault), and a block that scrolls can be focused.
  const codeProblems: string[] = [];
  const blocks = [...document.querySelectorAll('pre')];
  for (const pre of blocks) {
    const name = (pre.textContent ?? '').trim().slice(0, 50);
    if (pre.scrollWidth > pre.clientWidth + 1) {
      const o = getComputedStyle(pre).overflowX;
      if (o !== 'auto' && o !== 'scroll') codeProblems.push(`"${name}" is wider than its box and does not scroll`);
      if (pre.tabIndex < 0) codeProblems.push(`"${name}" scrolls but the keyboard cannot reach it`);
    }
    const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    let top: number | undefined;
    let before = '';
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i += 1) {
        const ch = text[i] ?? '';
        if (ch === '\n') {
          top = undefined;
          before = ch;
          continue;
        }
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getBoundingClientRect();
        // A sensible break: at a space, or after a slash of a URL.
        if (top !== undefined && r.top > top + 1 && !/[\s/]/.test(before) && !/\s/.test(ch))
          codeProblems.push(`"${name}" breaks a line inside "${text.slice(Math.max(0, i - 12), i)}|${text.slice(i, i + 12)}"`);
        top = r.top;
        before = ch;
      }
    }
  }
  // A name in a table's row head (a CSV column, an input) is one word: it never breaks across lines.
  const names = [...document.querySelectorAll('th code')];
  for (const name of names) if (name.getClientRects().length > 1) codeProblems.push(`the name "${name.textContent ?? ''}" breaks across lines`);
  return {
    scrollWidth: document.documentElement.scrollWidth,
    tables: tables.length,
    tableProblems,
    charts,
    chartProblems,
    overlapProblems,
    codeProblems,
    checked: { code: blocks.length, mapLabels: mapLabels.length, priceLabels: priceLabels.length },
  };
}

interface VisitOptions {
  axe: (path: string) => boolean;
  fit: boolean;
  /** The texts whose first place a page's measures give, for the pages measured. */
  measure: (path: string) => readonly string[] | undefined;
}

/**
 * One browser tab that visits pages in turn. Reusing the tab keeps its renderer warm, which makes
 * each axe-core run several times faster than in a fresh tab.
 */
/**
 * tsx compiles this file with esbuild's keepNames, which wraps the functions inside checkLayout in `__name(fn, "name")`;
 * a function evaluated in the page needs that helper there too (it only names the function).
 */
const KEEP_NAMES_HELPER = 'globalThis.__name = (target) => target;';

async function tab(context: BrowserContext, origin: string, options: VisitOptions): Promise<(path: string) => Promise<Visit>> {
  const page: Page = await context.newPage();
  await page.addInitScript(KEEP_NAMES_HELPER);
  let path = '';
  let problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // The 404 page's own status is logged by Chromium as a failed resource; nothing else may be.
    if (isMissing(path) && msg.text().includes('404') && msg.location().url === origin + path) return;
    problems.push(`console error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400 && !(isMissing(path) && response.url() === origin + path)) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return async (next) => {
    path = next;
    problems = [];
    const response = await page.goto(origin + path, { waitUntil: 'load' });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    // The header's background comes only from the stylesheet, so it proves the CSP let the CSS in.
    const stylesheetApplied = await page.evaluate(() => {
      const header = document.querySelector('.site-header');
      return header !== null && getComputedStyle(header).backgroundColor !== 'rgba(0, 0, 0, 0)';
    });
    // Legacy mode runs axe in the page itself (the pages have no frames), without a helper tab per run.
    const violations: Result[] = options.axe(path)
      ? (
          await new AxeBuilder({ page })
            .setLegacyMode(true)
            .options({ resultTypes: ['violations'] })
            .analyze()
        ).violations
      : [];
    const describeViolation = (v: Result): string =>
      `${v.impact ?? 'unknown'} ${v.id}: ${v.help} (${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join('; ')})`;
    const texts = options.measure(path);
    // Measured as a reader first meets the page: before the layout check opens every <details>.
    const measures = texts === undefined ? undefined : await page.evaluate(measurePage, texts);
    const layout = await page.evaluate(checkLayout, options.fit);

    return {
      path,
      status: response?.status(),
      problems,
      scrollWidth,
      stylesheetApplied,
      layout,
      measures,
      serious: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map(describeViolation),
      minor: violations.filter((v) => v.impact !== 'serious' && v.impact !== 'critical').map(describeViolation),
    };
  };
}

/** Visits every path with `tabs` tabs working through one queue; results keep the input order. */
async function visitAll(context: BrowserContext, origin: string, paths: readonly string[], tabs: number, options: VisitOptions): Promise<Visit[]> {
  const results: Visit[] = new Array(paths.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    const visit = await tab(context, origin, options);
    while (next < paths.length) {
      const i = next++;
      results[i] = await visit(paths[i] ?? '');
    }
  };
  await Promise.all(Array.from({ length: tabs }, worker));
  return results;
}

/**
 * Every pair of texts that shares a run of `size` characters, with the run's start: a rolling hash of every window
 * finds candidates, and each is compared character by character.
 */
function sharedBlocks(texts: readonly (readonly [name: string, text: string])[], size: number): string[] {
  const BASE = 257;
  const MOD = 2_147_483_629;
  let power = 1;
  for (let i = 1; i < size; i += 1) power = (power * BASE) % MOD;
  const seen = new Map<number, { page: number; at: number }[]>();
  const found = new Map<string, string>();
  texts.forEach(([, text], page) => {
    let h = 0;
    for (let i = 0; i < text.length; i += 1) {
      if (i >= size) h = (h - ((text.charCodeAt(i - size) * power) % MOD) + MOD) % MOD;
      h = (h * BASE + text.charCodeAt(i)) % MOD;
      if (i < size - 1) continue;
      const at = i - size + 1;
      const block = text.slice(at, at + size);
      const list = seen.get(h) ?? [];
      for (const other of list) {
        const pair = `${texts[other.page]?.[0] ?? ''} and ${texts[page]?.[0] ?? ''}`;
        if (other.page !== page && !found.has(pair) && texts[other.page]?.[1].slice(other.at, other.at + size) === block) found.set(pair, block);
      }
      if (!list.some((x) => x.page === page)) list.push({ page, at });
      seen.set(h, list);
    }
  });
  return [...found].map(([pair, block]) => `${pair} share "${block.slice(0, 80)}…"`);
}

/** Chart classes each kind of page must carry, each with an accessible name. */
const HOME_CHARTS = ['map'];
const MARKET_CHARTS = ['chart chart-price'];

/**
 * No Playwright deadline on a busy machine: its 30 s defaults (launch, navigation, each wait) would fail a test that is
 * only slow. A page that never loads still ends the run: the suite's guard below is ten minutes.
 */
const untimed = <T extends { setDefaultTimeout(ms: number): void }>(target: T): T => {
  target.setDefaultTimeout(0);
  return target;
};

describe('pages in headless Chromium', { timeout: 600_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let visits: Visit[] = [];
  let wide: Visit[] = [];
  const screenshotPaths = new Set(SCREENSHOT_PAGES.map(([, path]) => path));
  const measure = (path: string): readonly string[] | undefined =>
    !MEASURED_PAGES.includes(path) ? undefined : path === PATHS.marketPage(MEASURED_MARKET) ? AUSTIN_FIGURES : [];
  /** The measures of the eight pages at a width, in MEASURED_PAGES' order. */
  const measured = (width: 375 | 1280): [string, Measures][] => {
    const at = width === PHONE.width ? visits : wide;
    return MEASURED_PAGES.map((path) => [path, at.find((v) => v.path === path)?.measures ?? assert.fail(`${path} not measured at ${width} px`)]);
  };

  before(async () => {
    // Fail loudly rather than skip: npm test (npm run test:needs) installs Debian's chromium when it is missing.
    assert.ok(
      existsSync(CHROMIUM),
      `Chromium not found at ${CHROMIUM}. Install it with "apt-get install -y chromium" (as npm test does) or set CHROMIUM_PATH.`,
    );
    server = await startServer(table, { host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({
      timeout: 0,
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const phone = untimed(await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 }));
    visits = await visitAll(phone, server.url, pagePaths, 2, { axe: () => true, fit: false, measure });
    await phone.close();
    // At 1280 px every page's layout is checked, and axe runs again on the eight pages, New York's and the 404 pages.
    const desktop = untimed(await browser.newContext({ viewport: DESKTOP, deviceScaleFactor: 1 }));
    wide = await visitAll(desktop, server.url, pagePaths, 2, { axe: (path) => screenshotPaths.has(path) || path === MISSING_PAGE, fit: true, measure });
    await desktop.close();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('loads every page, the 404 page included', () => {
    assert.equal(visits.length, pagePaths.length);
    assert.ok(visits.length >= 24, `only ${visits.length} pages`);
    for (const v of [...visits, ...wide]) assert.equal(v.status, isMissing(v.path) ? 404 : 200, v.path);
  });

  it('logs no console error and fails no request on any page', () => {
    const problems = [...visits, ...wide].flatMap((v) => v.problems.map((p) => `${v.path}: ${p}`));
    assert.deepEqual(problems, []);
  });

  it('applies the stylesheet under the page CSP', () => {
    for (const v of visits) assert.ok(v.stylesheetApplied, v.path);
  });

  for (const [width, pick] of [
    [PHONE.width, () => visits],
    [DESKTOP.width, () => wide],
  ] as const) {
    it(`does not overflow horizontally at ${width} px, with every <details> open too`, () => {
      for (const v of pick()) {
        assert.ok(v.scrollWidth <= width, `${v.path} is ${v.scrollWidth} px wide`);
        assert.ok(v.layout.scrollWidth <= width, `${v.path} is ${v.layout.scrollWidth} px wide with its details open`);
      }
    });
  }

  it(`brings every column of every table on screen at ${PHONE.width} px, each named, with no tall empty header band`, () => {
    // Each market page has three: every figure, its sources, and every quarter's price index (in a <details>, opened).
    assert.ok(visits.reduce((n, v) => n + v.layout.tables, 0) >= 48, 'too few tables checked');
    assert.deepEqual(
      visits.flatMap((v) => v.layout.tableProblems.map((p) => `${v.path}: ${p}`)),
      [],
    );
  });

  it(`fits every table in its box at ${DESKTOP.width} px, every column on screen`, () => {
    assert.deepEqual(
      wide.flatMap((v) => v.layout.tableProblems.map((p) => `${v.path}: ${p}`)),
      [],
    );
  });

  it('gives every chart an accessible name, and draws the charts the home and market pages promise', () => {
    assert.deepEqual(
      [...visits, ...wide].flatMap((v) => v.layout.chartProblems.map((p) => `${v.path}: ${p}`)),
      [],
    );
    for (const v of [...visits, ...wide]) {
      const classes = v.layout.charts.map((c) => c.id);
      const expected = v.path === PATHS.home ? HOME_CHARTS : v.path.startsWith('/markets/') && !isMissing(v.path) ? MARKET_CHARTS : [];
      for (const c of new Set(expected))
        assert.equal(classes.filter((x) => x === c).length, expected.filter((x) => x === c).length, `${v.path}: charts of class "${c}"`);
    }
  });

  for (const [width, pick] of [
    [PHONE.width, () => visits],
    [DESKTOP.width, () => wide],
  ] as const) {
    it(`draws no map label over another, no price chart label over another and no line through one, at ${width} px`, () => {
      assert.ok(pick().reduce((n, v) => n + v.layout.checked.mapLabels, 0) >= 16, 'the map labels were checked');
      assert.ok(pick().reduce((n, v) => n + v.layout.checked.priceLabels, 0) >= 48, "every market page's three labels were checked");
      assert.deepEqual(
        pick().flatMap((v) => v.layout.overlapProblems.map((p) => `${v.path}: ${p}`)),
        [],
      );
    });

    it(`breaks code lines only at a space or after a slash, never inside a word, keeps names whole, and lets a wide one scroll from the keyboard, at ${width} px`, () => {
      assert.ok(pick().reduce((n, v) => n + v.layout.checked.code, 0) >= 9, "the data catalog's curl lines were checked");
      assert.deepEqual(
        pick().flatMap((v) => v.layout.codeProblems.map((p) => `${v.path}: ${p}`)),
        [],
      );
    });
  }

  it('the layout check itself catches a clipped column, a table wider than its box, a tall header band and an unnamed chart', async () => {
    const page = untimed(await browser.newPage({ viewport: PHONE }));
    await page.setContent(
      `<div style="width:300px;overflow:hidden"><table style="border-collapse:collapse"><caption>clipped</caption><thead><tr><th style="padding:0">A</th><th style="height:150px;padding:0;border:0">B</th></tr></thead>` +
        `<tbody><tr><td style="min-width:400px">wide</td><td>last</td></tr></tbody></table></div>` +
        `<div style="width:300px;overflow-x:auto" class="table-scroll"><table><caption>scrolls</caption><tbody><tr><td style="min-width:500px">x</td></tr></tbody></table></div>` +
        `<svg role="img" width="10" height="10"><rect width="10" height="10"/></svg><svg width="10" height="10"><title>no role</title></svg>`,
    );
    await page.evaluate(KEEP_NAMES_HELPER);
    const phone = await page.evaluate(checkLayout, false);
    const desktop = await page.evaluate(checkLayout, true);
    await page.close();
    const has = (list: string[], text: string): boolean => list.some((p) => p.includes(text));
    assert.ok(has(phone.tableProblems, 'clipped: inside a box that hides overflow'), phone.tableProblems.join('\n'));
    assert.ok(has(phone.tableProblems, 'clipped: column "last" cannot be brought on screen'), phone.tableProblems.join('\n'));
    assert.ok(has(phone.tableProblems, 'clipped: the header row is 150 px tall, its cells on screen hold'), phone.tableProblems.join('\n'));
    assert.ok(!has(phone.tableProblems, 'scrolls:'), 'a table in a scrolling region is reachable');
    assert.ok(
      desktop.tableProblems.some((p) => /^scrolls: \d+ px of content in a box of 300 px$/.test(p)),
      desktop.tableProblems.join('\n'),
    );
    assert.equal(phone.chartProblems.filter((p) => p.endsWith(': no accessible name')).length, 2, phone.chartProblems.join('\n'));
    assert.ok(has(phone.chartProblems, 'role is missing, not img'), phone.chartProblems.join('\n'));
  });

  it('the layout check itself catches labels that meet, a line through a label, a code line broken inside a URL, a name broken across lines and a scrolling block out of reach', async () => {
    const page = untimed(await browser.newPage({ viewport: PHONE }));
    await page.setContent(
      `<svg role="img" aria-label="map" width="300" height="60"><g class="map-labels"><text x="10" y="20">Los Angeles 9</text><text x="14" y="26">San Diego 20</text></g></svg>` +
        `<svg class="chart-price" role="img" aria-label="price" width="300" height="100"><svg><path d="M0 50L300 50" fill="none" stroke="black"/></svg>` +
        `<g class="annotation"><text x="200" y="55">Metro 505</text><text x="204" y="58">US 313</text></g></svg>` +
        `<table><caption>c</caption><tr><th scope="row" style="width:40px"><code style="overflow-wrap:anywhere">margin_of_error</code></th></tr></table>` +
        `<pre style="width:120px;white-space:pre-wrap;overflow-wrap:anywhere">curl -sS http://localhost:3000/api/markets/us-az-phoenix</pre>` +
        `<pre style="width:120px;overflow-x:auto">curl -sS http://localhost:3000/api/markets</pre>`,
    );
    await page.evaluate(KEEP_NAMES_HELPER);
    const found = await page.evaluate(checkLayout, false);
    await page.close();
    const has = (list: string[], text: string): boolean => list.some((p) => p.includes(text));
    assert.ok(has(found.overlapProblems, 'map labels "Los Angeles 9" and "San Diego 20" meet'), found.overlapProblems.join('\n'));
    assert.ok(has(found.overlapProblems, 'the line crosses the label "Metro 505"'), found.overlapProblems.join('\n'));
    assert.ok(has(found.overlapProblems, 'price labels "Metro 505" and "US 313" meet'), found.overlapProblems.join('\n'));
    assert.ok(has(found.codeProblems, 'the name "margin_of_error" breaks across lines'), found.codeProblems.join('\n'));
    assert.ok(has(found.codeProblems, '"curl -sS http://localhost:3000/api/markets/us-az-p" breaks a line inside'), found.codeProblems.join('\n'));
    assert.ok(has(found.codeProblems, '"curl -sS http://localhost:3000/api/markets" scrolls but the keyboard cannot reach it'), found.codeProblems.join('\n'));
  });

  it("prints the reader's measures: the eight pages' heights, the footer, sideways scrolling, where Austin's values stand; and holds them to the limits", (t) => {
    const rows = MEASURED_PAGES.map((path) => {
      const [phone, desk] = [measured(375), measured(1280)].map((list) => list.find(([p]) => p === path)?.[1]);
      return { path, phone, desk };
    });
    const total = (w: 375 | 1280): number => measured(w).reduce((n, [, m]) => n + m.height, 0);
    const n = (x: number): string => x.toLocaleString('en-US');
    const austinPage = PATHS.marketPage(MEASURED_MARKET);
    const valueYs = (w: 375 | 1280): [string, number | null][] => {
      const m = measured(w).find(([p]) => p === austinPage)?.[1];
      return [...AUSTIN_VALUES].map(([id, text]) => [`${id} ${text}`, m?.firstAt[text] ?? null]);
    };
    const lines = [
      'page heights (px) at 375 and 1280:',
      ...rows.map((r) => `  ${r.path.padEnd(24)} ${n(r.phone?.height ?? 0).padStart(7)} ${n(r.desk?.height ?? 0).padStart(7)}`),
      `  ${'all eight'.padEnd(24)} ${n(total(375)).padStart(7)} ${n(total(1280)).padStart(7)}`,
      `footer at 375 px: ${rows.map((r) => r.phone?.footer ?? 0).join(', ')} px`,
      `sideways-scrolling boxes at 375 px: ${rows.map((r) => `${r.path} ${r.phone?.scrollers.length ?? 0}${r.phone?.scrollers.length ? ` (${r.phone.scrollers.join('; ')})` : ''}`).join(', ')}`,
      ...([375, 1280] as const).map(
        (w) =>
          `Austin's values, first y at ${w} px: ${valueYs(w)
            .map(([k, y]) => `${k} ${y ?? 'not shown'}`)
            .join('; ')}`,
      ),
    ];
    // One diagnostic a line: TAP keeps each on a line of its own.
    for (const line of lines) t.diagnostic(line);
    for (const w of [375, 1280] as const) assert.ok(total(w) <= LIMITS.total[w], `the eight pages are ${n(total(w))} px tall at ${w} px`);
    for (const r of rows) assert.ok((r.phone?.footer ?? Infinity) < LIMITS.footer, `${r.path}: footer ${r.phone?.footer ?? '?'} px at 375 px`);
    for (const path of [PATHS.home, austinPage])
      assert.deepEqual(rows.find((r) => r.path === path)?.phone?.scrollers, [], `${path}: boxes that scroll sideways at 375 px`);
    for (const w of [375, 1280] as const)
      for (const [what, y] of valueYs(w)) assert.ok(y !== null && y < LIMITS.valuesWithin[w], `Austin's ${what} first shown at ${y ?? 'nowhere'} at ${w} px`);
    const shown = measured(1280).find(([p]) => p === austinPage)?.[1].firstAt ?? {};
    assert.deepEqual(
      AUSTIN_FIGURES.filter((f) => shown[f] === null),
      [],
      "every value, margin and comparison figure of Austin's JSON is shown on its page",
    );
  });

  it('repeats no line of 40 or more characters on a page, and shares no block of 300 characters between two of the eight pages (caveats aside)', (t) => {
    const pages = measured(1280);
    const repeated = pages.flatMap(([path, m]) => {
      const seen = new Map<string, number>();
      for (const l of m.lines) if (l.length >= 40) seen.set(l, (seen.get(l) ?? 0) + 1);
      return [...seen].filter(([, k]) => k > 1).map(([l, k]) => `${path}: ${k} times "${l}"`);
    });
    const shared = sharedBlocks(
      pages.map(([path, m]) => [path, m.lines.join(' ')]),
      300,
    );
    t.diagnostic(`lines of 40+ characters repeated on a page: ${repeated.length}; blocks of 300 characters two pages share: ${shared.length}`);
    for (const line of [...repeated, ...shared]) t.diagnostic(`  ${line}`);
    assert.deepEqual(repeated, []);
    assert.deepEqual(shared, []);
  });

  it('has no serious or critical axe-core violation', (t) => {
    const scanned = [...visits, ...wide.filter((v) => screenshotPaths.has(v.path) || v.path === MISSING_PAGE)];
    const minor = [...new Set(scanned.flatMap((v) => v.minor))];
    t.diagnostic(
      `axe-core: ${visits.length} pages scanned at ${PHONE.width} px and ${scanned.length - visits.length} at ${DESKTOP.width} px, ${scanned.reduce((n, v) => n + v.serious.length, 0)} serious or critical, ${minor.length} distinct minor or moderate${minor.length > 0 ? `: ${minor.join(' | ')}` : ''}`,
    );
    assert.deepEqual(
      scanned.flatMap((v) => v.serious.map((s) => `${v.path}: ${s}`)),
      [],
    );
  });

  it(`writes full-page screenshots of ${SCREENSHOT_PAGES.map(([label]) => label).join(', ')} at ${DESKTOP.width} px and ${PHONE.width} px`, async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const shots: string[] = [];
    for (const [name, viewport] of [
      [String(DESKTOP.width), DESKTOP],
      [String(PHONE.width), PHONE],
    ] as const) {
      const context = untimed(await browser.newContext({ viewport, deviceScaleFactor: 1 }));
      const page = await context.newPage();
      for (const [label, path] of SCREENSHOT_PAGES) {
        await page.goto(server.url + path, { waitUntil: 'load' });
        const file = join(SCREENSHOTS, `${label}-${name}.png`);
        const png = await page.screenshot({ path: file, fullPage: true });
        const scrollHeight = await page.evaluate(() => document.documentElement.scrollHeight);
        // A full-page capture is as wide as the page's content: exactly the viewport when nothing overflows sideways.
        const { width, height } = pngSize(png);
        assert.equal(width, viewport.width, `${label} at ${name} px is ${width} px wide`);
        assert.equal(height, scrollHeight, `${label} at ${name} px: the whole page, ${scrollHeight} px`);
        if (!isMissing(path)) assert.ok(height > viewport.height, `${label} at ${name} px is longer than one screen`);
        shots.push(file);
      }
      await context.close();
    }
    assert.deepEqual(
      shots.filter((file) => existsSync(file)),
      shots,
    );
  });
});
