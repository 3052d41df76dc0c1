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

/**
 * Charts draw at most this many markets one by one (a dot, a bar, a label each); beyond it a chart summarises them (a
 * band over the middle half) or leaves them to the tables, so a page never grows with the market count beyond a bound.
 */
export const CHART_MARKET_LIMIT = 32;
