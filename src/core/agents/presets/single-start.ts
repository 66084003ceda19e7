// Qwen Code and Gemini CLI start twice: the first Node process loads the CLI only to start a
// second with a larger heap (half the machine's memory) and then waits for it. Given that heap in
// NODE_OPTIONS and the variable the CLI sets for its own second start, the first process is the
// only one: each step compiles the bundle once, not twice (over a second of CPU per step, and
// far more on a busy machine). The heap is the one the CLI would have given itself.
import * as os from 'node:os';

/** The heap the CLIs ask for: half the machine's memory, in MiB. */
export function halfMemoryMb(): number {
  return Math.floor(os.totalmem() / (1024 * 1024) / 2);
}

/** The environment that makes a relaunching Node CLI start once; `noRelaunch` is its own variable. */
export function singleStartEnv(noRelaunch: string): Record<string, string> {
  return { [noRelaunch]: 'true', NODE_OPTIONS: `--max-old-space-size=${halfMemoryMb()}` };
}
