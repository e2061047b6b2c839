/**
 * How disabled items are dimmed (spec §4: inactive voices, proxies, configurations... are dimmed).
 * 0.8 keeps secondary text above the 4.5:1 contrast of WCAG AA in both themes.
 */
export const DIMMED_OPACITY = 0.8;
