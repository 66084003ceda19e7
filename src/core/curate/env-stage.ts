// The environment stage over a curation: each candidate mining passed gets the environment of
// its oracle's configuration (env-image.ts). Candidates whose environments have the same key
// share one build; a finished candidate is never built again (its outcome is in curation.jsonl,
// written after each one).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { DockerConnection } from '../runtime/docker/docker-connection';
import { gitRunner } from '../util/git';
import { throwIfAborted } from '../util/errors';
import { exportTree, pruneTopLevel } from '../workspace/upstream';
import type { CandidateRecord, CurationManifest } from './curation-store';
import { dependencySet, isDependencyFile } from './dependency-set';
import {
  buildEnvironment,
  environmentKey,
  imageExists,
  type AgentRepairHook,
  type EnvironmentRequest,
  type EnvironmentResult,
  type PipSource,
  type Repair,
} from './env-image';
import { RecordsWriter, sideBySide } from './side-by-side';
import { DEFAULT_PYTHON, environmentPlan } from './env-plan';
import { BlobReader } from './git-bulk';

export interface EnvStageOptions extends PipSource {
  /** FROM this image for every candidate; default python:<X.Y>-slim by requires-python. */
  baseImage?: string;
  maxRepairs: number;
  /** When the rules give up: the agent's tries at the Dockerfile (--repair-agent, agent-repair.ts). */
  agentRepair?: AgentRepairHook;
  /** Environments built side by side (candidates of one key always go in turn); default 1. */
  workers?: number;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

export const DEFAULT_MAX_REPAIRS = 5;

/** The repository's git folder (a work tree's .git, or a bare clone itself). */
export async function gitDirOf(dir: string): Promise<string> {
  return (await gitRunner(dir).raw(['rev-parse', '--absolute-git-dir'])).trim();
}

/** A name for images and task ids: the repository's folder or URL's last part, lower case. */
export function repoSlug(source: string): string {
  const last = source
    .replace(/[/\\]+$/, '')
    .replace(/\.git$/, '')
    .split(/[/\\:]/)
    .pop();
  return (
    (last ?? 'repo')
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '-')
      .replace(/^[-.]+/, '')
      .slice(0, 60) || 'repo'
  );
}

/** The oracle's code as the harness prepares the target: its tree without `.git*` and a top-level `test`. */
export async function exportOracle(gitDir: string, sha: string, dest: string, signal?: AbortSignal): Promise<void> {
  await exportTree(gitDir, sha, dest, signal);
  await pruneTopLevel(dest, ['test']);
}

async function oracleDependencies(repoDir: string, oracle: string, lockfiles: boolean) {
  const listing = await gitRunner(repoDir).raw(['ls-tree', '-r', '-z', '--name-only', oracle]);
  const files = listing.split('\0').filter((p) => p !== '' && isDependencyFile(p, { lockfiles }));
  const reader = new BlobReader(repoDir);
  try {
    return await dependencySet(files, async (p) => (await reader.read(`${oracle}:${p}`))?.toString('utf8'), { lockfiles });
  } finally {
    reader.close();
  }
}

/** The environment an oracle's configuration asks for, and its key (candidates with one key share an image). */
export async function environmentRequestOf(
  repoDir: string,
  oracle: string,
  lockfiles: boolean,
  options: Omit<EnvStageOptions, 'workers'>,
  slug: string,
  envDir: string,
): Promise<{ request: EnvironmentRequest; key: string }> {
  const plan = environmentPlan(await oracleDependencies(repoDir, oracle, lockfiles));
  const baseImage = options.baseImage ?? `python:${plan.python ?? DEFAULT_PYTHON}-slim`;
  const request: EnvironmentRequest = { ...options, baseImage, plan, repoSlug: slug, envDir };
  return { request, key: await environmentKey(request, []) };
}

/**
 * One candidate's environment outside a curation (the editor's Build Environment and Check
 * Out): the env stage's build, collection and repairs for its oracle, the Dockerfiles kept in
 * `envDir`. The image is shared by tag with a curation of the same repository folder name.
 */
export async function buildCandidateEnvironment(
  conn: DockerConnection,
  repoDir: string,
  oracle: string,
  options: Omit<EnvStageOptions, 'workers'> & { envDir: string; lockfiles?: boolean },
): Promise<EnvironmentResult> {
  const gitDir = await gitDirOf(repoDir);
  const { request } = await environmentRequestOf(repoDir, oracle, options.lockfiles ?? false, options, repoSlug(repoDir), options.envDir);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-candidate-env-'));
  try {
    const oracleDir = path.join(scratch, 'oracle');
    await exportOracle(gitDir, oracle, oracleDir, options.signal);
    return await buildEnvironment(conn, request, oracleDir);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Runs the stage on every candidate waiting after mining (in file order within one environment
 * key); `records` is updated in place and written after each candidate.
 */
export async function runEnvStage(
  conn: DockerConnection,
  out: string,
  repoDir: string,
  manifest: CurationManifest,
  records: CandidateRecord[],
  options: EnvStageOptions,
): Promise<void> {
  const gitDir = await gitDirOf(repoDir);
  const slug = repoSlug(manifest.source);
  // Images are found by their key's tag (a candidate with a built key shares its image); builds
  // that failed, by key, so this run does not build them twice.
  const failedBuilds = new Map<string, string>();
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-curate-env-'));
  const writer = new RecordsWriter(out, records);
  try {
    // Every waiting candidate's key first (its oracle's dependency files, read from git): the
    // candidates of one key go in turn, so the first builds and the others share its image;
    // different keys build side by side (--workers).
    const groups = new Map<string, Array<{ r: CandidateRecord; request: EnvironmentRequest; key: string }>>();
    for (const r of records) {
      if (r.stage !== 'mine' || r.outcome !== 'pending') continue;
      throwIfAborted(options.signal);
      const { request, key } = await environmentRequestOf(repoDir, r.oracle, manifest.options.lockfiles, options, slug, path.join(out, 'env'));
      const group = groups.get(key) ?? [];
      group.push({ r, request, key });
      groups.set(key, group);
    }
    const verified = verifiedImages(records);
    await sideBySide([...groups.values()], options.workers ?? 1, async (group) => {
      for (const { r, request, key } of group) {
        throwIfAborted(options.signal);
        const started = performance.now();
        const seconds = (): number => Math.round((performance.now() - started) / 10) / 100;
        r.envKey = key;
        r.baseImage = request.baseImage;
        // An image another candidate's collection verified: this oracle's own collection is the
        // filter's oracle run (filter-stage.ts sends it back here when that run misses a module).
        const shared = r.collectIn === 'env' ? undefined : verified.get(key);
        if (shared && (await imageExists(conn, shared.image))) {
          options.onProgress?.(`environment of ${r.id}: ${shared.image} (verified by ${shared.id}), its tests collected by the filter's oracle run`);
          r.image = shared.image;
          r.repairs = shared.repairs;
          delete r.agentRepairs;
          r.collectIn = 'filter';
          r.stage = 'env';
          r.outcome = 'pending';
          delete r.reason;
          const note = shared.repairs.length ? `; ${repairNote({ repairs: shared.repairs })}` : '';
          r.stages.env = { outcome: 'passed', at: new Date().toISOString(), seconds: seconds(), reason: `shared: the image of ${shared.id}${note}` };
          await writer.save();
          continue;
        }
        options.onProgress?.(`environment of ${r.id} (FROM ${request.baseImage})`);
        const oracleDir = path.join(scratch, r.id);
        await exportOracle(gitDir, r.oracle, oracleDir, options.signal);
        let result: EnvironmentResult;
        try {
          result = await buildEnvironment(conn, request, oracleDir, failedBuilds);
        } finally {
          await fs.rm(oracleDir, { recursive: true, force: true });
        }
        const at = new Date().toISOString();
        r.repairs = result.repairs;
        if (result.agentRepairs) r.agentRepairs = result.agentRepairs;
        else delete r.agentRepairs;
        delete r.collectIn;
        r.stage = 'env';
        if (result.outcome === 'built') {
          r.image = result.image;
          r.outcome = 'pending';
          delete r.reason;
          r.stages.env = {
            outcome: 'passed',
            at,
            seconds: seconds(),
            ...(result.repairs.length || result.agentRepairs?.length ? { reason: repairNote(result) } : {}),
          };
          if (!result.agentRepairs?.length && !verified.has(key)) verified.set(key, { id: r.id, image: result.image, repairs: result.repairs });
        } else {
          delete r.image;
          r.outcome = 'dropped';
          r.reason = result.reason;
          r.stages.env = { outcome: 'dropped', code: result.code, reason: result.reason, at, seconds: seconds() };
        }
        await writer.save();
      }
    });
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Per environment key, an image a candidate's own collection (with the rules' repairs only)
 * verified, in this run or an earlier one: the key's other candidates share it.
 */
function verifiedImages(records: readonly CandidateRecord[]): Map<string, SharedImage> {
  const verified = new Map<string, SharedImage>();
  for (const r of records) {
    if (!r.envKey || !r.image || r.stages.env?.outcome !== 'passed' || r.collectIn === 'filter' || r.agentRepairs?.length) continue;
    if (!verified.has(r.envKey)) verified.set(r.envKey, { id: r.id, image: r.image, repairs: r.repairs ?? [] });
  }
  return verified;
}

interface SharedImage {
  /** The candidate whose collection verified it. */
  id: string;
  image: string;
  repairs: Repair[];
}

function repairNote(result: Pick<EnvironmentResult, 'repairs' | 'agentRepairs'>): string {
  const rules = result.repairs.map((x) => `${x.module} → ${x.distribution} (${x.via})`);
  const agent = result.agentRepairs
    ?.filter((a) => a.outcome === 'built')
    .map((a) => `the Dockerfile by ${a.agent}${a.try > 0 ? ` (try ${a.try})` : ' (shared)'}`);
  return `repaired: ${[...rules, ...(agent ?? [])].join('; ')}`;
}
