// The charts' geometry as the pages render it: labels clear of lines and of each other, values printed once, colours told apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PATHS } from '../../src/contract/paths.ts';
import { END_LABEL_LINE, placeEndLabels } from '../../src/render/pages/price-chart.tsx';
import { SCORE_TRACK } from '../../src/render/pages/score-list.tsx';
import type { MarketProfile } from '../../src/contract/schemas.ts';
import { formatNumber } from '../../src/render/pages/format.ts';
import { contrast } from '../../src/render/pages/chart-parts.ts';
import { SCORE_KEYS, scoreColor } from '../../src/render/pages/scores.ts';
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

describe('price index chart', () => {
  const profiles = table.marketIds.map((id) => JSON.parse(page(PATHS.profile(id))) as MarketProfile);

  for (const p of profiles) {
    const id = p.market.id;
    it(`${id}: three lines rebased to 2000 Q1, each ending at its latest quarter's rebased value; the end labels a line apart, inside the chart`, () => {
      const chart = page(PATHS.marketPage(id)).match(/<svg class="chart chart-price"[\s\S]*?<\/svg>\s*<p class="chart-data"/)?.[0] ?? '';
      assert.match(chart, /\(2000 Q1 = 100\)<\/title>/, `${id}: the start quarter named`);
      assert.equal((chart.match(/<path d="M[^"]*" fill="none"/g) ?? []).length, 3, 'the market, its state and the nation');
      const labels = [...chart.matchAll(/<text x="100%" dx="6" y="([\d.]+)" dy="0.35em"[^>]*>([^<]*)<\/text>/g)].map((m) => ({
        y: Number(m[1]),
        text: decode(m[2] ?? ''),
      }));
      assert.deepEqual(
        labels.map((l) => l.text.split(' ')[0]),
        ['Metro', p.market.stateCode, 'US'],
      );
      const series = JSON.parse(page(PATHS.series(id))) as { metrics: Record<string, { observations: { period: string; value: number }[] }> };
      // The series document holds the market's index; the state's and the nation's are in its CSV, by geography level.
      const csv = page(PATHS.seriesCsv(id))
        .split('\r\n')
        .filter((l) => l.startsWith(`${id},homePriceIndex,`))
        .map((l) => l.split(','));
      const byLevel = (level: string): Map<string, number> => new Map(csv.filter((c) => c[12] === level).map((c) => [c[2] ?? '', Number(c[5])]));
      const own = new Map((series.metrics['homePriceIndex']?.observations ?? []).map((o) => [o.period, o.value]));
      for (const [k, values] of [own, byLevel('state'), byLevel('nation')].entries()) {
        const rebased = Math.round(((values.get('2026 Q2') ?? NaN) / (values.get('2000 Q1') ?? NaN)) * 100);
        assert.equal(labels[k]?.text.split(' ')[1], formatNumber(rebased), `${id}: line ${k} ends at ${rebased}`);
      }
      const ys = labels.map((l) => l.y).sort((x, y) => x - y);
      for (let i = 1; i < ys.length; i += 1) assert.ok((ys[i] ?? 0) - (ys[i - 1] ?? 0) >= END_LABEL_LINE - 0.01, `${id}: end labels at ${ys.join(', ')}`);
      const height = Number(chart.match(/height="([\d.]+)"/)?.[1]);
      for (const y of ys) assert.ok(y >= 10 && y <= height - 10, `${id}: an end label at ${y} of ${height}`);
    });
  }

  it('moves end labels apart that would meet, keeping their order, and keeps them inside the plot', () => {
    assert.deepEqual(placeEndLabels([100, 104, 106], 16, 204), [100, 115, 130]);
    assert.deepEqual(placeEndLabels([200, 198, 203], 16, 204), [189, 174, 204]);
    assert.deepEqual(placeEndLabels([10, 12], 16, 204), [16, 31]);
  });
});

describe('score colours', () => {
  const colours = SCORE_KEYS.map((k) => [k, scoreColor(k)] as const);

  it("each stands out from the white page and from its bar's track (3:1, a mark); the value is written beside the bar, in ink", () => {
    for (const [key, colour] of colours) {
      assert.ok(contrast(colour, '#ffffff') >= 3, `${key} ${colour}: ${contrast(colour, '#ffffff').toFixed(2)}:1`);
      assert.ok(contrast(colour, SCORE_TRACK) >= 3, `${key} ${colour} on ${SCORE_TRACK}: ${contrast(colour, SCORE_TRACK).toFixed(2)}:1`);
    }
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

  it("market pages: each score's bar in its score's colour, as long as the score, in the methodology's order", () => {
    for (const id of table.marketIds) {
      const profile = JSON.parse(page(PATHS.profile(id))) as MarketProfile;
      const list = page(PATHS.marketPage(id)).match(/<ul class="scores">[\s\S]*?<\/ul>/)?.[0] ?? '';
      const bars = [...list.matchAll(/<rect x="0" y="0" width="(\d+)%" height="10" rx="2" fill="(#[0-9a-f]{6})"/g)].map((m) => [Number(m[1]), m[2]]);
      assert.deepEqual(
        bars,
        SCORE_KEYS.flatMap((k) => {
          const v = profile.profile.scores[k];
          return v === undefined ? [] : [[v, scoreColor(k)]];
        }),
        id,
      );
    }
  });
});

describe('focus', () => {
  it('the focus outline stands out 3:1 or more from every background it is drawn on: the page, the panels and the dark header', () => {
    const variable = (name: string): string => STYLESHEET.match(new RegExp(`--${name}: (#[0-9a-f]{6});`))?.[1] ?? '';
    const [focus, onDark, panel, header] = ['focus', 'focus-on-dark', 'panel', 'header'].map(variable);
    assert.ok(
      STYLESHEET.includes('outline: 3px solid var(--focus)') && STYLESHEET.includes('.site-header a:focus-visible { outline-color: var(--focus-on-dark); }'),
      'the rules',
    );
    for (const [fg, bg] of [
      [focus, '#ffffff'],
      [focus, panel],
      [onDark, header],
    ] as const)
      assert.ok(contrast(fg ?? '', bg ?? '') >= 3, `${fg ?? ''} on ${bg ?? ''}: ${contrast(fg ?? '', bg ?? '').toFixed(2)}:1`);
  });
});

describe('where a market stands', () => {
  it('each ranked figure has a small strip: its dot where its value lies between the lowest and the highest market, a tick for each other market', () => {
    for (const id of table.marketIds) {
      const html = page(PATHS.marketPage(id));
      const strips = [...html.matchAll(/<svg class="strip"[\s\S]*?<\/svg>/g)].map((m) => m[0]);
      // Every metric but the price index, which is not ranked.
      assert.equal(strips.length, WORLD_METRICS.length - 1, id);
      for (const strip of strips) {
        assert.match(strip, /^<svg class="strip" width="100" height="14" aria-hidden="true" focusable="false">/);
        assert.equal(
          (strip.match(/<line x1="[\d.]+%" x2="[\d.]+%" y1="3" y2="11"/g) ?? []).length,
          table.marketIds.length - 1,
          `${id}: a tick per other market`,
        );
        const dot = Number(strip.match(/<circle cx="([\d.]+)%"/)?.[1]);
        assert.ok(dot >= 4 && dot <= 96, `${id}: the dot at ${dot}%`);
      }
    }
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
