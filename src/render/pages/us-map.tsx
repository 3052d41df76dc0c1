// The home page's map: state outlines from us-atlas (Census cartographic boundaries), one dot per market coloured by its affordability score, drawn at build time as inline SVG.
import { createRequire } from 'node:module';
import { geoAlbersUsa, geoPath, type GeoContext, type GeoPermissibleObjects } from 'd3-geo';
import { scaleThreshold } from 'd3-scale';
import { feature, mesh } from 'topojson-client';
import { presimplify, simplify } from 'topojson-simplify';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Location } from '../../contract/markets.ts';
import { INK, MUTED } from './chart-parts.ts';
import { displayName } from './format.ts';
import { scoreLabel, scoreOf, type ScoreKey } from './scores.ts';
import type { Site } from './site.ts';

/** The score the map colours by: the headline one. */
export const MAP_SCORE: ScoreKey = 'affordability';

/** us-atlas's states-albers-10m is already projected (Albers USA, Alaska and Hawaii inset) into this frame. */
const WIDTH = 975;
const HEIGHT = 610;
/** The projection us-atlas documents for its -albers files, to place the cities in the same frame. */
const projection = geoAlbersUsa().scale(1300).translate([487.5, 305]);

/**
 * Five classes of 20 points, light to dark (ColorBrewer YlGnBu, which readers with the common colour-vision deficiencies
 * tell apart). The light classes are close to the land's grey, so every dot has a dark outline (14:1 against the land)
 * and its score written beside it: the colour never carries the number alone.
 */
export const MAP_CLASSES = [
  { from: 0, to: 19, fill: '#ffffcc' },
  { from: 20, to: 39, fill: '#a1dab4' },
  { from: 40, to: 59, fill: '#41b6c4' },
  { from: 60, to: 79, fill: '#2c7fb8' },
  { from: 80, to: 100, fill: '#253494' },
] as const;
const colour = scaleThreshold<number, string>()
  .domain(MAP_CLASSES.slice(1).map((c) => c.from))
  .range(MAP_CLASSES.map((c) => c.fill));
const LAND = '#e9edf1';
const BORDER = '#ffffff';
const COAST = '#8b96a1';

/** Writes a projected path with integer coordinates, relative moves and no repeated points: a third of geoPath's text. */
function compactPath(object: GeoPermissibleObjects): string {
  let out = '';
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  let drawn = 0;
  const context: GeoContext = {
    beginPath() {},
    moveTo(px: number, py: number) {
      x = startX = Math.round(px);
      y = startY = Math.round(py);
      out += `M${x} ${y}`;
      drawn = 0;
    },
    lineTo(px: number, py: number) {
      const nx = Math.round(px);
      const ny = Math.round(py);
      if (nx === x && ny === y) return;
      const dx = nx - x;
      const dy = ny - y;
      out += `${drawn === 0 ? 'l' : dx < 0 ? '' : ' '}${dx}${dy < 0 ? '' : ' '}${dy}`;
      x = nx;
      y = ny;
      drawn += 1;
    },
    closePath() {
      out += 'z';
      x = startX;
      y = startY;
    },
    arc() {},
  };
  geoPath(null, context)(object);
  return out;
}

interface Outlines {
  land: string;
  borders: string;
}

let outlines: Outlines | undefined;

/**
 * The land and the borders between states, simplified (Visvalingam, areas under 2 square units of the 975 x 610 frame
 * dropped: finer than a pixel at the widths the page has), computed once per process: every build draws the same states.
 */
function stateOutlines(): Outlines {
  if (outlines === undefined) {
    const raw = createRequire(import.meta.url)('us-atlas/states-albers-10m.json') as Topology<{ states: GeometryCollection; nation: GeometryCollection }>;
    const us = simplify(presimplify(structuredClone(raw)), 2) as typeof raw;
    outlines = {
      land: compactPath(feature(us, us.objects.nation)),
      borders: compactPath(mesh(us, us.objects.states, (a, b) => a !== b)),
    };
  }
  return outlines;
}

/** A city's place in the map's frame; undefined outside the projection (Albers USA covers the fifty states). */
export function project(location: Location): [number, number] | undefined {
  const p = projection([location.lon, location.lat]);
  return p === null ? undefined : [p[0], p[1]];
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const overlap = (a: Box, b: Box): number => Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));

interface Dot {
  id: string;
  x: number;
  y: number;
  text: string;
  score: number | undefined;
}

export interface Placed {
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
}

/**
 * The text metrics labels are placed by, generous for the sans-serif fonts a browser picks (DejaVu Sans, measured in
 * Chromium: 0.55-0.6 em a character, bold digits 0.7 em, 1.2 em from ascent to descent): each character of the name
 * 0.62 em, each of the bold score 0.72 em, the line 1.25 em tall, centred on its y (the text's dy is 0.35 em).
 */
export const LABEL_METRICS = { char: 0.62, boldChar: 0.72, height: 1.25 } as const;

/** The box a label takes: its name in regular type, then a space and its score in bold, centred on `at.y`. */
export function labelBox(text: string, at: Placed, fontSize: number): Box {
  const cut = text.lastIndexOf(' ');
  const w = fontSize * (LABEL_METRICS.char * (cut + 1) + LABEL_METRICS.boldChar * (text.length - cut - 1));
  const h = fontSize * LABEL_METRICS.height;
  const x0 = at.anchor === 'start' ? at.x : at.anchor === 'end' ? at.x - w : at.x - w / 2;
  return { x0, y0: at.y - h / 2, x1: x0 + w, y1: at.y + h / 2 };
}

/** How many places a label search may try before it settles for the least overlap: far more than sixteen labels need. */
const SEARCH_LIMIT = 200_000;

/**
 * Puts each label beside its dot so that it meets no other label, no other dot and not the frame's edge, and so that
 * the end of the label nearest its dot is nearer that dot than any other (a reader pairs a label with the nearest dot).
 * Each dot has 36 places in order of preference: right, left, above, below, the four corners beside the dot, and right
 * and left half a line up or down, then the same a step and two steps further out. A branch-and-bound search finds the arrangement whose places are, summed
 * over the labels, the most preferred; only if no arrangement is free of overlaps does each label take the place that
 * overlaps least. Widths come from LABEL_METRICS, since the browser's font is not known at build time.
 */
function placeLabels(dots: readonly Dot[], fontSize: number, radius: number): Map<string, Placed> {
  const h = fontSize * LABEL_METRICS.height;
  const gap = radius + 4;
  const dotBoxes = dots.map((d) => ({ id: d.id, box: { x0: d.x - radius - 1, y0: d.y - radius - 1, x1: d.x + radius + 1, y1: d.y + radius + 1 } }));
  const around = (d: Dot, step: number): Placed[] => {
    const g = gap + step;
    const c = g * 0.7;
    return [
      { x: d.x + g, y: d.y, anchor: 'start' },
      { x: d.x - g, y: d.y, anchor: 'end' },
      { x: d.x, y: d.y - g - h / 2, anchor: 'middle' },
      { x: d.x, y: d.y + g + h / 2, anchor: 'middle' },
      { x: d.x + c, y: d.y - c - h * 0.3, anchor: 'start' },
      { x: d.x + c, y: d.y + c + h * 0.3, anchor: 'start' },
      { x: d.x - c, y: d.y - c - h * 0.3, anchor: 'end' },
      { x: d.x - c, y: d.y + c + h * 0.3, anchor: 'end' },
      { x: d.x + g, y: d.y - h * 0.5, anchor: 'start' },
      { x: d.x + g, y: d.y + h * 0.5, anchor: 'start' },
      { x: d.x - g, y: d.y - h * 0.5, anchor: 'end' },
      { x: d.x - g, y: d.y + h * 0.5, anchor: 'end' },
    ];
  };
  const outside = (b: Box): boolean => b.x0 < 2 || b.y0 < 2 || b.x1 > WIDTH - 2 || b.y1 > HEIGHT - 2;
  interface Option {
    at: Placed;
    box: Box;
    /** Its place in the order of preference. */
    rank: number;
    /** The area of other dots it covers (or of the frame's edge it leaves), and how much nearer another dot is to its end than its own. */
    covers: number;
    near: number;
  }
  const optionsOf = (d: Dot): Option[] =>
    [...around(d, 0), ...around(d, h * 0.5), ...around(d, h)].map((at, rank) => {
      const box = labelBox(d.text, at, fontSize);
      // The end of the label nearest its dot, where a reader looks for the dot it names.
      const end = { x: at.x, y: at.anchor !== 'middle' ? at.y : at.y < d.y ? box.y1 : box.y0 };
      const own = Math.hypot(end.x - d.x, end.y - d.y);
      let covers = outside(box) ? 1e9 : 0;
      let near = 0;
      for (const o of dots) if (o.id !== d.id) near += Math.max(0, own + radius - Math.hypot(end.x - o.x, end.y - o.y));
      for (const o of dotBoxes) if (o.id !== d.id) covers += overlap(box, o.box);
      return { at, box, rank, covers, near };
    });
  const options = new Map(dots.map((d) => [d.id, optionsOf(d)]));
  const free = new Map(dots.map((d) => [d.id, (options.get(d.id) ?? []).filter((o) => o.covers === 0 && o.near === 0)]));
  // The labels with the fewest free places first, then the crowded east.
  const order = [...dots].sort((a, b) => (free.get(a.id)?.length ?? 0) - (free.get(b.id)?.length ?? 0) || b.x - a.x || a.y - b.y);
  // The least the labels from i on can add: each one's most preferred free place.
  const rest = order.map((_, i) => order.slice(i).reduce((sum, d) => sum + Math.min(Infinity, ...(free.get(d.id) ?? []).map((o) => o.rank)), 0));
  const chosen: Option[] = [];
  let best: Option[] | undefined;
  let bestCost = Infinity;
  let steps = 0;
  const search = (i: number, cost: number): void => {
    if (cost + (rest[i] ?? 0) >= bestCost || steps > SEARCH_LIMIT) return;
    const d = order[i];
    if (d === undefined) {
      best = [...chosen];
      bestCost = cost;
      return;
    }
    for (const o of free.get(d.id) ?? []) {
      steps += 1;
      if (chosen.some((c) => overlap(c.box, o.box) > 0)) continue;
      chosen.push(o);
      search(i + 1, cost + o.rank);
      chosen.pop();
    }
  };
  search(0, 0);
  if (best !== undefined) chosen.push(...best);
  else {
    // No arrangement is free of overlaps: each label, in order, takes the place that overlaps least.
    for (const d of order) {
      const cost = (o: Option): number => o.covers + o.near + chosen.reduce((sum, c) => sum + overlap(c.box, o.box), 0);
      const least = (options.get(d.id) ?? []).reduce<Option | undefined>((a, o) => (a === undefined || cost(o) < cost(a) ? o : a), undefined);
      if (least !== undefined) chosen.push(least);
    }
  }
  return new Map(order.flatMap((d, i) => chosen.slice(i, i + 1).map((c) => [d.id, c.at] as const)));
}

/** Label sizes in the map's own units: at about 900 px wide (a desktop) and about 345 px (a phone), each near 13 px on screen. */
const WIDE = { font: 15, radius: 8 };
const NARROW = { font: 33, radius: 15 };
/** The two label sets' sizes (the stylesheet's .map-labels-wide and -narrow text, and the phone's dot radius). */
export const LABEL_SIZES = { wide: WIDE, narrow: NARROW } as const;

function Labels({ dots, size, variant }: { dots: readonly Dot[]; size: { font: number; radius: number }; variant: 'wide' | 'narrow' }) {
  const placed = placeLabels(dots, size.font, size.radius);
  return (
    <g class={`map-labels map-labels-${variant}`}>
      {dots.map((d) => {
        const at = placed.get(d.id);
        if (at === undefined) return null;
        return (
          <text
            key={d.id}
            x={Number(at.x.toFixed(1))}
            y={Number(at.y.toFixed(1))}
            dy="0.35em"
            text-anchor={at.anchor}
            fill={INK}
            stroke="#ffffff"
            stroke-width={variant === 'wide' ? 3 : 6}
            paint-order="stroke"
          >
            {d.text.slice(0, d.text.lastIndexOf(' '))} <tspan class="strong">{d.text.slice(d.text.lastIndexOf(' ') + 1)}</tspan>
          </text>
        );
      })}
    </g>
  );
}

/** The sign before a score that is a bound: ≤ for the most it can be, ≥ for the least. */
const boundSign = (bound: 'upper' | 'lower' | undefined): string => (bound === 'upper' ? '\u2264' : bound === 'lower' ? '\u2265' : '');
const boundWords = (bound: 'upper' | 'lower' | undefined): string => (bound === 'upper' ? ' at most' : bound === 'lower' ? ' at least' : '');

/** The markets on a map of the states, each dot coloured by its affordability score and labelled with its name and score. */
export function MarketMap({ site }: { site: Site }) {
  const { land, borders } = stateOutlines();
  const dots: { wide: Dot; narrow: Dot }[] = site.index.markets.flatMap((m) => {
    const location = site.market(m.id).location;
    const at = location === undefined ? undefined : project(location);
    if (at === undefined) return [];
    const score = scoreOf(m.scores, MAP_SCORE);
    // A score that is a bound (an open-ended input) says which: "≤35" is at most 35.
    const value = score === undefined ? 'n/a' : `${boundSign(m.scoreBounds?.[MAP_SCORE]?.bound)}${score}`;
    const base = { id: m.id, x: at[0], y: at[1], score };
    return [{ wide: { ...base, text: `${displayName(m)} ${value}` }, narrow: { ...base, text: `${m.name} ${value}` } }];
  });
  const listed = [...site.index.markets]
    .map((m) => ({ m, score: scoreOf(m.scores, MAP_SCORE) }))
    .filter(({ m }) => dots.some((d) => d.wide.id === m.id))
    .sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || (a.m.name < b.m.name ? -1 : 1));
  return (
    <svg class="map" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-labelledby="map-title map-desc">
      <title id="map-title">{`Map of the ${dots.length} markets, each coloured by its ${scoreLabel(MAP_SCORE).toLowerCase()} score`}</title>
      <desc id="map-desc">
        {`Scores from 0 to 100, higher is more affordable: ${listed
          .map(({ m, score }) => `${displayName(m)} ${score === undefined ? 'not computed' : `${score}${boundWords(m.scoreBounds?.[MAP_SCORE]?.bound)}`}`)
          .join(', ')}.`}
      </desc>
      <path d={land} fill={LAND} stroke={COAST} stroke-width={1} />
      <path d={borders} fill="none" stroke={BORDER} stroke-width={1.5} stroke-linejoin="round" />
      {dots.map(({ wide: d }) => (
        <circle
          key={d.id}
          class="map-dot"
          cx={Number(d.x.toFixed(1))}
          cy={Number(d.y.toFixed(1))}
          r={WIDE.radius}
          fill={d.score === undefined ? '#ffffff' : colour(d.score)}
          stroke={INK}
          stroke-width={1.5}
          stroke-dasharray={d.score === undefined ? '3 2' : undefined}
        />
      ))}
      <Labels dots={dots.map((d) => d.wide)} size={WIDE} variant="wide" />
      <Labels dots={dots.map((d) => d.narrow)} size={NARROW} variant="narrow" />
    </svg>
  );
}

/** The colour key: each class as a swatch with its range of scores. */
export function MapLegend() {
  return (
    <ul class="legend map-legend">
      {MAP_CLASSES.map((c) => (
        <li key={c.from}>
          <svg width="16" height="16" aria-hidden="true" focusable="false">
            <circle cx="8" cy="8" r="6.5" fill={c.fill} stroke={INK} stroke-width="1.5" />
          </svg>
          {c.from}–{c.to}
        </li>
      ))}
      <li>
        <svg width="16" height="16" aria-hidden="true" focusable="false">
          <circle cx="8" cy="8" r="6.5" fill="#ffffff" stroke={INK} stroke-width="1.5" stroke-dasharray="3 2" />
        </svg>
        not computed (n/a)
      </li>
      <li class="muted">
        <svg width="16" height="16" aria-hidden="true" focusable="false">
          <rect x="1" y="3" width="14" height="10" fill={LAND} stroke={MUTED} stroke-width="1" />
        </svg>
        states (Alaska and Hawaii inset)
      </li>
    </ul>
  );
}
