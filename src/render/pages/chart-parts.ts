// What every chart shares: how positions are written, the colours (each checked against white), and how many markets a chart draws one by one.

/*
 * Horizontal positions are percentages of the chart's width and vertical ones are pixels, with no
 * viewBox: the SVG stretches to its column while its text keeps its size, so a chart stays
 * readable at 375 px and at 1280 px without a second layout. Row labels sit left of x = 0,
 * in the SVG's CSS left padding (see .chart-* in the stylesheet), so their column keeps a fixed width.
 */
export const pct = (n: number, digits = 3): string => `${Number(n.toFixed(digits))}%`;
export const px = (n: number): number => Number(n.toFixed(2));

/** Text, 16.6:1 on white. */
export const INK = '#1b1f24';
/** Secondary text and rings, 7.6:1 on white. */
export const MUTED = '#4a5560';
/** Grid lines and the strip's line: guides, not information on their own (1.5:1 on white). */
export const GRID = '#c9d1d9';
/** The market a page is about, 7.2:1 on white. */
export const ACCENT = '#0b57a4';
/** Rises and falls of a change, 6.0:1 and 5.3:1 on white. */
export const RISE = '#1d6a8a';
export const FALL = '#a8541a';

/** WCAG 2's relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const channel = (i: number): number => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2's contrast ratio of two #rrggbb colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

/** The colour of text written on a fill: ink or white, whichever stands out more. */
export const textOn = (fill: string): string => (contrast(fill, INK) >= contrast(fill, '#ffffff') ? INK : '#ffffff');

/**
 * Charts draw at most this many markets one by one (a dot, a bar, a label each); beyond it a chart summarises them (a
 * band over the middle half) or leaves them to the tables, so a page never grows with the market count beyond a bound.
 */
export const CHART_MARKET_LIMIT = 32;
