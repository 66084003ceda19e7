// The chart's colours. In VS Code they come only from the theme's --vscode-* variables (read
// with getComputedStyle, so a theme change is picked up by reading again); an exported report
// has no theme, so it gets a fixed light palette.

export interface Palette {
  foreground: string;
  muted: string;
  grid: string;
  background: string;
  font: string;
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
  series: ['#1a85ff', '#bc3fbc', '#d18616', '#bf8803', '#388a34'],
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
  return {
    foreground: v('foreground', LIGHT.foreground),
    muted: v('descriptionForeground', LIGHT.muted),
    grid: v('editorWidget-border', v('panel-border', LIGHT.grid)),
    background: v('editor-background', LIGHT.background),
    font: v('font-family', LIGHT.font),
    series: [
      v('charts-blue', LIGHT.series[0]),
      v('charts-purple', LIGHT.series[1]),
      v('charts-orange', LIGHT.series[2]),
      v('charts-yellow', LIGHT.series[3]),
      v('charts-foreground', LIGHT.series[4]),
    ],
    historySeries: v('charts-green', LIGHT.historySeries),
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
