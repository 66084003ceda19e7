// Facts of the machine that an agent CLI's tool result reports and that change from one run to the
// next whatever the command did: process ids, elapsed times, ids a CLI makes up per command. A
// replay compares tool results with each of these masked (replay-match.ts), so it does not diverge
// on timing; anything else in a tool result (its output, a file's contents, pytest's counts) is
// still compared byte for byte. The list is kept short on purpose: each entry names the exact text
// a pinned CLI (scripts/agent-clis.txt) or pytest writes, never a loose "any number".

interface VolatileFact {
  /** What is masked, said in a few words. */
  name: string;
  /** Who writes it: the CLI or tool, so an entry can be checked against its source. */
  source: string;
  /** Matches the fact (global, so every occurrence is masked). */
  pattern: RegExp;
  /** What the match becomes ($1: the group kept). */
  mask: string;
}

const VOLATILE_FACTS: readonly VolatileFact[] = [
  {
    name: 'process group id',
    source: 'the shell tools of qwen and gemini ("Process Group PGID: 62")',
    pattern: /^Process Group PGID: \d+$/gm,
    mask: 'Process Group PGID: <pid>',
  },
  {
    name: 'background process ids',
    source: 'the shell tools of qwen and gemini ("Background PIDs: 71, 72")',
    pattern: /^Background PIDs: \d+(?:, \d+)*$/gm,
    mask: 'Background PIDs: <pids>',
  },
  {
    name: 'background process id',
    source: 'gemini\'s shell tool ("Command moved to background (PID: 73).")',
    pattern: /^Command moved to background \(PID: \d+\)/gm,
    mask: 'Command moved to background (PID: <pid>)',
  },
  {
    name: 'wall time',
    source: 'codex\'s exec tools ("Wall time: 0.0123 seconds")',
    pattern: /^Wall time: \d+(?:\.\d+)? seconds$/gm,
    mask: 'Wall time: <seconds> seconds',
  },
  {
    name: 'output chunk id',
    source: 'codex\'s exec tools ("Chunk ID: 58c721", random per command)',
    pattern: /^Chunk ID: [0-9a-f]+$/gm,
    mask: 'Chunk ID: <id>',
  },
  {
    name: 'long-run note',
    source: 'qwen\'s shell tool, after a command that ran past half its timeout ("Note: this foreground command ran for 61s. …")',
    pattern: /\n\nNote: this foreground command ran for \d+s\. Next time you run a similar long-running process[^\n]*/g,
    mask: '',
  },
  {
    name: 'pytest duration',
    // "3 passed, 1 warning in 0.12s", "no tests ran in 0.01s", "1 failed in 75.32s (0:01:15)".
    source: 'pytest\'s summary line, bare (-q) or between "=" rules',
    pattern:
      /(?<![\w.])((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?)(?:, )?)+|no tests ran) in \d+(?:\.\d+)?s(?: \(\d+:\d\d:\d\d(?:\.\d+)?\))?(?![\w.])/g,
    mask: '$1 in <seconds>s',
  },
];

/** `text` with every volatile fact masked. */
export function maskVolatile(text: string): string {
  let out = text;
  for (const fact of VOLATILE_FACTS) out = out.replace(fact.pattern, fact.mask);
  return out;
}
