// A leaderboard record built by code, shaped like the paper's: 17 models from 8 providers and the
// developers' history (18 entries), 100 tasks from 68 repositories, EvoScore at five γ values with
// lines that cross as γ moves, intervals, groups, pairs and a cost frontier worked out from the
// numbers as the core would. For the panel's, the report's and the protocol's tests, and the e2e
// screenshot; it is checked against leaderboardRecordSchema where it is used.
import type { LeaderboardEntry, LeaderboardRecord } from '../../../src/shared/leaderboard-record';

/** The 17 models (label, provider, release date); leaderboard-experiments.ts runs the same. */
export const LEADERBOARD_MODELS: [label: string, provider: string, released: string][] = [
  ['claude-opus-4.5', 'Anthropic', '2025-11-24'],
  ['gpt-5.1', 'OpenAI', '2025-11-12'],
  ['gemini-3-pro', 'Google', '2025-11-18'],
  ['claude-sonnet-4.5', 'Anthropic', '2025-09-29'],
  ['kimi-k2-thinking', 'Moonshot', '2025-11-06'],
  ['gpt-5', 'OpenAI', '2025-08-07'],
  ['glm-4.6', 'Zhipu', '2025-09-30'],
  ['qwen3-coder-480b', 'Qwen', '2025-07-22'],
  ['deepseek-v3.2', 'DeepSeek', '2025-09-29'],
  ['minimax-m2', 'MiniMax', '2025-10-27'],
  ['gemini-2.5-pro', 'Google', '2025-06-17'],
  ['claude-sonnet-4', 'Anthropic', '2025-05-22'],
  ['kimi-k2', 'Moonshot', '2025-07-11'],
  ['deepseek-r1', 'DeepSeek', '2025-01-20'],
  ['qwen3-235b', 'Qwen', '2025-04-29'],
  ['glm-4.5', 'Zhipu', '2025-07-28'],
  ['gpt-4.1', 'OpenAI', '2025-04-14'],
];
export const FIXTURE_GAMMAS = ['0.8', '0.9', '1', '1.1', '1.2'];
export const FIXTURE_REPOSITORIES = 68;

/** 100 task ids from 68 repositories (the first 32 repositories give two tasks each). */
export function fixtureTaskIds(): string[] {
  return Array.from({ length: 100 }, (_, i) => `repo${String(i % FIXTURE_REPOSITORIES).padStart(2, '0')}__task-${String(i).padStart(3, '0')}`);
}
const round = (n: number) => Math.round(n * 1000) / 1000;
const clamp = (n: number) => Math.min(1, Math.max(0, n));

/** The record: `entries` of the 18 (default all), the developers' history last among them. */
export function leaderboardFixture(opts: { entries?: number } = {}): LeaderboardRecord {
  const n = opts.entries ?? 18;
  const tasks = fixtureTaskIds();
  const rows = [
    ...LEADERBOARD_MODELS.map(([label, provider, released]) => ({ label, provider, released, kind: 'agent' as const })),
    { label: 'human-history', provider: null, released: null, kind: 'human-history' as const },
  ].slice(0, n);
  // EvoScore(γ=1) falls down the list; the slope in γ differs, so the lines cross (Figure 5).
  // Steps of uneven size, so some neighbours are told apart (new group) and most are not.
  const STEPS = [0.012, 0.05, 0.015, 0.02, 0.045, 0.01, 0.018, 0.04, 0.012, 0.022, 0.05, 0.015, 0.02, 0.035, 0.01, 0.02];
  const base = rows.map((r, i) => (r.kind === 'human-history' ? 0.52 : 0.64 - STEPS.slice(0, i).reduce((a, b) => a + b, 0)));
  const slope = rows.map((_, i) => [0.09, -0.06, 0.02, -0.11, 0.12, 0.0, -0.03, 0.07, -0.08, 0.05][i % 10]);
  const score = (i: number, g: string) => round(base[i] + slope[i] * (Number(g) - 1));
  // The developers' history has no model calls: no tokens, no price.
  const cost = rows.map((r, i) => (r.kind === 'human-history' ? null : round(2.4 - i * 0.11 + (i % 3) * 0.35)));
  const entries: LeaderboardEntry[] = rows.map((r, i) => {
    const evo = Object.fromEntries(FIXTURE_GAMMAS.map((g) => [g, score(i, g)]));
    const zr = clamp(round(0.78 - i * 0.032 + ((i * 7) % 5) * 0.025));
    return {
      label: r.label,
      provider: r.provider,
      released: r.released,
      kind: r.kind,
      experiments: [{ experiment: `/work/experiments/${r.label}`, run: r.kind === 'human-history' ? 'human-history' : r.label }],
      tasks: tasks.length,
      missing: i === 6 ? [tasks[3], tasks[41]] : [],
      // Spread around the entry's mean, the same way for every build of the fixture.
      taskScores: Object.fromEntries(
        tasks.filter((_, k) => i !== 6 || (k !== 3 && k !== 41)).map((t, k) => [t, clamp(round(evo['1'] + (((k * 37 + i * 11) % 21) - 10) * 0.03))]),
      ),
      evoScore: evo,
      evoScoreCI95: [round(evo['1'] - 0.041), round(evo['1'] + 0.043)],
      solvedRate: clamp(round(0.52 - i * 0.024)),
      solvedCI95: [clamp(round(0.43 - i * 0.024)), clamp(round(0.61 - i * 0.024))],
      zeroRegressionRate: zr,
      zeroRegressionCI95: [clamp(round(zr - 0.08)), clamp(round(zr + 0.08))],
      meanIterations: 20,
      tokensPerTask:
        r.kind === 'human-history'
          ? { input: 0, output: 0, cached: 0, source: 'none' }
          : { input: 1_800_000 - i * 60_000, output: 90_000 - i * 2500, cached: 1_200_000 - i * 40_000, source: 'wire' },
      costPerTask: cost[i],
      wallSecondsPerTask: 1400 + i * 37,
      flaggedTasks: i === 3 ? 2 : 0,
      spread: { betweenRepeats: null, betweenTasks: 0.21 },
      rankMove: 0,
      group: 1,
      onCostFrontier: false,
    };
  });
  // The table's order: best first at γ=1.
  entries.sort((a, b) => b.evoScore['1'] - a.evoScore['1']);
  // Ranks by γ, ties sharing a rank; how far each entry moves from the lowest γ to the highest.
  const ranks = Object.fromEntries(
    FIXTURE_GAMMAS.map((g) => {
      const sorted = [...entries].sort((a, b) => b.evoScore[g] - a.evoScore[g]);
      return [g, sorted.map((e) => ({ label: e.label, rank: 1 + sorted.filter((o) => o.evoScore[g] > e.evoScore[g]).length, evoScore: e.evoScore[g] }))];
    }),
  );
  const rankOf = (g: string, label: string) => ranks[g].find((r) => r.label === label)!.rank;
  for (const e of entries) e.rankMove = rankOf(FIXTURE_GAMMAS[0], e.label) - rankOf(FIXTURE_GAMMAS[FIXTURE_GAMMAS.length - 1], e.label);
  // Pairs in table order; an interval ±0.03 around the difference.
  const pairs: LeaderboardRecord['pairs'] = [];
  for (let a = 0; a < entries.length; a++)
    for (let b = a + 1; b < entries.length; b++) {
      const d = round(entries[a].evoScore['1'] - entries[b].evoScore['1']);
      const ci95: [number, number] = [round(d - 0.03), round(d + 0.03)];
      pairs.push({ a: entries[a].label, b: entries[b].label, meanDiff: d, ci95, distinguishable: ci95[0] > 0 || ci95[1] < 0 });
    }
  entries.forEach((e, i) => {
    if (i === 0) return;
    const above = pairs.find((p) => p.a === entries[i - 1].label && p.b === e.label)!;
    e.group = entries[i - 1].group + (above.distinguishable ? 1 : 0);
  });
  // The frontier: no other entry at least as good and as cheap, and better on one.
  for (const e of entries) {
    const c = e.costPerTask ?? Infinity;
    e.onCostFrontier = !entries.some(
      (o) =>
        o !== e &&
        o.evoScore['1'] >= e.evoScore['1'] &&
        (o.costPerTask ?? Infinity) <= c &&
        (o.evoScore['1'] > e.evoScore['1'] || (o.costPerTask ?? Infinity) < c),
    );
  }
  return {
    schema: 1,
    gammas: FIXTURE_GAMMAS,
    tasksPolicy: 'common',
    tasks,
    maxEpoch: 20,
    bootstrap: { resamples: 10000, seed: 0, clusters: 'repository', repositories: FIXTURE_REPOSITORIES },
    entries,
    ranks,
    pairs,
    notes: entries.some((e) => e.missing.length)
      ? [
          `${entries
            .filter((e) => e.missing.length)
            .map((e) => `${e.label} lacks ${e.missing.length} task(s)`)
            .join('; ')}: ranked on the tasks every entry scored.`,
        ]
      : [],
  };
}
