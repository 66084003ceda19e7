// The forwarder a confined agent step reaches the model gateway through. The step has no network
// of its own (only `lo`), and the gateway's Unix socket is bound into it; this small Python
// program (stdlib only, run with `python3 -I -S`: Python is wherever steps run, unlike node or
// socat) listens on the step's own 127.0.0.1:<port> and relays each connection to that socket,
// byte for byte, both ways, half-closes included, many at once, in one thread (no thread per
// connection counts against the step's process limit).
//
// It forks: the child execs the command, the parent relays. The parent passes on the signals a
// stop sends (TERM, INT, HUP, QUIT, USR1, USR2), and when the command ends it ends at once with
// the command's own status: the same exit code, or killed by the same signal. Nothing of it is
// left: it stops with the command, and if it were killed first, the command is the last process
// of the step's PID namespace or container and goes with it.

/** Where a sandboxed or containerised step sees the gateway's socket. */
export const GATEWAY_SOCKET_IN_STEP = '/run/sweci/gateway.sock';

/** The first line of the program: how a test (or a person with `ps`) finds a forwarder. */
export const FORWARDER_MARK = 'sweci-gateway-forwarder';

/** Exit code when the forwarder itself cannot start (bad arguments, the port taken): the command never ran. */
export const FORWARDER_FAILED = 125;

// No backslashes, no `${`, no backticks below: the text is the Python program as it runs.
export const FORWARDER_SOURCE = `# ${FORWARDER_MARK}: relays 127.0.0.1:<port> to a Unix socket while a command runs
import errno, os, selectors, signal, socket, sys

CHUNK = 65536
CAP = 262144
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)
said = set()


def say(text):
    if text in said:
        return
    said.add(text)
    try:
        os.write(2, ('sweci gateway forwarder: ' + text + chr(10)).encode('utf-8', 'replace'))
    except OSError:
        pass


class Link:
    # One accepted connection and its upstream. Direction i reads socks[i] and writes socks[1 - i].
    def __init__(self, sel, client, upstream):
        self.sel = sel
        self.socks = (client, upstream)
        self.bufs = (bytearray(), bytearray())
        self.eof = [False, False]
        self.done = [False, False]
        self.masks = [0, 0]
        self.closed = False
        self.update()

    def close(self):
        if self.closed:
            return
        self.closed = True
        for j in (0, 1):
            if self.masks[j]:
                self.sel.unregister(self.socks[j])
                self.masks[j] = 0
            try:
                self.socks[j].close()
            except OSError:
                pass

    def flush(self, j):
        # Writes what is waiting for socks[j]; False when the link is broken.
        buf = self.bufs[1 - j]
        while buf:
            try:
                n = self.socks[j].send(buf)
            except (BlockingIOError, InterruptedError):
                return True
            except OSError:
                return False
            del buf[:n]
        return True

    def event(self, j, mask):
        if mask & selectors.EVENT_READ and not self.eof[j]:
            try:
                data = self.socks[j].recv(CHUNK)
            except (BlockingIOError, InterruptedError):
                data = None
            except OSError:
                return self.close()
            if data:
                self.bufs[j].extend(data)
                if not self.flush(1 - j):
                    return self.close()
            elif data is not None:
                self.eof[j] = True
        if mask & selectors.EVENT_WRITE and not self.flush(j):
            return self.close()
        for i in (0, 1):
            if self.eof[i] and not self.bufs[i] and not self.done[i]:
                self.done[i] = True
                try:
                    self.socks[1 - i].shutdown(socket.SHUT_WR)
                except OSError:
                    pass
        if self.done[0] and self.done[1]:
            return self.close()
        self.update()

    def update(self):
        for j in (0, 1):
            want = 0
            if not self.eof[j] and len(self.bufs[j]) < CAP:
                want |= selectors.EVENT_READ
            if self.bufs[1 - j]:
                want |= selectors.EVENT_WRITE
            if want == self.masks[j]:
                continue
            if not want:
                self.sel.unregister(self.socks[j])
            elif not self.masks[j]:
                self.sel.register(self.socks[j], want, (self, j))
            else:
                self.sel.modify(self.socks[j], want, (self, j))
            self.masks[j] = want


def accept(sel, listener, path):
    while True:
        try:
            client, _ = listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        except OSError as e:
            say('cannot accept a connection: ' + str(e))
            return
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.settimeout(10)
            upstream.connect(path)
        except OSError as e:
            say('cannot reach the gateway at ' + path + ': ' + (e.strerror or str(e)))
            upstream.close()
            client.close()
            continue
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        client.setblocking(False)
        upstream.setblocking(False)
        Link(sel, client, upstream)


def end_as(status):
    # Ends this process as the command ended: its exit code, or the same signal.
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
            os.kill(os.getpid(), sig)
        except (OSError, ValueError):
            pass
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def main():
    if len(sys.argv) < 5 or sys.argv[3] != '--':
        say('usage: <socket> <port> -- <command> [args...]')
        os._exit(${FORWARDER_FAILED})
    path, command = sys.argv[1], sys.argv[4:]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(('127.0.0.1', int(sys.argv[2])))
        listener.listen(128)
    except (OSError, ValueError) as e:
        say('cannot listen on 127.0.0.1:' + sys.argv[2] + ': ' + str(e))
        os._exit(${FORWARDER_FAILED})
    listener.setblocking(False)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    # Held until the child is known, so no signal meant for the command is lost.
    held = set(FORWARDED) | {signal.SIGCHLD}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    child = [0]

    def forward(signum, frame):
        if child[0]:
            try:
                os.kill(child[0], signum)
            except OSError:
                pass

    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    for s in FORWARDED:
        signal.signal(s, forward)
    pid = os.fork()
    if pid == 0:
        try:
            signal.set_wakeup_fd(-1)
            # Python ignores SIGPIPE and SIGXFSZ; an exec would keep them ignored.
            for s in list(held) + [signal.SIGPIPE, signal.SIGXFSZ]:
                signal.signal(s, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
            os.execvp(command[0], command)
        except OSError as e:
            if e.errno == errno.ENOENT:
                say('exec: "' + command[0] + '": executable file not found in PATH')
                os._exit(127)
            say('cannot run ' + command[0] + ': ' + (e.strerror or str(e)))
            os._exit(126)
        finally:
            os._exit(126)
    child[0] = pid
    signal.pthread_sigmask(signal.SIG_SETMASK, before)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, None)
    sel.register(wake_r, selectors.EVENT_READ, None)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            end_as(status)
        for key, mask in sel.select(1.0):
            if key.fileobj is listener:
                accept(sel, listener, path)
            elif key.fileobj == wake_r:
                try:
                    os.read(wake_r, 512)
                except OSError:
                    pass
            else:
                link, j = key.data
                link.event(j, mask)


main()
`;

/**
 * The argv that runs `command` with the forwarder around it: `python` (the interpreter the step
 * sees), listening on the step's 127.0.0.1:`port`, relaying to `socketInStep`. Append the
 * command and its arguments.
 */
export function gatewayForwarderPrefix(python: string, socketInStep: string, port: number): string[] {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`The gateway's port inside a step must be 1–65535, not ${port}.`);
  return [python, '-I', '-S', '-c', FORWARDER_SOURCE, socketInStep, String(port), '--'];
}

/** `command args…` run with the forwarder around it (see gatewayForwarderPrefix). */
export function withGatewayForwarder(
  python: string,
  socketInStep: string,
  port: number,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  const [program, ...rest] = gatewayForwarderPrefix(python, socketInStep, port);
  return { command: program, args: [...rest, command, ...args] };
}
