// --repair-agent (beyond the paper): when the rule-based build and repairs give up, an agent sees
// the Dockerfile and the failing log and may change only the Dockerfile, for a few tries. It runs
// through the product's agent driver exactly as a loop step does: confined (the sandbox's
// allow-list or a container, its network the gateway to its model or none), in a work folder of
// its own holding the three files, with a private home. Nothing it writes is trusted: only the
// Dockerfile is read back (a regular file, bounded, with a FROM), our label appended, and built
// and collected like any environment; the build context holds only requirements.txt and the
// wheel folder, so a COPY of anything else fails.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AgentDriver } from '../agents/agent-driver';
import type { DockerConnection } from '../runtime/docker/docker-connection';
import { AbortError, throwIfAborted } from '../util/errors';
import { writeFileAtomic } from '../util/fs-atomic';
import { userCacheDir } from '../util/user-cache';
import {
  build,
  collect,
  CURATION_KEY_LABEL,
  decisiveLines,
  imageExists,
  imageTag,
  requirementsText,
  type AgentRepairHook,
  type AgentRepairTry,
  type EnvironmentRequest,
  type EnvironmentResult,
} from './env-image';
import { missingModules } from './module-providers';

export const DEFAULT_AGENT_REPAIRS = 2;
/** A Dockerfile longer than this is not read back (a hostile agent could write gigabytes). */
const MAX_DOCKERFILE_BYTES = 64 * 1024;
/** What the agent is shown of a log: its end, where the failure is. */
const MAX_LOG_BYTES = 200_000;

export interface AgentRepairSetup {
  driver: AgentDriver;
  /** The harness's API keys (the driver gives the agent only what key-rule.ts allows, or a gateway token). */
  keys: Record<string, string>;
  /** sweci.<role>.env of the agent's settings. */
  env: Record<string, string>;
  /** Tries in all, per environment (--agent-repairs). */
  tries: number;
  timeoutMs: number;
  /** What the agent must not see even through a readable path the user gave: the repository, the curation folder. */
  hide: string[];
}

type Failed = Extract<EnvironmentResult, { outcome: 'failed' }>;

function promptText(dockerfile: string, requirements: string, log: string, failed: Failed): string {
  return [
    '# Role: environment repair',
    '',
    "A Docker environment for a Python project's tests did not build, or its tests could not be collected in it.",
    `Why: ${failed.reason}`,
    '',
    `Edit the Dockerfile \`${dockerfile}\` so that the image builds and \`python -m pytest tests --collect-only\` collects the project's tests in it (the code is mounted at /app/code and run with PYTHONPATH=src:.).`,
    `The requirements it installs: \`${requirements}\` (read-only; the build context holds only it and the wheel folder).`,
    `The failing log: \`${log}\` (read-only).`,
    '',
    'Change only the Dockerfile; nothing else you write is kept. Keep `python` on PATH with pytest installed.',
    '',
  ].join('\n');
}

/** The agent's Dockerfile with our label in place of any it wrote, and the key its image is tagged with. */
function withOurLabel(text: string, from: string): { dockerfile: string; key: string } {
  const own = text
    .split(/\r?\n/)
    .filter((l) => !l.includes(CURATION_KEY_LABEL))
    .join('\n')
    .trimEnd();
  const key = createHash('sha256')
    .update(JSON.stringify({ from, dockerfile: own }))
    .digest('hex')
    .slice(0, 16);
  return { dockerfile: `${own}\nLABEL ${CURATION_KEY_LABEL}="${key}"\n`, key };
}

/** The Dockerfile the agent left, or why it cannot be used. */
async function readBack(file: string): Promise<{ text: string } | { refused: string }> {
  let stat;
  try {
    stat = await fs.lstat(file);
  } catch {
    return { refused: 'the agent left no Dockerfile' };
  }
  if (!stat.isFile()) return { refused: 'the Dockerfile the agent left is not a regular file' };
  if (stat.size > MAX_DOCKERFILE_BYTES) return { refused: `the Dockerfile the agent left has ${stat.size} bytes, over ${MAX_DOCKERFILE_BYTES}` };
  const text = await fs.readFile(file, 'utf8');
  if (!/^\s*FROM\s+\S/im.test(text)) return { refused: 'the Dockerfile the agent left has no FROM line' };
  return { text };
}

/**
 * The hook env-image calls when the rules give up. Per failing environment key, the agent gets
 * up to `tries` tries; each sees the Dockerfile and log of the last attempt (its own, after its
 * first). A Dockerfile that worked for one candidate is tried first for the next with the same key.
 */
export function agentRepair(setup: AgentRepairSetup): AgentRepairHook {
  const repaired = new Map<string, string>();
  const gaveUp = new Map<string, EnvironmentResult>();
  return async (conn, req, oracleDir, failed) => {
    // The agent already failed this environment for another candidate: its tries are not paid again.
    const given = gaveUp.get(failed.key);
    if (given) return given;
    const tries: AgentRepairTry[] = [];
    const known = repaired.get(failed.key);
    if (known) {
      const reuse = await buildAndCollect(conn, req, oracleDir, known, failed);
      if (reuse.ok) {
        const shared: AgentRepairTry = {
          try: 0,
          agent: setup.driver.label,
          outcome: 'built',
          image: reuse.image,
          reason: "shared: the Dockerfile an earlier candidate's agent repair made for this environment",
          seconds: 0,
        };
        return { outcome: 'built', image: reuse.image, key: failed.key, repairs: failed.repairs, agentRepairs: [shared] };
      }
    }
    const dir = path.join(req.envDir, failed.key);
    let dockerfile = await fs.readFile(path.join(dir, 'Dockerfile'), 'utf8');
    let log = await lastLog(dir, failed.code);
    let why = failed.reason;
    for (let t = 1; t <= setup.tries; t++) {
      throwIfAborted(req.signal);
      const started = performance.now();
      const seconds = (): number => Math.round((performance.now() - started) / 10) / 100;
      const logFile = path.join(dir, `agent-repair-${t}.log`);
      req.onProgress?.(`agent repair ${t}/${setup.tries} of ${failed.key} (${setup.driver.label})`);
      const back = await runAgent(setup, req, dockerfile, requirementsText(req.plan, failed.repairs), log, { ...failed, reason: why }, t, logFile, oracleDir);
      if ('refused' in back) {
        tries.push({ try: t, agent: setup.driver.label, outcome: 'refused', reason: back.refused, log: logFile, seconds: seconds() });
        why = back.refused;
        continue;
      }
      const result = await buildAndCollect(conn, req, oracleDir, back.text, failed);
      const note = back.ignored.length > 0 ? ` (ignored what it wrote besides the Dockerfile: ${back.ignored.join(', ')})` : '';
      if (result.ok) {
        tries.push({
          try: t,
          agent: setup.driver.label,
          outcome: 'built',
          image: result.image,
          log: logFile,
          seconds: seconds(),
          ...(note ? { reason: note.trim() } : {}),
        });
        repaired.set(failed.key, back.text);
        return { outcome: 'built', image: result.image, key: failed.key, repairs: failed.repairs, agentRepairs: tries };
      }
      tries.push({ try: t, agent: setup.driver.label, outcome: 'failed', reason: result.reason + note, image: result.image, log: logFile, seconds: seconds() });
      dockerfile = back.text;
      log = result.log;
      why = result.reason;
    }
    const last = tries.at(-1);
    const result: EnvironmentResult = {
      ...failed,
      code: 'agent-repair',
      reason: `${failed.reason}; the agent's ${tries.length === 1 ? 'repair' : `${tries.length} repairs`} did not mend it${last?.reason ? ` (last: ${last.reason})` : ''}`,
      agentRepairs: tries,
    };
    gaveUp.set(failed.key, result);
    return result;
  };
}

async function lastLog(dir: string, code: Failed['code']): Promise<string> {
  const names = code === 'build' ? ['build.log'] : ['collect.log', 'build.log'];
  for (const name of names) {
    const text = await fs.readFile(path.join(dir, name), 'utf8').catch(() => undefined);
    if (text !== undefined) return text.slice(-MAX_LOG_BYTES);
  }
  return '';
}

/** One confined try: the work folder made, the agent run, its Dockerfile read back. */
async function runAgent(
  setup: AgentRepairSetup,
  req: EnvironmentRequest,
  dockerfile: string,
  requirements: string,
  log: string,
  failed: Failed,
  t: number,
  logFile: string,
  oracleDir: string,
): Promise<{ text: string; ignored: string[] } | { refused: string }> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-agent-repair-'));
  try {
    const app = path.join(work, 'app');
    const home = path.join(work, 'home');
    await fs.mkdir(app);
    await fs.mkdir(home);
    const files = { dockerfile: path.join(app, 'Dockerfile'), requirements: path.join(app, 'requirements.txt'), log: path.join(app, 'failure.log') };
    await fs.writeFile(files.dockerfile, dockerfile);
    await fs.writeFile(files.requirements, requirements);
    await fs.writeFile(files.log, log);
    const prompt = promptText(files.dockerfile, files.requirements, files.log, failed);
    const promptFile = path.join(work, 'prompt.md');
    await fs.writeFile(promptFile, prompt);
    const result = await setup.driver.run({
      role: 'programmer',
      prompt,
      promptFile,
      cwd: app,
      env: setup.env,
      keys: setup.keys,
      timeoutMs: setup.timeoutMs,
      ...(req.signal ? { signal: req.signal } : {}),
      logFile,
      callsFile: logFile.replace(/\.log$/, '.calls.jsonl'),
      at: { iteration: 1, try: t },
      confine: { hide: [...setup.hide, path.resolve(oracleDir), path.resolve(userCacheDir())] },
      homeDir: home,
      readOnly: [files.requirements, files.log],
    });
    if (result.cancelled || req.signal?.aborted) throw new AbortError();
    const back = await readBack(files.dockerfile);
    if ('refused' in back) return back;
    if (back.text === dockerfile) {
      const said = result.reportedError ?? result.lastWords;
      return { refused: `the agent left the Dockerfile as it was (exit ${result.exitCode}${said ? `: ${said}` : ''})` };
    }
    const ignored = (await fs.readdir(app)).filter((n) => !['Dockerfile', 'requirements.txt', 'failure.log'].includes(n)).sort();
    return { text: back.text, ignored };
  } finally {
    await fs.rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The agent's Dockerfile built (or found by its tag) and the oracle's tests collected in it. */
async function buildAndCollect(
  conn: DockerConnection,
  req: EnvironmentRequest,
  oracleDir: string,
  text: string,
  failed: Failed,
): Promise<{ ok: true; image: string } | { ok: false; reason: string; log: string; image?: string }> {
  const { dockerfile, key } = withOurLabel(text, failed.key);
  const tag = imageTag(req.repoSlug, key);
  const dir = path.join(req.envDir, key);
  await fs.mkdir(dir, { recursive: true });
  await writeFileAtomic(path.join(dir, 'Dockerfile'), dockerfile);
  const requirements = requirementsText(req.plan, failed.repairs);
  await writeFileAtomic(path.join(dir, 'requirements.txt'), requirements);
  if (!(await imageExists(conn, tag))) {
    req.onProgress?.(`building ${tag} (the agent's Dockerfile)`);
    // The agent wrote its steps: they reach no network, unless pip needs an index (README: Finding tasks).
    const built = await build(conn, req, dockerfile, requirements, tag, req.indexUrl ? 'host' : 'none');
    await writeFileAtomic(path.join(dir, 'build.log'), built.log);
    if (!built.ok) return { ok: false, reason: `the agent's Dockerfile did not build: ${decisiveLines(built.log)}`, log: built.log.slice(-MAX_LOG_BYTES) };
  }
  const collected = await collect(conn, tag, oracleDir, req.signal);
  await writeFileAtomic(path.join(dir, 'collect.log'), collected.output);
  const missing = missingModules(collected.output);
  if (missing.length === 0 && (collected.exitCode === 0 || collected.exitCode === 5)) return { ok: true, image: tag };
  const what = missing.length > 0 ? `module ${missing[0]} is missing` : `collecting exited with ${collected.exitCode}`;
  return { ok: false, reason: `in the agent's image, ${what}: ${decisiveLines(collected.output)}`, log: collected.output.slice(-MAX_LOG_BYTES), image: tag };
}
