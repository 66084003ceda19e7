// Which lane each unit test file runs in, and in what order (the plan of test/run-unit-tests.ts,
// kept apart so a test can check it). The pool runs POOL_CONCURRENCY files at a time. Beside it,
// one at a time, the serial lane runs every file that uses the machine's shared Docker engine:
// they share its demo image (docker-task removes the image to load it again, which would pull it
// from under another file's containers). Once its own files are done it takes the pool's
// (test/run-unit-tests.ts). A file is a shared-engine file when it reaches
// test/unit/helpers/docker through its own requires, so a new one lands there without a list to
// keep. A file that starts an engine of its own (helpers/spare-engine) or a Podman store in its
// own folder, and only reads the demo image's archive, shares nothing of that engine: it runs in
// the pool. The solo lane runs last, alone: the sandbox and language-server fuzz files measure
// kills and answer times, which a loaded machine would make flaky, and docker-exhaustion
// exhausts processes and memory on purpose, which would starve a file beside it. Each lane
// starts its longest files first (by UNIT_FILE_SECONDS), so no long file starts near the end and
// holds the tier up alone.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { UNIT_FILE_SECONDS } from './unit-file-seconds';

/**
 * Files the pool runs at once: three, with the serial lane's one beside them, on 2 cores. The
 * files wait on Docker, Slurm and child processes more than they compute (with two, a quiet tier
 * used about half of the machine's CPU time), and the tier lasts about its files' work divided
 * by the runners.
 */
export const POOL_CONCURRENCY = 3;

/** What a file not in UNIT_FILE_SECONDS is taken to last: more than most, so a new file starts early. */
export const DEFAULT_SECONDS = 30;

/** Files that must run one at a time beside the pool for a reason other than Docker (a fixed port, say). */
const SERIAL_TOO: RegExp[] = [];
// docker-exhaustion exhausts the machine on purpose (600 forked sleepers, a 10 GiB allocation):
// beside it a fork elsewhere can fail ("sh: 1: Cannot fork" in real-agents' qwen replay, twice,
// each time while it ran, when these tests were part of docker-least-privilege), so it runs
// alone too. loop-exhaustion does the same through the sandbox: in the pool, its allocation
// once took longer than its step's 120 s to reach 8 GiB (the suite held the machine's memory).
// The rest of the least-privilege tests exhaust nothing.
const SOLO = [/^runtime\/sandbox\./, /^server\/requirement-server-fuzz\./, /^runtime\/docker-exhaustion\./, /^loop\/loop-exhaustion\./];
const DOCKER_HELPER = 'unit/helpers/docker.js';

export interface LanePlan {
  name: 'pool' | 'serial lane' | 'solo lane';
  concurrency: number;
  /** Paths below out/test/unit, longest expected first. */
  files: string[];
}

export function estimateSeconds(file: string): number {
  return UNIT_FILE_SECONDS[file] ?? DEFAULT_SECONDS;
}

/**
 * Whether `file` (absolute, compiled) reaches test/unit/helpers/docker.js through relative
 * requires inside `testRoot` (out/test); a module of src/ does not count (the product may
 * name Docker without a test starting a container).
 */
export function usesDocker(file: string, testRoot: string): boolean {
  const seen = new Set<string>();
  const visit = (at: string): boolean => {
    if (seen.has(at) || !at.startsWith(testRoot + path.sep) || !existsSync(at)) return false;
    seen.add(at);
    if (path.relative(testRoot, at).split(path.sep).join('/') === DOCKER_HELPER) return true;
    const text = readFileSync(at, 'utf8');
    for (const m of text.matchAll(/require\((["'])(\.{1,2}\/[^"']+)\1\)/g)) {
      const target = path.resolve(path.dirname(at), m[2]);
      if (visit(target.endsWith('.js') ? target : `${target}.js`)) return true;
    }
    return false;
  };
  return visit(file);
}

const longestFirst = (files: string[], seconds: (file: string) => number) => [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b));

/** The three lanes for `files` (paths below out/test/unit); every file is in exactly one. */
export function planLanes(files: string[], isDocker: (file: string) => boolean, seconds = estimateSeconds): LanePlan[] {
  const solo = files.filter((f) => SOLO.some((re) => re.test(f)));
  const serial = files.filter((f) => !solo.includes(f) && (isDocker(f) || SERIAL_TOO.some((re) => re.test(f))));
  const pool = files.filter((f) => !solo.includes(f) && !serial.includes(f));
  return [
    { name: 'pool', concurrency: POOL_CONCURRENCY, files: longestFirst(pool, seconds) },
    { name: 'serial lane', concurrency: 1, files: longestFirst(serial, seconds) },
    { name: 'solo lane', concurrency: 1, files: longestFirst(solo, seconds) },
  ];
}

/** Each file's start and end (seconds) when `concurrency` runners take the files in order. */
export function simulateLane(lane: LanePlan, seconds = estimateSeconds): Array<{ file: string; start: number; end: number }> {
  const free = Array.from({ length: lane.concurrency }, () => 0);
  return lane.files.map((file) => {
    const slot = free.indexOf(Math.min(...free));
    const start = free[slot];
    free[slot] = start + seconds(file);
    return { file, start, end: free[slot] };
  });
}

/** How long a lane is expected to take: when its last file ends. */
export function laneSeconds(lane: LanePlan, seconds = estimateSeconds): number {
  return Math.max(0, ...simulateLane(lane, seconds).map((r) => r.end));
}
