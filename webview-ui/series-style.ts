// How each run's line looks: its colour, dash and marker. Agent runs take the palette's distinct
// colours in turn; past the last, the colours come round again with another dash and marker, so
// no two runs are drawn alike. The developers' history keeps its own colour, dashed, with hollow
// squares. The chart, its legend and the runs table's swatches all draw from this. Pure: no DOM.
import type { ChartRunKind } from '../src/shared/chart-types';

/** The Chart.js point styles a run's markers use (regressions, crashes and flags have their own). */
export type RunMarker = 'circle' | 'rect' | 'rectRounded' | 'star';

export interface SeriesStyle {
  colour: string;
  /** Canvas line dash; empty: solid. */
  dash: number[];
  marker: RunMarker;
  /** Markers drawn as outlines (the replay's, readable over an agent's filled ones). */
  hollow: boolean;
}

const AGENT_DASHES: number[][] = [[], [10, 4], [2, 3], [10, 3, 2, 3]];
const AGENT_MARKERS: RunMarker[] = ['circle', 'rectRounded', 'star', 'circle'];
export const HISTORY_DASH = [6, 3];

export function seriesStyles(runs: readonly { kind: ChartRunKind }[], palette: { series: readonly string[]; historySeries: string }): SeriesStyle[] {
  const colours = palette.series.length ? palette.series : [palette.historySeries];
  let agent = 0;
  return runs.map((r) => {
    if (r.kind === 'human-history') return { colour: palette.historySeries, dash: HISTORY_DASH, marker: 'rect', hollow: true };
    const k = agent++;
    const round = Math.floor(k / colours.length);
    return {
      colour: colours[k % colours.length],
      dash: AGENT_DASHES[round % AGENT_DASHES.length],
      marker: AGENT_MARKERS[round % AGENT_MARKERS.length],
      hollow: false,
    };
  });
}
