// Two entries compared task by task: the mean of a − b over the tasks both scored, with a paired
// clustered-bootstrap 95% interval (the pairing removes the tasks' own difficulty from the
// noise). Distinguishable when the interval excludes 0. Pure: no node imports.
import { clusterBootstrap, type BootstrapOptions } from './cluster-bootstrap';

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
  const bByTask = new Map(b.map((t) => [t.task, t.score]));
  const diffs = a.filter((t) => bByTask.has(t.task)).map((t) => ({ cluster: t.cluster, values: [t.score - bByTask.get(t.task)!] }));
  if (diffs.length === 0) return { meanDiff: 0, ci95: [0, 0], distinguishable: false, tasks: 0 };
  const [ci95] = clusterBootstrap(diffs, opts);
  const meanDiff = diffs.reduce((s, d) => s + d.values[0], 0) / diffs.length;
  return { meanDiff, ci95, distinguishable: ci95[0] > 0 || ci95[1] < 0, tasks: diffs.length };
}
