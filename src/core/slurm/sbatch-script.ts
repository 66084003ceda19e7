// The batch script of `sweci slurm`: one job array over the selected tasks. Element i reads
// line i + 1 of the task list beside the script and runs `sweci run` for that one task in the
// shared experiment folder: the engine `sweci run` runs, so a task resumes where it stopped and
// its lock keeps a second element off it.
import { shellQuote } from '../util/shell-quote';
import type { SbatchOptions } from './sbatch-options';

interface SbatchScriptInput {
  jobName: string;
  /** Elements: the lines of the task list. */
  taskCount: number;
  /** The task list, one id per line, array index i on line i + 1 (absolute). */
  tasksFile: string;
  /** Each element's log, `%A_%a.log` in it (absolute). */
  logsDir: string;
  /** Where the job starts (absolute, no spaces): the slurm folder. */
  jobDir: string;
  /** Where sweci runs (absolute): the folder `sweci slurm` ran in, so relative run flags mean the same. */
  workDir: string;
  /** The program words of sweci on the nodes, e.g. [node, /shared/sweci/dist/cli.js]. */
  sweci: readonly string[];
  /** `run` and its flags; `--tasks <the element's task>` follows them. */
  runArgs: readonly string[];
  options: SbatchOptions;
}

export function sbatchScript(o: SbatchScriptInput): string {
  const s = o.options;
  const throttle = s.maxParallel !== undefined ? `%${s.maxParallel}` : '';
  const header = [
    `--job-name=${o.jobName}`,
    `--array=0-${o.taskCount - 1}${throttle}`,
    `--output=${o.logsDir}/%A_%a.log`,
    // A requeued element writes on after its earlier attempts instead of over them.
    '--open-mode=append',
    // B: the shell alone gets it; it passes it on to sweci (below) and then requeues the element.
    `--signal=B:TERM@${s.graceSeconds}`,
    '--requeue',
    `--chdir=${o.jobDir}`,
    '--ntasks=1',
    ...(s.partition !== undefined ? [`--partition=${s.partition}`] : []),
    ...(s.time !== undefined ? [`--time=${s.time.text}`] : []),
    ...(s.cpusPerTask !== undefined ? [`--cpus-per-task=${s.cpusPerTask}`] : []),
    ...(s.mem !== undefined ? [`--mem=${s.mem}`] : []),
    ...(s.account !== undefined ? [`--account=${s.account}`] : []),
    ...s.extra,
  ];
  const run = [...o.sweci, ...o.runArgs].map(shellQuote).join(' ');
  const element = '"${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"';
  return [
    '#!/bin/bash',
    ...header.map((h) => `#SBATCH ${h}`),
    '# Written by `sweci slurm`: one element per line of the task list; `sweci slurm status` shows where each stands.',
    'set -u',
    `tasks_file=${shellQuote(o.tasksFile)}`,
    'task=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" "$tasks_file")',
    'if [ -z "$task" ]; then echo "sweci slurm: no task on line $((SLURM_ARRAY_TASK_ID + 1)) of $tasks_file" >&2; exit 2; fi',
    `echo "sweci slurm: element ${element.slice(1, -1)} runs task $task on $(hostname) (restart \${SLURM_RESTART_COUNT:-0})"`,
    `cd ${shellQuote(o.workDir)} || exit 2`,
    // A time limit's warning, a preemption or scancel: sweci stops its step and records nothing
    // half-done. The trap is set before sweci starts; a stop that comes before its pid is known
    // is passed on as soon as it is.
    'sweci_pid=',
    'stopped=0',
    `trap 'stopped=1; if [ -n "$sweci_pid" ]; then kill -TERM "$sweci_pid" 2>/dev/null; fi' TERM INT`,
    `${run} --tasks "$task" &`,
    'sweci_pid=$!',
    'if [ "$stopped" = 1 ]; then kill -TERM "$sweci_pid" 2>/dev/null; fi',
    // A trapped signal ends `wait` early: wait until sweci is gone, then once more for its exit code.
    'wait "$sweci_pid"',
    'while kill -0 "$sweci_pid" 2>/dev/null; do wait "$sweci_pid"; done',
    'wait "$sweci_pid"',
    'status=$?',
    'trap - TERM INT',
    // Stopped before the task finished while the job still runs: the time limit's warning, which
    // Slurm never requeues by itself. Cancelled or preempted jobs are no longer RUNNING: scancel
    // means stop, and a preemption is requeued by Slurm (--requeue).
    'if [ "$stopped" = 1 ] && [ "$status" -ne 0 ]; then',
    '  state=$(scontrol -o show job "$SLURM_JOB_ID" 2>/dev/null | sed -n \'s/.* JobState=\\([A-Z_]*\\).*/\\1/p\')',
    '  if [ "$state" = RUNNING ]; then',
    `    echo "sweci slurm: task $task stopped unfinished (sweci exited $status): requeueing element ${element.slice(1, -1)}"`,
    `    scontrol requeue ${element}`,
    '  fi',
    'fi',
    'exit "$status"',
    '',
  ].join('\n');
}
