// The charts' geometry as the pages render it: labels clear of lines and of each other, values printed once, colours told apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PATHS } from '../../src/contract/paths.ts';
import { PLOT_WIDTHS, latestLabelBox } from '../../src/render/pages/price-chart.tsx';
import { contrast } from '../../src/render/pages/chart-parts.ts';
import { SCORE_KEYS, scoreColor, scoreLabel } from '../../src/render/pages/scores.ts';
import { STYLESHEET } from '../../src/render/pages/stylesheet.ts';
import { LABEL_SIZES, labelBox } from '../../src/render/pages/us-map.tsx';
import { VISIONS, colourDifference } from '../support/colour.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { WORLD_METRICS, buildWorld } from '../world/world.ts';

const table: RouteTable = buildWorld({ baseUrl: 'http://localhost:3000' });
const page = (path: string): string => {
  const route = table.routes.get(path);
  assert.ok(route, `no route ${path}`);
  return route.identity.body.toString('utf8');
};
const decode = (s: string): string =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
const boxesMeet = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** Whether the segment from (ax, ay) to (bx, by) passes through the box (Liang-Barsky clipping). */
function segmentMeetsBox(ax: number, ay: number, bx: number, by: number, box: Box): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  for (const [p, q] of [
    [-dx, ax - box.x0],
    [dx, box.x1 - ax],
    [-dy, ay - box.y0],
    [dy, box.y1 - ay],
  ] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

describe('price index chart', () => {
  const WIDTHS = [PLOT_WIDTHS.narrowest, PLOT_WIDTHS.widest];

  for (const id of table.marketIds) {
    it(`${id}: the latest value's label is crossed by no part of the line, at 375 and at 1280 px`, () => {
      const chart = page(PATHS.marketPage(id)).match(/<svg class="chart chart-price"[\s\S]*?<\/svg>\s*<p class="chart-data"/)?.[0] ?? '';
      const label = chart.match(/<text x="100%" y="([\d.]+)" text-anchor="end"[^>]*class="annotation"[^>]*>([\s\S]*?)<\/text>/);
      assert.ok(label, `${id}: no label of the latest value`);
      const lines = [...(label[2] ?? '').matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => decode(m[1] ?? ''));
      assert.ok(lines.length >= 1 && (lines[0] ?? '').startsWith('2026 Q2: '), lines.join(' / '));
      const baseline = Number(label[1]);
      // The box at the text metrics the chart assumes.
      const box = latestLabelBox(lines, baseline);
      // The lines live in a 0-1000 wide user space stretched to the plot's width; vertical units are pixels.
      const paths = [...chart.matchAll(/<path d="([^"]*)" fill="none"/g)].map((m) => m[1] ?? '');
      assert.equal(paths.length, 2, 'the whole series and the latest year');
      for (const width of WIDTHS) {
        const area = { x0: width - box.width, y0: box.top, x1: width, y1: box.bottom };
        assert.ok(area.y0 >= 0, `${id}: the label leaves the chart at the top (${area.y0})`);
        for (const d of paths) {
          for (const sub of d.split('M').filter((s) => s !== '')) {
            const pts = [...sub.matchAll(/(-?[\d.]+) (-?[\d.]+)/g)].map((m) => [(Number(m[1]) / 1000) * width, Number(m[2])] as const);
            for (let i = 0; i < pts.length; i += 1) {
              const [ax, ay] = pts[i] ?? [0, 0];
              const [bx, by] = pts[i + 1] ?? pts[i] ?? [0, 0];
              // Half the thicker stroke (4 px) either side of the line.
              const hit = segmentMeetsBox(ax, ay, bx, by, { x0: area.x0 - 2, y0: area.y0 - 2, x1: area.x1 + 2, y1: area.y1 + 2 });
              assert.ok(
                !hit,
                `${id} at ${width} px: the line from (${ax.toFixed(1)}, ${ay}) to (${bx.toFixed(1)}, ${by}) crosses the label "${lines.join(' / ')}"`,
              );
            }
          }
        }
        // The latest value's dot (r = 5) at the right end of the line.
        const dot = chart.match(/<circle cx="100%" cy="([\d.]+)" r="5"/);
        assert.ok(dot, 'the latest dot');
        const cy = Number(dot[1]);
        assert.ok(!boxesMeet(area, { x0: width - 5, y0: cy - 5, x1: width + 5, y1: cy + 5 }), `${id} at ${width} px: the label covers the latest dot`);
      }
    });
  }
});

describe('score colours', () => {
  const colours = SCORE_KEYS.map((k) => [k, scoreColor(k)] as const);

  it('each stands out from the white page (3:1, a mark) and the value written inside a bar stands out from the bar (4.5:1)', () => {
    for (const [key, colour] of colours) assert.ok(contrast(colour, '#ffffff') >= 3, `${key} ${colour}: ${contrast(colour, '#ffffff').toFixed(2)}:1`);
    // A market page writes a long bar's value inside it.
    let inside = 0;
    for (const id of table.marketIds) {
      const chart = page(PATHS.marketPage(id)).match(/<svg class="chart chart-market"[\s\S]*?<\/svg>/)?.[0] ?? '';
      for (const bar of chart.matchAll(/<rect [^>]*fill="(#[0-9a-f]{6})"[^>]*><\/rect><text [^>]*text-anchor="end" fill="(#[0-9a-f]{6})"/g)) {
        const [, fill = '', text = ''] = bar;
        assert.ok(contrast(fill, text) >= 4.5, `${id}: text ${text} on ${fill} is ${contrast(fill, text).toFixed(2)}:1`);
        inside += 1;
      }
    }
    assert.ok(inside > 0, 'no value written inside a bar');
  });

  it('every two are told apart, thin bars: CIEDE2000 30 or more with normal colour vision, 12 or more with protanopia, deuteranopia or tritanopia', () => {
    for (const vision of VISIONS) {
      const least = vision === 'normal' ? 30 : 12;
      for (const [i, [a, ca]] of colours.entries())
        for (const [b, cb] of colours.slice(i + 1)) {
          const d = colourDifference(ca, cb, vision);
          assert.ok(d >= least, `${vision}: ${a} ${ca} and ${b} ${cb} differ by ${d.toFixed(1)}`);
        }
    }
  });

  it("home: every bar has its score's colour, and the legend keys the same colours to the same scores, in the bars' order", () => {
    const html = page(PATHS.home);
    const legend = html.match(/<ul class="legend">[\s\S]*?<\/ul>/)?.[0] ?? '';
    const keys = [...legend.matchAll(/<li><svg[^>]*><rect [^>]*fill="(#[0-9a-f]{6})"[^>]*><\/rect><\/svg>([^<]*)<\/li>/g)].map((m) => [m[2], m[1]]);
    assert.deepEqual(
      keys,
      colours.map(([k, c]) => [scoreLabel(k), c]),
    );
    const chart = html.match(/<svg class="chart chart-compare"[\s\S]*?<\/svg>/)?.[0] ?? '';
    const rows = chart.split('<g><text').slice(1);
    assert.equal(rows.length, table.marketIds.length);
    for (const row of rows) {
      const fills = [...row.matchAll(/<rect [^>]*fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
      const expected = colours.map(([, c]) => c).filter((c) => fills.includes(c));
      assert.deepEqual(fills, expected, 'bars in the score order, each in its colour');
    }
  });
});

describe('where a market stands', () => {
  for (const id of table.marketIds) {
    it(`${id}: each strip prints each value once, the market's own not again at the end of the line`, () => {
      const chart = page(PATHS.marketPage(id)).match(/<svg class="chart chart-standing"[\s\S]*?<\/svg>/)?.[0] ?? '';
      // Every text of the chart by its row: the market's value sits 14 px above a line, the ends' values 19 px below it.
      const texts = [...chart.matchAll(/<text [^>]*y="([\d.]+)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({ y: Number(m[1]), text: decode(m[2] ?? '') }));
      const lines = [...chart.matchAll(/<line x1="0" x2="100%" y1="([\d.]+)"/g)].map((m) => Number(m[1]));
      // One strip per metric, the price index and its change sharing one (the index is placed by its change).
      assert.equal(lines.length, WORLD_METRICS.length - 1, `${lines.length} strips`);
      for (const line of lines) {
        const own = texts.filter((t) => Math.abs(t.y - (line - 14)) < 0.01).map((t) => t.text);
        const ends = texts.filter((t) => Math.abs(t.y - (line + 19)) < 0.01).map((t) => t.text);
        assert.equal(own.length, 1, `${id}: the market's value on the line at ${line}`);
        const printed = [...own, ...ends];
        assert.deepEqual(printed, [...new Set(printed)], `${id}: the strip at ${line} prints ${printed.join(', ')}`);
      }
    });
  }
  it('New York, the largest city, prints its housing units once, at the right end of its line', () => {
    const chart = page(PATHS.marketPage('us-ny-new-york')).match(/<svg class="chart chart-standing"[\s\S]*?<\/svg>/)?.[0] ?? '';
    assert.equal(chart.split('>3,678,486<').length - 1, 1);
  });
});

describe('home page map', () => {
  const map = page(PATHS.home).match(/<svg class="map"[\s\S]*?<\/svg>/)?.[0] ?? '';
  const dots = [...map.matchAll(/<circle class="map-dot" cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));

  for (const variant of ['wide', 'narrow'] as const) {
    it(`${variant} labels: no two meet, none covers another market's dot or leaves the frame, each is nearest its own dot`, () => {
      const { font, radius } = LABEL_SIZES[variant];
      assert.ok(STYLESHEET.includes(`.map-labels-${variant} text { font-size: ${font}px; }`), `the stylesheet sizes the ${variant} labels at ${font}px`);
      const group = map.match(new RegExp(`<g class="map-labels map-labels-${variant}">([\\s\\S]*?)</g>`))?.[1] ?? '';
      // The labels come in the order of the dots, one per market.
      const labels = [...group.matchAll(/<text x="([\d.-]+)" y="([\d.-]+)" dy="0.35em" text-anchor="(start|middle|end)"[^>]*>([\s\S]*?)<\/text>/g)].map((m) => {
        const text = decode((m[4] ?? '').replace(/<[^>]+>/g, ''));
        const at = { x: Number(m[1]), y: Number(m[2]), anchor: m[3] as 'start' | 'middle' | 'end' };
        return { text, at, box: labelBox(text, at, font) };
      });
      assert.equal(labels.length, dots.length);
      for (const [i, a] of labels.entries()) {
        assert.ok(a.box.x0 >= 0 && a.box.y0 >= 0 && a.box.x1 <= 975 && a.box.y1 <= 610, `${a.text} leaves the frame`);
        for (const b of labels.slice(i + 1)) assert.ok(!boxesMeet(a.box, b.box), `"${a.text}" and "${b.text}" meet`);
        const own = dots[i] ?? { x: NaN, y: NaN };
        // The end of the label beside its dot (the middle of the near edge for a label above or below it).
        const end = { x: a.at.x, y: a.at.anchor !== 'middle' ? a.at.y : a.at.y < own.y ? a.box.y1 : a.box.y0 };
        const toOwn = Math.hypot(end.x - own.x, end.y - own.y);
        for (const [j, d] of dots.entries()) {
          if (j === i) continue;
          assert.ok(
            !boxesMeet(a.box, { x0: d.x - radius, y0: d.y - radius, x1: d.x + radius, y1: d.y + radius }),
            `"${a.text}" covers the dot of ${labels[j]?.text}`,
          );
          assert.ok(Math.hypot(end.x - d.x, end.y - d.y) > toOwn, `"${a.text}" ends nearer the dot of ${labels[j]?.text} than its own`);
        }
      }
    });
  }
});
