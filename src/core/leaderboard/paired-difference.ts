// Two entries compared task by task: the mean of a − b over the tasks both scored, with a paired
// clustered-bootstrap 95% interval (the pairing removes the tasks' own difficulty from the
// noise). Distinguishable when the interval excludes 0. Pure: no node imports.
import { clusterBootstraps, type BootstrapOptions } from './cluster-bootstrap';

export interface PairedTask {
  task: string;
  cluster: string;
  score: number;
}

export interface PairedDifference {
  meanDiff: number;
  ci95: [number, number];
  distinguishable: boolean;
  /** Tasks both scored. */
  tasks: number;
}

export function pairedDifference(a: readonly PairedTask[], b: readonly PairedTask[], opts: BootstrapOptions): PairedDifference {
  return pairedDifferences([[a, b]], opts)[0];
}

/** pairedDifference of each pair, the same numbers, with the bootstraps of pairs over the same tasks made together (clusterBootstraps). */
export function pairedDifferences(pairs: ReadonlyArray<readonly [readonly PairedTask[], readonly PairedTask[]]>, opts: BootstrapOptions): PairedDifference[] {
  const diffs = pairs.map(([a, b]) => {
    const bByTask = new Map(b.map((t) => [t.task, t.score]));
    return a.filter((t) => bByTask.has(t.task)).map((t) => ({ cluster: t.cluster, values: [t.score - bByTask.get(t.task)!] }));
  });
  const intervals = clusterBootstraps(
    diffs.filter((d) => d.length > 0),
    opts,
  );
  let next = 0;
  return diffs.map((d) => {
    if (d.length === 0) return { meanDiff: 0, ci95: [0, 0], distinguishable: false, tasks: 0 };
    const [ci95] = intervals[next++];
    const meanDiff = d.reduce((s, x) => s + x.values[0], 0) / d.length;
    return { meanDiff, ci95, distinguishable: ci95[0] > 0 || ci95[1] < 0, tasks: d.length };
  });
}
