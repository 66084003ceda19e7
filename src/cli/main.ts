// sweci: the same engine as the extension, headless. `sweci --help` lists the commands;
// `sweci <command> --help` their options.
import { Command, CommanderError } from 'commander';
import { AGENT_PRESETS } from '../core/agents/presets';
import { DEFAULT_GRACE_SECONDS } from '../core/slurm/sbatch-options';
import { UserError } from '../core/util/errors';
import { addPytestOptions, addRuntimeOptions, assertNoOptionLikeValues, UsageError } from './cli-settings';
import { stopOnSignals } from './stop-signals';
import type { AgentsCheckValues } from './commands/agents-command';
import type { DownloadValues, VerifyValues } from './commands/dataset-command';
import type { CompareValues } from './commands/compare-command';
import type { CurateValues } from './commands/curate-command';
import type { ExportInspectValues } from './commands/export-inspect-command';
import type { K8sValues } from './commands/k8s-command';
import type { LeaderboardValues } from './commands/leaderboard-command';
import type { ReportValues } from './commands/report-command';
import { addScoringOptions } from './commands/scoring-options';
import type { RunValues } from './commands/run-command';
import type { SlurmValues } from './commands/slurm-command';
import type { SummarizeValues } from './commands/summarize-command';
import type { TranscriptValues } from './commands/transcript-command';
import type { ImagesValues } from './commands/images-command';
import type { CheckoutValues } from './commands/task-commands';
import type { ExportSweBenchValues, GradeValues } from './commands/swe-bench-command';

/** Each command's module loads when that command runs: `sweci dataset download` does not evaluate Docker's, Slurm's or the agents' code at start-up. */
const commands = {
  agents: () => import('./commands/agents-command.js'),
  dataset: () => import('./commands/dataset-command.js'),
  compare: () => import('./commands/compare-command.js'),
  curate: () => import('./commands/curate-command.js'),
  exportInspect: () => import('./commands/export-inspect-command.js'),
  k8s: () => import('./commands/k8s-command.js'),
  leaderboard: () => import('./commands/leaderboard-command.js'),
  report: () => import('./commands/report-command.js'),
  run: () => import('./commands/run-command.js'),
  slurm: () => import('./commands/slurm-command.js'),
  summarize: () => import('./commands/summarize-command.js'),
  transcript: () => import('./commands/transcript-command.js'),
  images: () => import('./commands/images-command.js'),
  tasks: () => import('./commands/task-commands.js'),
  sweBench: () => import('./commands/swe-bench-command.js'),
};

/** The --architect/--programmer choices, e.g. "claude-code, codex, … or custom". */
const AGENT_CHOICES_TEXT = `${AGENT_PRESETS.join(', ')} or custom`;

/** The options that say what a leaderboard ranks and how, for sweci leaderboard and sweci report --leaderboard. */
function leaderboardOptions(command: Command, when = ''): Command {
  return command
    .option('--file <leaderboard.json>', `the entries (experiment, run, label, provider, released) as one file; experiments sharing a label are repeats${when}`)
    .option('--with-human', `add the upstream developers' replay (human-history) of each dataset where an experiment holds one${when}`)
    .option('--bootstrap <n>', `bootstrap resamples for the 95% intervals (10000)${when}`)
    .option('--seed <s>', `the bootstrap's seed: the same seed gives the same output (0)${when}`)
    .option('--tasks-policy <policy>', `common: only the tasks every entry scored; union: each entry on its own tasks (common)${when}`);
}

/** The flags of `sweci run` (with pytest's and the runtime's): `sweci slurm` takes them too, for its elements. */
function runOptions(command: Command): Command {
  return addRuntimeOptions(
    addPytestOptions(
      command
        .option('--dataset <dir>', 'a SWE-CI dataset folder')
        .option('--sequence <file>', 'instead of a dataset: a SWE-Bench-CL sequence file, its tasks run in order')
        .option('--sequence-id <id>', 'the sequence of the file to run (default: its only one)')
        .option('--repo <dir>', "the clone of the sequence's repository")
        .option('--repos <dir>', 'a folder of clones, by repo name (<name>, <owner>__<name> or <owner>/<name>)')
        .option('--memory', "carry the agents' memory folder (app/memory) from task to task (default: no memory, the paper's baseline)")
        .option('--zero-shot <dir>', 'a sequence: the experiment of its run without --memory, for forward transfer (default: one beside --experiment)')
        .option(
          '--matrix <cells>',
          "a sequence: what the results matrix holds, fraction (the paper's share of each task's tests that pass) or resolved (1 or 0) (fraction)",
        )
        .option('--cl-weights <list>', "a sequence: CL-Score's weights, e.g. ft=0.5,tue=0.1 (forgetting, ft, bwt, aulc: 1; tue: 0; beta: 1)")
        .option('--split <name>', 'the dataset split (default: the first)')
        .option('--tasks <ids>', 'only these task ids, separated by commas')
        .option('--tasks-file <file>', 'only the task ids in this file, one per line (# comments)')
        .option('--task-index <n>', 'only the n-th selected task, from 0 (a Kubernetes pod: $JOB_COMPLETION_INDEX)')
        .option('--experiment <dir>', 'the folder tasks and runs go to (created if missing)')
        .option('--run <name>', "the run each task records into (default: the experiment's, else from the agents)")
        .option('--workers <n>', 'tasks at once (1)')
        .option('--max-iterations <n>', 'iterations per task (20)')
        .option('--architect <agent>', AGENT_CHOICES_TEXT)
        .option('--programmer <agent>', 'as --architect')
        .option('--architect-command <cmd>', 'the custom Architect command line ({promptFile} {model} {cwd} {role})')
        .option('--programmer-command <cmd>', 'the custom Programmer command line')
        .option('--architect-model <name>', "the Architect's model")
        .option('--programmer-model <name>', "the Programmer's model")
        .option('--config <file>', 'settings as JSON with the extension\'s keys, e.g. {"sweci.architect.agent": "codex"}; flags win')
        .option('--base-url <url>', "the model endpoint every preset is pointed at, e.g. http://localhost:8000/v1 (the CLIs' own login when unset)")
        .option('--agents-network <mode>', 'what a confined agent may reach: model-only (its model, through the gateway) or open (model-only)')
        .option('--max-calls-per-try <n>', 'model calls one agent try may make through the gateway (1000; 0: no bound)')
        .option('--max-tokens-per-step <n>', 'tokens all tries of one agent step may spend (0: no bound)')
        .option('--max-calls-bytes-per-try <n>', "bytes one try's calls record may take, and one step's tries together (268435456; 0: no bound)")
        .option('--min-free-disk-mb <n>', 'below this many MB free for the records, no step starts and the run stops: disk nearly full (64; 0: no floor)')
        .option('--call-timeout <seconds>', 'a model call whose upstream sends nothing for this long is ended, and its try (300)')
        .option('--max-cost-per-task <usd>', "dollars one task's run may spend on its model (needs sweci.agents.prices); past it the task is budget-exhausted")
        .option('--max-cost <usd>', "dollars the experiment's run may spend on its model, all tasks together (needs sweci.agents.prices)")
        .option(
          '--replay-from <experiment>',
          "answer every model call from that experiment's recording of the same task, iteration, role and try, calling no model",
        )
        .option(
          '--api-key-env <NAME>',
          "pass this environment variable to agents as a secret; the first is the endpoint's key (default SWECI_API_KEY); may be repeated",
          (v: string, p: string[] = []) => [...p, v],
        )
        .option('--human-history', "also replay each task's upstream commits as the run human-history")
        .option('--history-commits <n>', 'commits the human-history replay runs (20; 0: all)')
        .option('--max-file-mb <MiB>', 'files larger than this are left out of commits (50; 0: no limit)')
        .option('--max-iteration-mb <MiB>', "an iteration's new or changed files together; past it the largest are left out (100; 0: no limit)")
        .option(
          '--evict-images',
          "remove a task's image from Docker or Podman once the task is finished (one SWE-CI loaded, that no container uses): many tasks on a small disk",
        )
        .option(
          '--otlp-endpoint <url>',
          'send OpenTelemetry traces to this OTLP/HTTP endpoint, e.g. http://localhost:4318 (sweci.telemetry.otlpEndpoint; default OTEL_EXPORTER_OTLP_ENDPOINT; off when neither is set)',
        )
        .option('--otel-capture-content', "put the model calls' messages (masked) on the traces (sweci.telemetry.captureContent; off)")
        .option('--json', 'print one JSON event per line instead of the live table')
        .option('--allow-unconfined', 'run even when the agents cannot be confined here (no bubblewrap, --sandbox off); such runs are marked not isolated'),
    ),
    'auto',
  );
}

/** The command line, with each command's action bound to `signal` and its exit code kept in `result`. */
function program(signal: AbortSignal, result: { code: Promise<number> | undefined }): Command {
  const root = new Command('sweci')
    .description('SWE-CI for VS Code, headless: check out SWE-CI tasks, run the CI loop over a dataset, summarise the scores.')
    .exitOverride()
    .enablePositionalOptions()
    .showHelpAfterError('(sweci --help lists the commands; sweci <command> --help their options)')
    .configureOutput({ writeErr: (s) => process.stderr.write(s), writeOut: (s) => process.stdout.write(s) });
  const set = (p: Promise<number>) => {
    result.code = p;
  };

  addRuntimeOptions(
    addPytestOptions(
      root
        .command('checkout')
        .description(
          'check one task out into a folder and run its tests (a dataset task, a base/target pair of a git repository, or a SWE-bench-style instance)',
        )
        .option('--dataset <dir>', 'a SWE-CI dataset folder')
        .option('--split <name>', 'the dataset split (default: the first)')
        .option('--task <id>', 'the task_id to check out (with --dataset), or the instance_id (with --instances)')
        .option('--instances <file>', 'a SWE-bench-style instances file (.json or .jsonl); its clone is --repo, or found by name in --repos')
        .option('--repos <dir>', 'a folder of clones, by repo name (<name>, <owner>__<name> or <owner>/<name>)')
        .option('--repo <dir>', "a git repository (instead of a dataset), or the clone of an instance's repository")
        .option('--base <ref>', 'the base commit of the git pair')
        .option('--target <ref>', 'the target commit of the git pair')
        .option('--into <dir>', 'the folder to create the task in')
        .option('--oracle <dir>', 'where the oracle is kept (default ~/.cache/swe-ci/oracles/<task id>)'),
    ),
    'auto',
  ).action((values: CheckoutValues) => set(commands.tasks().then((c) => c.withEnvironments(signal, (ctx) => c.checkoutCommand(values, ctx)))));

  addRuntimeOptions(
    addPytestOptions(root.command('test').argument('<task-dir>').description('re-run pytest where the task was checked out and regenerate app/non-passed')),
    'what the task was checked out with',
  ).action((dir: string, values: Record<string, unknown>) =>
    set(commands.tasks().then((c) => c.withEnvironments(signal, (ctx) => c.testCommand(dir, values, ctx)))),
  );

  root
    .command('status')
    .argument('<task-dir>')
    .description('print the non-passed tests of a task folder')
    .action((dir: string) => set(commands.tasks().then((c) => c.statusCommand(dir))));

  runOptions(
    root.command('run').description('run the benchmark: check out each task into the experiment folder and run its loop; run it again to continue'),
  ).action((values: RunValues) => set(commands.run().then((c) => c.runCommand(values, signal))));

  addScoringOptions(
    root
      .command('summarize')
      .argument('<experiment-dir>')
      .description("the reference's table: per task EvoScore, solved and zero regression, with their averages")
      .option('--gamma <list>', 'more γ values for EvoScore, e.g. 0.8,1.2 (γ = 1 is always shown)')
      .option('--format <format>', 'table, markdown, csv or json (table)')
      .option('--run <name>', 'only this run (default: every run, grouped by name)')
      .option('--max-epoch <n>', "N, the iterations scores are padded to (default: the experiment's maximum)")
      .option('--zero-shot <dir>', 'a sequence: the experiment of its run without --memory, for forward transfer (default: one beside it)')
      .option('--cl-weights <list>', "a sequence: CL-Score's weights, e.g. ft=0.5,tue=0.1 (forgetting, ft, bwt, aulc: 1; tue: 0; beta: 1)"),
  ).action((dir: string, values: SummarizeValues) => set(commands.summarize().then((c) => c.summarizeCommand(dir, values))));

  leaderboardOptions(
    addScoringOptions(
      root
        .command('report')
        .argument('[dirs...]', 'an experiment folder, or one task folder; with --leaderboard, the experiments to rank (experiment#run for another run)')
        .description("self-contained HTML: the extension's report for each task, and an index with the summary tables; or, with --leaderboard, the leaderboard")
        .option('-o, --out <dir>', "the folder to write to (default: a new folder in the experiment's or task's .sweci/reports/)")
        .option(
          '--leaderboard',
          'write leaderboard.html (the table and the three figures) with leaderboard.json and leaderboard.csv, ranking the experiments given',
        )
        .option('--gamma <list>', 'more γ values for the summary tables, e.g. 0.8,1.2 (with --leaderboard: its γ values, as sweci leaderboard takes them)')
        .option('--max-epoch <n>', "N, the iterations scores are padded to (default: the experiment's maximum)"),
    ),
    ' (with --leaderboard)',
  ).action((dirs: string[], values: ReportValues) => set(commands.report().then((c) => c.reportCommand(dirs, values))));

  const exporting = root
    .command('export')
    .description("an experiment's results in the files other evaluation tools read: Inspect logs, SWE-bench's harness files");
  exporting
    .command('swe-bench')
    .argument('<experiment-dir>', 'an experiment of SWE-bench-style instances (sweci run --sequence, or instances)')
    .description(
      "SWE-bench's harness files for each instance whose run finished: predictions.jsonl, logs/run_evaluation/<run-id>/<model>/<instance_id>/report.json and the run summary <model>.<run-id>.json",
    )
    .option('--run <name>', "the run to export (default: the experiment's)")
    .option('-o, --out <dir>', 'a new or empty folder to write to (written whole or not at all)')
    .option('--model <name>', "model_name_or_path of every prediction (default: the run's name)")
    .option('--run-id <id>', "the harness's run_id: names the logs folder and the summary (sweci)")
    .action((dir: string, values: ExportSweBenchValues) => set(commands.sweBench().then((c) => c.exportSweBenchCommand(dir, values))));

  addRuntimeOptions(
    addPytestOptions(
      root
        .command('grade')
        .description(
          "grade a predictions file (any tool's: instance_id, model_name_or_path, model_patch) as SWE-bench's harness does, with our confined pytest; writes the harness's reports and run summary",
        )
        .option('--predictions <file>', 'the predictions, JSON Lines or a JSON list')
        .option('--instances <file>', 'the SWE-bench-style instances (.json or .jsonl), or a SWE-Bench-CL sequence file')
        .option('--repo <dir>', "the clone of the instances' repository")
        .option('--repos <dir>', 'a folder of clones, by repo name (<name>, <owner>__<name> or <owner>/<name>)')
        .option('-o, --out <dir>', 'a new or empty folder to write to (written whole or not at all)')
        .option('--run-id <id>', "the harness's run_id: names the logs folder and the summary (sweci)"),
    ),
    'auto',
  ).action((values: GradeValues) =>
    set(commands.tasks().then((t) => t.withEnvironments(signal, (ctx) => commands.sweBench().then((c) => c.gradeCommand(values, ctx))))),
  );

  root
    .command('transcript')
    .argument('<task-dir>', 'a task folder')
    .description("what an agent did in one try: each model call, what it added, the model's answer and the tools it ran (from the gateway's record)")
    .option('--run <name>', "the run (default: the task's latest loop run)")
    .option('--iteration <n>', 'the iteration, from 1')
    .option('--role <role>', 'architect or programmer')
    .option('--try <k>', "the try, from 1 (default: the role's last in that iteration)")
    .option('--format <format>', 'text, markdown or json (text)')
    .action((dir: string, values: TranscriptValues) => set(commands.transcript().then((c) => c.transcriptCommand(dir, values))));

  addScoringOptions(
    root
      .command('compare')
      .argument('<experiment-a>')
      .argument('<experiment-b>')
      .description('two experiments side by side: EvoScore, solved and zero regression per task and on average')
      .option('--run-a <name>', "the run of A to compare (default: A's own)")
      .option('--run-b <name>', "the run of B to compare (default: B's own)")
      .option('--max-epoch <n>', 'N, the iterations scores are padded to (needed when the two differ)')
      .option('--format <format>', 'table or json (table)'),
  ).action((a: string, b: string, values: CompareValues) => set(commands.compare().then((c) => c.compareCommand(a, b, values))));

  leaderboardOptions(
    addScoringOptions(
      root
        .command('leaderboard')
        .argument('[experiments...]', 'experiment folders; experiment#run ranks another run of one (e.g. runs/opus#human-history)')
        .description('many experiments ranked together: EvoScore at each γ with 95% intervals, ranks as γ moves, pairs, groups and the cost frontier')
        .option('--gamma <list>', 'the γ values, e.g. 0.8,1,1.2 (0.8,0.9,1,1.1,1.2; γ = 1 is always included)')
        .option('--max-epoch <n>', 'N, the iterations scores are padded to (needed when the experiments differ)')
        .option('--format <format>', 'table, markdown, csv or json (table)')
        .option('--wide', 'the table with every column (by default it keeps to 100 characters: the main columns)'),
    ),
  ).action((experiments: string[], values: LeaderboardValues) => set(commands.leaderboard().then((c) => c.leaderboardCommand(experiments, values))));

  addScoringOptions(
    exporting
      .command('inspect')
      .argument('<experiment-dir>')
      .description("one Inspect eval log (.eval) per finished run, with listing.json: Inspect's viewer, its VS Code extension and its data frames read them")
      .option('--out <dir>', 'the folder to write the logs to (made when missing)')
      .option('--run <name>', 'only this run (default: every finished run)')
      .option('--gamma <g>', "EvoScore's γ (1)"),
  ).action((dir: string, values: ExportInspectValues) => set(commands.exportInspect().then((c) => c.exportInspectCommand(dir, values))));

  root
    .command('k8s')
    .description('write a Kubernetes Indexed Job that runs the benchmark, one task per pod (flags after -- go to sweci run in each pod)')
    .argument('[run-args...]', 'sweci run flags for the pods, after --, e.g. -- --architect codex --programmer codex --max-iterations 20')
    .option('--dataset <dir>', 'the dataset on this machine (its tasks are counted here)')
    .option('--split <name>', 'the dataset split (default: the first)')
    .option('--tasks <ids>', 'only these task ids, separated by commas')
    .option('--tasks-file <file>', '(not for k8s: use --tasks)')
    .option('--experiment <name>', 'names the Job and the results folder')
    .option('--image <image>', "the pods' image: sweci on its PATH, Node 20, the tasks' Python")
    .option('--workers <n>', 'pods at once (1)')
    .option('--name <job>', 'the Job name (default sweci-<experiment>)')
    .option('--namespace <ns>', 'the namespace')
    .option('--dataset-path <dir>', 'the dataset inside the pods (/data/dataset)')
    .option('--experiment-path <dir>', 'the results inside the pods (/results/<experiment>)')
    .option('--claim <pvc>', 'a ReadWriteMany PersistentVolumeClaim for the results (and the dataset unless --dataset-claim)')
    .option('--dataset-claim <pvc>', 'a claim holding the dataset, mounted read-only')
    .option('--sync-command <cmd>', 'instead of a shared claim: run this in each pod after sweci, e.g. an object-store upload')
    .option('--secret <name>', 'a Secret with the API keys, as environment variables')
    .option('--memory-mb <MiB>', 'memory limit per pod (8192)')
    .option('--cpus <n>', 'CPU limit per pod (0: no limit)')
    .option('-o, --out <dir>', 'where to write the manifest and its README (.)')
    .action((runArgs: string[], values: K8sValues) => set(commands.k8s().then((c) => c.k8sCommand(runArgs, values))));

  const slurm = runOptions(
    root
      .command('slurm')
      .description(
        "write (and with --submit, submit) a Slurm job array that runs the benchmark, one task per element, in a shared experiment folder; it takes sweci run's flags",
      ),
  )
    .option('--partition <name>', "the partition (default: the cluster's)")
    .option('--time <D-HH:MM:SS>', "each element's time limit; a task stopped by it is requeued and continues (default: the partition's)")
    .option('--grace <seconds>', `SIGTERM this long before the time limit, for the running step to stop cleanly (${DEFAULT_GRACE_SECONDS})`)
    .option('--cpus-per-task <n>', 'CPUs per element')
    .option('--mem <amount>', 'memory per element, e.g. 8G')
    .option('--max-parallel <k>', 'elements at once (default: as many as the scheduler gives)')
    .option('--account <name>', 'the account to charge')
    .option(
      '--sbatch-arg <--name=value>',
      'one more sbatch option for the script, e.g. --sbatch-arg=--qos=high; may be repeated',
      (v: string, p: string[] = []) => [...p, v],
    )
    .option('--only-unfinished', 'only the selected tasks the experiment does not record as finished')
    .option('--sweci <exe>', 'the sweci the elements run, on the shared folder (default: this one)')
    .option('--submit', 'submit the script with sbatch and print the job id')
    .action((values: SlurmValues, command: Command) => set(commands.slurm().then((c) => c.slurmCommand(values, command.options))));
  // `slurm status --json`: --json after the subcommand is the subcommand's, not slurm's run flag
  // (the root passes every word after a command name on in order: root.enablePositionalOptions).
  slurm.enablePositionalOptions();
  slurm
    .command('status')
    .argument('<experiment-dir>')
    .description(
      'each task as the experiment records it beside its Slurm element (pending, running where, requeued how often), and the command that resubmits what is unfinished',
    )
    .option('--json', 'print it as JSON')
    .action((dir: string, values: { json?: boolean }) => set(commands.slurm().then((c) => c.slurmStatusCommand(dir, values))));

  const dataset = root.command('dataset').description('the SWE-CI dataset from the Hugging Face Hub: download it, verify it, show what a folder holds');
  dataset
    .command('download')
    .description("fetch a split's tasks (code.zip and image.tar.gz) from the Hub into a folder; resumable, each file verified against the Hub's SHA-256")
    .option('--repo <owner/name>', 'the dataset repository (skylenage-ai/SWE-CI)')
    .option('--revision <rev>', 'a branch, tag or commit (main)')
    .option('--split <name>', 'the split: metadata/<split>.csv (default)')
    .option('--tasks <ids>', 'only these task ids, separated by commas')
    .option('--first <n>', 'only the first n tasks of the split')
    .option('--into <dir>', 'the dataset folder (created if missing; run again to continue or add tasks)')
    .option('--no-images', 'leave the task images (image.tar.gz, 346-595 MB each) out')
    .option('--jobs <n>', 'files fetched at once (4)')
    .option('--endpoint <url>', 'the Hub or a mirror (HF_ENDPOINT, else https://huggingface.co)')
    .option('--token-env <NAME>', 'the variable holding the access token (HF_TOKEN)')
    .option('--update', 'fetch files that changed on the Hub since they were downloaded (default: refuse and name them)')
    .option('--json', 'print one JSON event per line')
    .action((values: DownloadValues) => set(commands.dataset().then((c) => c.datasetDownloadCommand(values, signal))));
  dataset
    .command('verify')
    .argument('<dir>', 'a dataset folder sweci downloaded')
    .description('hash every downloaded file against the SHA-256 recorded from the Hub; --fix fetches the bad ones again')
    .option('--fix', 'remove the bad files (their tasks leave metadata/) and fetch them again')
    .option('--endpoint <url>', 'the Hub or a mirror for --fix (default: the one downloaded from)')
    .option('--token-env <NAME>', 'the variable holding the access token (HF_TOKEN)')
    .option('--jobs <n>', 'files fetched at once with --fix (4)')
    .option('--json', 'print one JSON line per file')
    .action((dir: string, values: VerifyValues) => set(commands.dataset().then((c) => c.datasetVerifyCommand(dir, values, signal))));
  dataset
    .command('info')
    .argument('<dir>', 'a dataset folder')
    .description('what a dataset folder holds: where it came from, its splits, tasks and sizes, and what is missing')
    .option('--json', 'print it as JSON')
    .action((dir: string, values: { json?: boolean }) => set(commands.dataset().then((c) => c.datasetInfoCommand(dir, values))));

  const images = root
    .command('images')
    .description("the task images SWE-CI loaded into Docker or Podman (from tasks' image.tar.gz): list them, or prune them down to the image budget");
  const imageOptions = (command: Command): Command =>
    command
      .option('--runtime <engine>', 'the engine the images are in: docker or podman (auto: Docker when its engine answers, else Podman, as a run chooses)')
      .option('--socket <path>', 'the Docker engine (default DOCKER_HOST, else /var/run/docker.sock)')
      .option('--podman-root <dir>', "with --runtime podman: Podman's image store (default: Podman's own for this user)")
      .option('--podman-runroot <dir>', "with --runtime podman: Podman's run state (default: Podman's own for this user)")
      .option('--image-budget-gb <GB>', 'the image budget (sweci.docker.imageBudgetGb; 0: none)')
      .option('--config <file>', "settings as JSON with the extension's keys; flags win")
      .option('--json', 'print it as JSON');
  imageOptions(
    images.command('list', { isDefault: true }).description('each task image SWE-CI loaded: its tag, task, size, last use and whether a container uses it'),
  ).action((values: ImagesValues) => set(commands.images().then((c) => c.imagesListCommand(values))));
  imageOptions(
    images
      .command('prune')
      .description('remove the least recently used task images SWE-CI loaded until they fit in the budget (never one a container uses)')
      .option('--all', 'remove every task image SWE-CI loaded that no container uses, whatever the budget'),
  ).action((values: ImagesValues) => set(commands.images().then((c) => c.imagesPruneCommand(values))));

  root
    .command('curate')
    .argument('[repository]', 'a git repository: a folder or a clone URL')
    .description(
      "make SWE-CI tasks from a repository's history (the paper's curation): spans of first-parent commits whose dependencies do not change, each drop explained",
    )
    .option('--out <dir>', 'the curation folder: curation.jsonl (one line per candidate) and, later, the dataset; run again to continue')
    .option('--status <dir>', "print a curation's funnel and its drop reasons, instead of curating")
    .option('--format <format>', 'text or json (text)')
    .option('--branch <name>', "the branch whose first-parent chain is mined (default: origin's default, else HEAD)")
    .option('--stage <stage>', 'run only this stage: mine, env, filter or pack (all)')
    .option('--lockfiles', 'lockfiles count as dependencies too (poetry.lock, uv.lock, pdm.lock, Pipfile.lock, pylock.toml)')
    .option('--min-changed-lines <n>', `drop pairs whose git diff --numstat changes fewer lines (${1000})`)
    .option('--min-source-lines <n>', `drop pairs that change fewer lines outside test files (${500})`)
    .option('--max-span-commits <n>', 'cut longer spans into windows of at most n commits (off)')
    .option('--dry-run', 'mine and print the candidates; write nothing')
    .option('--base-image <image>', 'build every environment FROM this image (default python:<X.Y>-slim by requires-python)')
    .option('--index-url <url>', "pip's package index for the environments (the build uses this machine's network)")
    .option('--find-links <dir|url>', 'a folder of wheels (or a URL) pip reads; alone, pip reads nothing else')
    .option('--max-repairs <n>', `missing modules added to an environment before it is dropped (${5})`)
    .option('--min-gap <n>', `drop candidates whose oracle passes fewer than n more of its tests than the base (${5})`)
    .option('--top <n>', `keep the first n candidates, ranked by time span then commits (${100})`)
    .option('--split <name>', "the packed dataset's split: metadata/<name>.csv (default)")
    .option('--workers <n>', 'environments built and candidates tested side by side (1); candidates sharing an environment go in turn')
    .option('--repair-agent <preset|custom>', 'when the rules give up on an environment, this agent edits its Dockerfile, confined as a loop step (off)')
    .option('--repair-agent-command <cmd>', "the repair agent's command line, with --repair-agent custom")
    .option('--repair-agent-model <name>', "the repair agent's model")
    .option('--agent-repairs <n>', `tries the repair agent gets per environment (${2})`)
    .option('--sandbox <mode>', 'the repair agent confined with bubblewrap: auto, bubblewrap or off (auto)')
    .option('--sandbox-readable <paths>', "comma-separated absolute paths the sandboxed repair agent may also read (a custom agent's files)")
    .option('--api-key-env <NAME>', 'an environment variable holding an API key the repair agent may use; may be repeated', (v: string, p: string[] = []) => [
      ...p,
      v,
    ])
    .option('--allow-unconfined', 'run the repair agent even where it cannot be confined (recorded)')
    .option('--config <file>', "settings as JSON with the extension's keys (the repair agent's as sweci.programmer.*); flags win")
    .option('--socket <path>', 'the Docker engine (default DOCKER_HOST, else /var/run/docker.sock)')
    .action((repository: string | undefined, values: CurateValues) => set(commands.curate().then((c) => c.curateCommand(repository, values, signal))));

  root
    .command('agents')
    .description('the agents the settings name')
    .command('check')
    .description("check each role's agent before a run: its executable and version, the endpoint and key, and one real step on a scratch task")
    .option('--architect <agent>', AGENT_CHOICES_TEXT)
    .option('--programmer <agent>', 'as --architect')
    .option('--architect-command <cmd>', 'the custom Architect command line')
    .option('--programmer-command <cmd>', 'the custom Programmer command line')
    .option('--architect-model <name>', "the Architect's model")
    .option('--programmer-model <name>', "the Programmer's model")
    .option('--base-url <url>', 'the model endpoint every preset is pointed at')
    .option('--agents-network <mode>', 'what a confined agent may reach: model-only or open (model-only)')
    .option('--api-key-env <NAME>', "the variable holding the endpoint's key (default SWECI_API_KEY); may be repeated", (v: string, p: string[] = []) => [
      ...p,
      v,
    ])
    .option('--sandbox <mode>', 'auto, bubblewrap or off (auto)')
    .option('--config <file>', "settings as JSON with the extension's keys; flags win")
    .option('--json', 'print the rows as JSON')
    .action((values: AgentsCheckValues) => set(commands.agents().then((c) => c.agentsCheckCommand(values, signal))));
  return root;
}

export async function main(argv: string[]): Promise<number> {
  const abort = new AbortController();
  // Stopped by a user, a job runner or a closed terminal: every process it started stops too.
  stopOnSignals(abort);
  const result: { code: Promise<number> | undefined } = { code: undefined };
  const cli = program(abort.signal, result);
  if (argv.length === 0) {
    cli.outputHelp();
    return 2;
  }
  try {
    const sub = cli.commands.find((c) => c.name() === argv[0]);
    if (sub) assertNoOptionLikeValues(sub, argv.slice(1));
    await cli.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : 2;
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  try {
    return (await result.code) ?? 0;
  } finally {
    // A run's last spans leave before the exit, waiting a bounded time for the collector.
    await (await import('../core/telemetry/tracing.js')).stopTracing();
  }
}

/**
 * Exits once stdout and stderr have taken everything written: into a pipe whose reader is slower
 * than us (`sweci leaderboard --format json | jq`), writes wait in a queue, and exiting at once
 * would cut the output at the pipe's 64 KiB.
 */
function exitAfterOutput(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

/**
 * A reader that stops early (`sweci … | head`) closes the pipe. The rest of the output goes nowhere
 * and the command carries on to its own end and exit code: the output is only a view of what it
 * does (a run still records). Any other output error still stops the process.
 */
function carryOnWhenTheReaderLeaves(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    });
  }
}

if (require.main === module) {
  carryOnWhenTheReaderLeaves();
  main(process.argv.slice(2)).then(exitAfterOutput, (err: unknown) => {
    console.error(err instanceof UserError ? `error: ${err.message}` : err);
    exitAfterOutput(1);
  });
}
