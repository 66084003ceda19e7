// A real Slurm cluster for tests: scripts/slurm-cluster.sh starts one slurmctld and two slurmd
// (n1, n2) on this machine with a munged of their own, everything under one folder, on ports
// picked free here, so two clusters (two test files) never meet. Needs root and Debian's
// slurm-wlm and munge (scripts/setup.sh installs them; the script installs them when missing).
// A cluster a test forgot to stop is stopped when the test process exits.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

export interface SlurmClusterOptions {
  /** slurmctld's port; node i listens on port + i. Default: a free block picked here. */
  port?: number;
  /** Nodes n1..nN (default 2). */
  nodes?: number;
  /** CPUs per node (default 1: one array element per node at a time). */
  cpus?: number;
  /** Seconds before a silent node is DOWN and its jobs requeued (script default 10). */
  slurmdTimeout?: number;
  /** Seconds between SIGTERM and SIGKILL at a time limit (script default 30). */
  killWait?: number;
  /** Job credentials' lifetime; a requeued job waits this + 1 s before it may start (script default 10). */
  credExpire?: number;
  /** Seconds start waits for the nodes (script default 60). */
  startTimeout?: number;
}

export interface SlurmCluster {
  dir: string;
  /** DIR/slurm.conf */
  conf: string;
  /** What sbatch, squeue, scancel, scontrol and sinfo need: spread it into a child's env. */
  env: { SLURM_CONF: string };
  nodes: string[];
  /** The daemons the script started, by name (munged, slurmctld, slurmd-n1, …) as it recorded them. */
  pids(): Record<string, number>;
  /** A lost node: SIGKILL its slurmd and its job steps with everything they started. */
  killNode(name: string): Promise<void>;
  /** Starts the daemons that are not running (a killed node comes back) and waits for the nodes. */
  restart(): Promise<void>;
  /** Cancels the jobs, stops every daemon the script started and waits until they have exited. */
  stop(): Promise<void>;
}

function findScript(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'scripts', 'slurm-cluster.sh');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`scripts/slurm-cluster.sh not found above ${__dirname}`);
  }
}

const SCRIPT = findScript();

function runScript(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', [SCRIPT, ...args], { env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`slurm-cluster.sh ${args.join(' ')} failed (${err.message.split('\n')[0]}):\n${stderr}`));
      else resolve(stdout);
    });
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** A block of `count` free ports below Linux's ephemeral range, from a random start. */
async function freePortBlock(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 12000);
    let free = true;
    for (let p = base; p < base + count && free; p++) free = await portFree(p);
    if (free) return base;
  }
  throw new Error(`no block of ${count} free ports found between 20000 and 32768`);
}

const live = new Set<string>();
process.once('exit', () => {
  // Synchronous, as 'exit' allows: a cluster must not outlive the test that started it.
  for (const dir of live) spawnSync('bash', [SCRIPT, 'stop', dir], { stdio: 'ignore' });
});

export async function startSlurmCluster(dir: string, opts: SlurmClusterOptions = {}): Promise<SlurmCluster> {
  const nodes = opts.nodes ?? 2;
  const settings: Record<string, number | undefined> = {
    SWECI_SLURM_NODES: nodes,
    SWECI_SLURM_CPUS: opts.cpus,
    SWECI_SLURM_SLURMD_TIMEOUT: opts.slurmdTimeout,
    SWECI_SLURM_KILL_WAIT: opts.killWait,
    SWECI_SLURM_CRED_EXPIRE: opts.credExpire,
    SWECI_SLURM_START_TIMEOUT: opts.startTimeout,
  };
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(settings)) if (value !== undefined) env[key] = String(value);
  // Another program may take a port between the check and slurmctld's bind: then pick again.
  for (let attempt = 1; ; attempt++) {
    env.SWECI_SLURM_PORT = String(opts.port ?? (await freePortBlock(nodes + 1)));
    live.add(dir);
    try {
      await runScript(['start', dir], env);
      break;
    } catch (err) {
      await runScript(['stop', dir], env).catch(() => undefined);
      live.delete(dir);
      if (opts.port !== undefined || attempt >= 3 || !/ports in use|Address already in use/.test((err as Error).message)) throw err;
    }
  }
  const conf = path.join(dir, 'slurm.conf');
  return {
    dir,
    conf,
    env: { SLURM_CONF: conf },
    nodes: Array.from({ length: nodes }, (_, i) => `n${i + 1}`),
    pids: () => {
      const out: Record<string, number> = {};
      const pidsDir = path.join(dir, 'pids');
      if (!existsSync(pidsDir)) return out;
      for (const name of readdirSync(pidsDir)) out[name] = Number(readFileSync(path.join(pidsDir, name), 'utf8').trim());
      return out;
    },
    killNode: async (name) => {
      await runScript(['kill-node', dir, name], env);
    },
    restart: async () => {
      await runScript(['start', dir], env);
    },
    stop: async () => {
      await runScript(['stop', dir], env);
      live.delete(dir);
    },
  };
}
