// Starts the harness's short-lived programs (the loop's gits, the sandbox's chowns) from a small
// Python process instead of from this one. On Linux, node starts a child with a full fork(): the
// kernel copies this process's page tables and the thread waits for the child's exec. The cost
// grows with this process's memory (on a 2-core paravirtualized VM: 5 ms at 40 MB, 10 ms at
// 100 MB, 27 ms at 450 MB, which an editor's extension host can reach), every time, on the thread
// that runs the loop. Python's subprocess uses vfork whatever Python's size: a git then costs
// 2-3 ms to start, and this thread only writes one line and reads one back.
//
// The launcher is started once per process, when first used, and stays (it keeps no process
// alive: it ends when this one does, as its input closes). Without a trusted python3, or once the
// launcher has failed, programs are started here directly, with the same results.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';
import { constants as osConstants } from 'node:os';
import { AbortError } from './errors';
import { findTrustedProgram } from './trusted-program';

interface LaunchRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** Written to the program's standard input, which is then closed (closed at once without it). */
  input?: string;
  /** Kills the program (SIGKILL); the promise then rejects with an AbortError. */
  signal?: AbortSignal;
}

/** How the program ended and everything it printed. `code` is null when a signal ended it. */
interface LaunchResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
}

/** The first line of the program: how a person with `ps` (or a test) recognises the launcher. */
const LAUNCHER_MARK = 'sweci-process-launcher';

// No backslashes, no `${`, no backticks below: the text is the Python program as it runs.
// One JSON request per line on stdin: {"id", "file", "args", "cwd", "env", "input"} starts a
// program, {"kill": id} kills one. One JSON reply per line on stdout, {"ready": true} first.
const LAUNCHER_SOURCE = `# ${LAUNCHER_MARK}: starts programs for the SWE-CI harness, one JSON request per line
import base64, json, signal, subprocess, sys, threading

# Ctrl-C in a terminal reaches the whole process group; the harness decides what stops. A handled
# signal (unlike an ignored one) is back to its default in every program started here.
signal.signal(signal.SIGINT, lambda *_: None)
out = sys.stdout.buffer
lock = threading.Lock()
running = {}


def reply(message):
    data = (json.dumps(message) + chr(10)).encode()
    with lock:
        try:
            out.write(data)
            out.flush()
        except OSError:
            pass


def encoded(data):
    return base64.b64encode(data).decode('ascii')


def finish(rid, proc, data):
    stdout, stderr = proc.communicate(data)
    with lock:
        running.pop(rid, None)
    code = proc.returncode
    name = None
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = 'SIG' + str(-code)
        code = None
    reply({'id': rid, 'code': code, 'signal': name, 'stdout': encoded(stdout), 'stderr': encoded(stderr)})


def start(req):
    rid = req['id']
    try:
        proc = subprocess.Popen([req['file']] + req['args'], cwd=req['cwd'], env=req['env'],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except Exception as e:
        reply({'id': rid, 'errno': getattr(e, 'errno', None) or 22, 'message': str(e)})
        return
    with lock:
        running[rid] = proc
    data = req.get('input')
    threading.Thread(target=finish, args=(rid, proc, data.encode() if data is not None else None)).start()


reply({'ready': True})
for line in sys.stdin.buffer:
    req = json.loads(line)
    if 'kill' in req:
        with lock:
            proc = running.get(req['kill'])
        if proc is not None:
            try:
                proc.kill()
            except OSError:
                pass
    else:
        start(req)
`;

interface Pending {
  request: LaunchRequest;
  resolve: (result: LaunchResult) => void;
  reject: (error: Error) => void;
  unlisten?: () => void;
}

interface Reply {
  id?: number;
  ready?: boolean;
  code?: number | null;
  signal?: NodeJS.Signals | null;
  stdout?: string;
  stderr?: string;
  errno?: number;
  message?: string;
}

const ERRNO_NAMES = new Map(Object.entries(osConstants.errno).map(([name, n]) => [n, name]));

/** A spawn failure as node reports one (code ENOENT, syscall `spawn <file>`), from the launcher's errno. */
function spawnError(file: string, errno: number, message: string): NodeJS.ErrnoException {
  const code = ERRNO_NAMES.get(errno) ?? 'UNKNOWN';
  const error: NodeJS.ErrnoException = new Error(`spawn ${file} ${code} (${message})`);
  error.code = code;
  error.errno = -errno;
  error.syscall = `spawn ${file}`;
  error.path = file;
  return error;
}

class Launcher {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, Pending>();
  /** Requests made before the launcher said it was ready: none of them has reached it. */
  private queued: number[] = [];
  private ready = false;
  private failed = false;
  private nextId = 1;
  private partial = '';
  private stderr = '';

  constructor(
    python: string,
    private readonly onFailed: () => void,
  ) {
    // cwd /: no folder of a task (or anything else) is on the program's import path; -I -S: nor
    // is anything from the environment or site-packages. Only the standard library.
    this.child = spawn(python, ['-I', '-S', '-c', LAUNCHER_SOURCE], { cwd: '/', stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin.on('error', () => undefined);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => this.read(text));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-4000)));
    this.child.on('error', (e) => this.fail(e.message));
    this.child.on('close', (code, signal) => this.fail(code !== null ? `it exited with ${code}` : `it was killed by ${signal}`));
    this.holdOpen();
  }

  run(request: LaunchRequest): Promise<LaunchResult> {
    return new Promise((resolve, reject) => {
      if (request.signal?.aborted) return reject(new AbortError());
      const id = this.nextId++;
      const entry: Pending = { request, resolve, reject };
      const signal = request.signal;
      if (signal) {
        const abort = (): void => this.send({ kill: id });
        signal.addEventListener('abort', abort, { once: true });
        entry.unlisten = () => signal.removeEventListener('abort', abort);
      }
      this.pending.set(id, entry);
      this.holdOpen();
      if (this.ready) this.start(id, request);
      else this.queued.push(id);
    });
  }

  private start(id: number, r: LaunchRequest): void {
    this.send({ id, file: r.file, args: r.args, cwd: r.cwd, env: r.env, ...(r.input !== undefined ? { input: r.input } : {}) });
  }

  private send(message: object): void {
    if (!this.failed) this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** This process stays alive while a program it asked for runs, and not because of the launcher. */
  private holdOpen(): void {
    if (this.pending.size > 0) this.child.ref();
    else this.child.unref();
    // A child's pipes are sockets (node types them as plain streams).
    for (const s of [this.child.stdout, this.child.stderr, this.child.stdin] as unknown as Socket[]) {
      if (this.pending.size > 0) s.ref();
      else s.unref();
    }
  }

  private read(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      let reply: Reply;
      try {
        reply = JSON.parse(line) as Reply;
      } catch {
        this.child.kill('SIGKILL');
        return this.fail(`it wrote a line that is not JSON: ${line.slice(0, 200)}`);
      }
      if (reply.ready) {
        this.ready = true;
        for (const id of this.queued) {
          const p = this.pending.get(id);
          if (p) this.start(id, p.request);
        }
        this.queued = [];
      } else if (reply.id !== undefined) this.settle(reply.id, reply);
    }
    this.holdOpen();
  }

  private settle(id: number, reply: Reply): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    p.unlisten?.();
    if (p.request.signal?.aborted) return p.reject(new AbortError());
    if (reply.errno !== undefined) return p.reject(spawnError(p.request.file, reply.errno, reply.message ?? ''));
    p.resolve({
      code: reply.code ?? null,
      signal: reply.signal ?? null,
      stdout: Buffer.from(reply.stdout ?? '', 'base64'),
      stderr: Buffer.from(reply.stderr ?? '', 'base64'),
    });
  }

  /**
   * The launcher is gone. What never reached it is started here instead; what it was running is
   * lost with it (it may have run: running it again could do a thing twice), so it fails.
   */
  private fail(why: string): void {
    if (this.failed) return;
    this.failed = true;
    this.onFailed();
    const detail = this.stderr.trim();
    for (const [id, p] of this.pending) {
      p.unlisten?.();
      if (!this.ready) spawnDirectly(p.request).then(p.resolve, p.reject);
      else
        p.reject(new Error(`The SWE-CI process launcher stopped while it ran ${p.request.file} (${why})${detail ? `: ${detail}` : ''}. Run the step again.`));
      this.pending.delete(id);
    }
    this.child.unref();
    for (const s of [this.child.stdout, this.child.stderr] as unknown as Socket[]) s.unref();
  }
}

let shared: Launcher | 'none' | undefined;

/**
 * The process-wide launcher, started on first use; undefined when there is none to use. Linux
 * only: elsewhere node already starts children without a fork (posix_spawn on macOS), and a
 * macOS `python3` may be the stub that offers to install the developer tools.
 */
function launcher(): Launcher | undefined {
  if (shared === undefined) {
    const python = process.platform === 'linux' ? findTrustedProgram('python3') : undefined;
    shared = python ? new Launcher(python, () => (shared = 'none')) : 'none';
  }
  return shared === 'none' ? undefined : shared;
}

/** Runs a program to its end and collects its output: through the launcher when there is one. */
export function launch(request: LaunchRequest): Promise<LaunchResult> {
  return launcher()?.run(request) ?? spawnDirectly(request);
}

/** The same, started by this process. */
function spawnDirectly(r: LaunchRequest): Promise<LaunchResult> {
  return new Promise((resolve, reject) => {
    if (r.signal?.aborted) return reject(new AbortError());
    const child = spawn(r.file, [...r.args], { cwd: r.cwd, env: r.env, stdio: ['pipe', 'pipe', 'pipe'] });
    // The program may exit before reading it all (an error): that is its error to report, not a pipe's.
    child.stdin.on('error', () => undefined);
    child.stdin.end(r.input);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const abort = (): void => {
      child.kill('SIGKILL');
    };
    r.signal?.addEventListener('abort', abort, { once: true });
    child.on('error', (e) => {
      r.signal?.removeEventListener('abort', abort);
      reject(e);
    });
    child.on('close', (code, signal) => {
      r.signal?.removeEventListener('abort', abort);
      if (r.signal?.aborted) return reject(new AbortError());
      resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err) });
    });
  });
}
