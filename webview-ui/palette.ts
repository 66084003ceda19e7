// The chart's colours. In VS Code they come only from the theme's --vscode-* variables (read
// with getComputedStyle, so a theme change is picked up by reading again); an exported report
// has no theme, so it gets a fixed light palette.
import { distinctColours, opaque } from './colour-distance';

export interface Palette {
  foreground: string;
  muted: string;
  grid: string;
  background: string;
  font: string;
  /** The agent runs' colours: the theme's chart colours, each distinct from the others and from historySeries. */
  series: string[];
  historySeries: string;
  regression: string;
  crash: string;
  passed: string;
  failed: string;
  error: string;
  missing: string;
  hoverBackground: string;
  hoverForeground: string;
  hoverBorder: string;
}

const LIGHT: Palette = {
  foreground: '#3b3b3b',
  muted: '#767676',
  grid: '#e5e5e5',
  background: '#ffffff',
  font: 'system-ui, -apple-system, "Segoe UI", sans-serif',
  // Light Modern's yellow (#bf8803) is its orange's near twin: distinctColours leaves it out.
  series: distinctColours(['#1a85ff', '#d18616', '#652d90', '#e51400', '#bf8803'], { taken: ['#388a34'], background: '#ffffff' }),
  historySeries: '#388a34',
  regression: '#e51400',
  crash: '#bf8803',
  passed: '#388a34',
  failed: '#e51400',
  error: '#d18616',
  missing: '#d4d4d4',
  hoverBackground: '#f8f8f8',
  hoverForeground: '#3b3b3b',
  hoverBorder: '#c8c8c8',
};

export function standalonePalette(): Palette {
  return LIGHT;
}

/** Reads the palette from the theme's CSS variables (falling back to the light palette per colour). */
export function themePalette(el: Element = document.body): Palette {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(`--vscode-${name}`).trim() || fallback;
  // Green is the developers' history; red, though also the regression marker, is a run's colour
  // too (a marker's shape tells it apart). Colours the theme makes look alike are left out, and
  // runs past the last colour get a dash (series-style.ts); so are those too near the background.
  // Lines are opaque: a theme's charts.orange is translucent (a pale line on light, a dim one on dark).
  const historySeries = opaque(v('charts-green', LIGHT.historySeries));
  const themed = ['blue', 'orange', 'purple', 'red', 'yellow'].map((c) => v(`charts-${c}`, '')).filter(Boolean);
  return {
    foreground: v('foreground', LIGHT.foreground),
    muted: v('descriptionForeground', LIGHT.muted),
    grid: v('editorWidget-border', v('panel-border', LIGHT.grid)),
    background: v('editor-background', LIGHT.background),
    font: v('font-family', LIGHT.font),
    series: distinctColours(themed.length ? themed : LIGHT.series, { taken: [historySeries], background: v('editor-background', LIGHT.background) }),
    historySeries,
    regression: v('charts-red', LIGHT.regression),
    crash: v('editorWarning-foreground', LIGHT.crash),
    passed: v('testing-iconPassed', LIGHT.passed),
    failed: v('testing-iconFailed', LIGHT.failed),
    // Themes give errored and failed tests the same icon colour; the heatmap must tell them apart.
    error: v('charts-orange', LIGHT.error),
    missing: v('disabledForeground', LIGHT.missing),
    hoverBackground: v('editorHoverWidget-background', LIGHT.hoverBackground),
    hoverForeground: v('editorHoverWidget-foreground', v('foreground', LIGHT.hoverForeground)),
    hoverBorder: v('editorHoverWidget-border', LIGHT.hoverBorder),
  };
}

/** Chart.js tooltip colours and fonts from the palette (both charts' hovers look alike). */
export function tooltipStyle(p: Palette) {
  return {
    backgroundColor: p.hoverBackground,
    titleColor: p.hoverForeground,
    bodyColor: p.hoverForeground,
    borderColor: p.hoverBorder,
    borderWidth: 1,
    titleFont: { family: p.font },
    bodyFont: { family: p.font },
  };
}
