// Every page in a real browser from the real server: no console errors, no failed requests, no overflow at 375 px, no serious axe findings.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildRouteTable } from '../src/build.ts';
import { PATHS } from '../src/paths.ts';
import { startServer, type RunningServer } from '../src/server/listener.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;
const SCREENSHOTS = new URL('../artifacts/screenshots/', import.meta.url).pathname;
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };
const SCREENSHOT_MARKET = 'us-ny-new-york';
/** A path no route answers: the server sends the HTML 404 page, which must pass the same checks. */
const MISSING_PAGE = '/no-such-page';

const table = buildRouteTable({ baseUrl: 'http://localhost:3000', read: (path) => readFileSync(join(FIXTURES, path), 'utf8') });
const pagePaths = [...[...table.routes.values()].filter((r) => r.kind === 'html').map((r) => r.path), MISSING_PAGE];

interface Visit {
  path: string;
  status: number | undefined;
  problems: string[];
  scrollWidth: number;
  stylesheetApplied: boolean;
  serious: string[];
  minor: string[];
}

/**
 * One browser tab that visits pages in turn. Reusing the tab keeps its renderer warm, which makes
 * each axe-core run several times faster than in a fresh tab.
 */
async function tab(context: BrowserContext, origin: string): Promise<(path: string) => Promise<Visit>> {
  const page: Page = await context.newPage();
  let path = '';
  let problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // The 404 page's own status is logged by Chromium as a failed resource; nothing else may be.
    if (path === MISSING_PAGE && msg.text().includes('404') && msg.location().url === origin + path) return;
    problems.push(`console error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400 && !(path === MISSING_PAGE && response.url() === origin + path)) problems.push(`HTTP ${response.status()}: ${response.url()}`);
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
    const axe = await new AxeBuilder({ page })
      .setLegacyMode(true)
      .options({ resultTypes: ['violations'] })
      .analyze();
    const describeViolation = (v: (typeof axe.violations)[number]): string =>
      `${v.impact ?? 'unknown'} ${v.id}: ${v.help} (${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join('; ')})`;
    return {
      path,
      status: response?.status(),
      problems,
      scrollWidth,
      stylesheetApplied,
      serious: axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map(describeViolation),
      minor: axe.violations.filter((v) => v.impact !== 'serious' && v.impact !== 'critical').map(describeViolation),
    };
  };
}

/** Visits every path with `tabs` tabs working through one queue; results keep the input order. */
async function visitAll(context: BrowserContext, origin: string, paths: readonly string[], tabs: number): Promise<Visit[]> {
  const results: Visit[] = new Array(paths.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    const visit = await tab(context, origin);
    while (next < paths.length) {
      const i = next++;
      results[i] = await visit(paths[i] ?? '');
    }
  };
  await Promise.all(Array.from({ length: tabs }, worker));
  return results;
}

describe('pages in headless Chromium', { timeout: 60_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let visits: Visit[] = [];

  before(async () => {
    // Fail loudly rather than skip: CI (.ci/run) installs Debian's chromium when it is missing.
    assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}. Install it with "apt-get install -y chromium" (as .ci/run does) or set CHROMIUM_PATH.`);
    server = await startServer(table, { host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({
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
    const phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
    visits = await visitAll(phone, server.url, pagePaths, 2);
    await phone.close();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('loads every page, the 404 page included', () => {
    assert.equal(visits.length, pagePaths.length);
    assert.ok(visits.length >= 24, `only ${visits.length} pages`);
    for (const v of visits) assert.equal(v.status, v.path === MISSING_PAGE ? 404 : 200, v.path);
  });

  it('logs no console error and fails no request on any page', () => {
    const problems = visits.flatMap((v) => v.problems.map((p) => `${v.path}: ${p}`));
    assert.deepEqual(problems, []);
  });

  it('applies the stylesheet under the page CSP', () => {
    for (const v of visits) assert.ok(v.stylesheetApplied, v.path);
  });

  it(`does not overflow horizontally at ${PHONE.width} px`, () => {
    for (const v of visits) assert.ok(v.scrollWidth <= PHONE.width, `${v.path} is ${v.scrollWidth} px wide`);
  });

  it('has no serious or critical axe-core violation', (t) => {
    const minor = [...new Set(visits.flatMap((v) => v.minor))];
    t.diagnostic(
      `axe-core: ${visits.length} pages scanned, ${visits.reduce((n, v) => n + v.serious.length, 0)} serious or critical, ${minor.length} distinct minor or moderate${minor.length > 0 ? `: ${minor.join(' | ')}` : ''}`,
    );
    assert.deepEqual(
      visits.flatMap((v) => v.serious.map((s) => `${v.path}: ${s}`)),
      [],
    );
  });

  it('writes screenshots of the home page and one market page at 1280 px and 375 px', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const shots: string[] = [];
    for (const [name, viewport] of [
      ['1280', DESKTOP],
      ['375', PHONE],
    ] as const) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
      const page = await context.newPage();
      for (const [label, path] of [
        ['home', PATHS.home],
        [`market-${SCREENSHOT_MARKET}`, PATHS.marketPage(SCREENSHOT_MARKET)],
      ] as const) {
        await page.goto(server.url + path, { waitUntil: 'load' });
        const file = join(SCREENSHOTS, `${label}-${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        shots.push(file);
      }
      await context.close();
    }
    for (const file of shots) assert.ok(existsSync(file), file);
  });
});
