// How the CLI stops when asked to. The first SIGINT, SIGTERM or SIGHUP aborts: running steps stop,
// containers are removed, nothing half-done is recorded. A job runner often asks more than once:
// Slurm's scancel signals every process of the job, and the batch script's trap passes the same
// stop on to us again. A later SIGTERM or SIGHUP is therefore only noted; were it left to Node's
// default, it would kill us in the middle of that cleanup. A second SIGINT is a person pressing
// Ctrl-C again: that one exits at once, saying what it leaves.

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Aborts `abort` on the first stop signal; see above for the ones after it. */
export function stopOnSignals(abort: AbortController, write: (text: string) => void = (t) => process.stderr.write(t)): void {
  let stopping = false;
  for (const signal of SIGNALS) {
    process.on(signal, () => {
      if (!stopping) {
        stopping = true;
        write(`\n${signal}: stopping (running steps are stopped; nothing half-done is recorded)…\n`);
        abort.abort();
        return;
      }
      if (signal !== 'SIGINT') {
        write(`${signal}: already stopping\n`);
        return;
      }
      write('SIGINT again: exiting now. Containers of this run may be left; the next run on this machine removes them.\n');
      process.exit(130);
    });
  }
}
