// What the pod's container runs: `sweci run --task-index N` for its completion index, or, when
// results are synced out, a shell script that runs sweci and then the sync whatever sweci's exit.
import { shellQuote } from '../util/shell-quote';
import type { K8sJobOptions } from './k8s-job-options';

/** The variable the pod's completion index is in. */
export const INDEX_VARIABLE = 'JOB_COMPLETION_INDEX';

/** `run` and its flags; `literal` prepares each given word, `index` is the task index's word as is. */
function sweciRunArgs(o: K8sJobOptions, index: string, literal: (word: string) => string): string[] {
  const head = ['run', '--dataset', o.datasetPath, '--experiment', o.experimentPath, '--task-index'];
  const tail = ['--workers', '1', '--runtime', 'local', ...o.runArgs];
  return [...head.map(literal), index, ...tail.map(literal)];
}

export function podCommand(o: K8sJobOptions): { command: string[]; args: string[] } {
  if (o.results.kind === 'volume') {
    // Kubernetes substitutes $(JOB_COMPLETION_INDEX) in args; every other `$` stays literal.
    return { command: ['sweci'], args: sweciRunArgs(o, `$(${INDEX_VARIABLE})`, literalForKubernetes) };
  }
  return { command: ['/bin/sh', '-c'], args: [literalForKubernetes(syncScript(o, o.results.command))] };
}

/**
 * sweci, then the sync command whatever sweci's exit code. A stop (SIGTERM to the shell, which
 * is the container's first process) is passed on to sweci, and the partial results are still
 * synced. The exit code is sweci's, or the sync's when sweci succeeded: results that never left
 * the pod should fail the pod, so that the task is retried.
 */
function syncScript(o: K8sJobOptions, syncCommand: string): string {
  const run = ['sweci', ...sweciRunArgs(o, `"$${INDEX_VARIABLE}"`, shellQuote)].join(' ');
  return [
    // The trap is set before sweci starts: a stop that comes before its pid is known is kept, and
    // passed on as soon as it is (under load sweci could start, and the stop come, before a trap set after it).
    'sweci_pid=',
    'stop_pending=0',
    `trap 'if [ -n "$sweci_pid" ]; then kill -TERM "$sweci_pid" 2>/dev/null; else stop_pending=1; fi' TERM INT`,
    `${run} &`,
    'sweci_pid=$!',
    'if [ "$stop_pending" = 1 ]; then kill -TERM "$sweci_pid" 2>/dev/null; fi',
    'wait "$sweci_pid"',
    'sweci_status=$?',
    // A trapped signal ends `wait` early; wait again for sweci's own exit code.
    'while kill -0 "$sweci_pid" 2>/dev/null; do wait "$sweci_pid"; sweci_status=$?; done',
    // The trap stays: a second stop during the sync does not cut it short (the grace period does).
    '(',
    syncCommand,
    ')',
    'sync_status=$?',
    'if [ "$sweci_status" -ne 0 ]; then exit "$sweci_status"; fi',
    'exit "$sync_status"',
  ].join('\n');
}

/** Kubernetes reads `$(NAME)` in command and args as a variable and `$$` as `$`: keep both literal. */
function literalForKubernetes(s: string): string {
  return s.replace(/\$(?=[$(])/g, '$$$$');
}
