// Seconds each e2e scenario took in the last measured full tier (2 cores, two lanes, load 15–24
// beside other work), so the tier starts the longest first and its lanes end close together. A
// scenario that copies recorded runs (recordedDemoTask) is listed at its cost with the recording
// made (the first to ask waits for it; the others do not). A scenario missing here gets
// DEFAULT_SECONDS. Refresh it from the tier's per-scenario times when they drift far.
export const E2E_SCENARIO_SECONDS: Readonly<Record<string, number>> = {
  'leaderboard-real': 281,
  sequence: 249,
  chart: 202,
  'pseudo-locale': 132,
  download: 140,
  'next-step': 140,
  transcript: 134,
  sidebar: 135,
  'runs-table': 136,
  'demo-stop': 127,
  'transcript-real-cli': 117,
  'demo-toast': 104,
  'check-agents': 101,
  inspect: 95,
  'inspect-log-viewer': 93,
  'non-passed': 93,
  leaderboard: 87,
  docker: 86,
  'iteration-reload': 85,
  'export-browser': 74,
  requirement: 71,
  batch: 67,
  gateway: 63,
  'requirement-completion': 57,
  'swe-bench': 55,
  untrusted: 50,
  testing: 49,
  iterations: 45,
  curate: 42,
  welcome: 33,
};

export const DEFAULT_SECONDS = 90;

/** `scenarios` with the longest first (by name when two take as long). */
export function longestFirst<T extends { name: string }>(scenarios: readonly T[]): T[] {
  const seconds = (s: T) => E2E_SCENARIO_SECONDS[s.name] ?? DEFAULT_SECONDS;
  return [...scenarios].sort((a, b) => seconds(b) - seconds(a) || a.name.localeCompare(b.name));
}
