// A runtime that runs through another one and remembers what it ran and for how long: for
// tests that count commands, and for benchmarks that split harness time from process time.
import { performance } from 'node:perf_hooks';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import type { Mount, CommandRequest, RunResult, Runtime } from '../../../src/core/runtime/runtime';

export class ObservedRuntime implements Runtime {
  readonly requests: CommandRequest[] = [];
  /** Wall time spent inside `run`, in milliseconds. */
  spentMs = 0;

  constructor(readonly inner: Runtime = new LocalRuntime()) {}

  get kind(): Runtime['kind'] {
    return this.inner.kind;
  }

  get description(): string {
    return this.inner.description;
  }

  get isolation(): Runtime['isolation'] {
    return this.inner.isolation;
  }

  get runs(): number {
    return this.requests.length;
  }

  pathIn(mounts: readonly Mount[], hostPath: string): string {
    return this.inner.pathIn(mounts, hostPath);
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }

  async run(req: CommandRequest): Promise<RunResult> {
    this.requests.push(req);
    const started = performance.now();
    try {
      return await this.inner.run(req);
    } finally {
      this.spentMs += performance.now() - started;
    }
  }
}
