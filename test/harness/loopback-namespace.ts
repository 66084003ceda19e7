// A network namespace with only `lo`, for tests whose processes must not reach anything but this
// machine's loopback: real agent CLIs and the scripted model server they talk to run inside it
// together. Needs root and iproute2 (scripts/setup.sh installs it).
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export class LoopbackNamespace {
  private constructor(readonly name: string) {}

  static create(prefix = 'sweci-test'): LoopbackNamespace {
    removeOrphans(prefix);
    const name = `${prefix}-${process.pid}-${Date.now().toString(36)}`;
    execFileSync('ip', ['netns', 'add', name]);
    execFileSync('ip', ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up']);
    return new LoopbackNamespace(name);
  }

  /** The interfaces inside, by name (only "lo" in a loopback-only namespace). */
  interfaces(): string[] {
    const out = execFileSync('ip', ['netns', 'exec', this.name, 'ip', '-o', 'link', 'show'], { encoding: 'utf8' });
    return [...out.matchAll(/^\d+:\s+([^:@]+)/gm)].map((m) => m[1]);
  }

  spawn(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
    return spawn('ip', ['netns', 'exec', this.name, command, ...args], options);
  }

  dispose(): void {
    try {
      execFileSync('ip', ['netns', 'delete', this.name]);
    } catch {
      // already gone
    }
  }
}

/**
 * Deletes the namespaces of `prefix` whose test process has gone without deleting them (a run
 * killed at its timeout): each would stay until the machine restarts. Their names carry that pid.
 */
function removeOrphans(prefix: string): void {
  const listed = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  for (const [, name, pid] of listed.matchAll(new RegExp(`^(${prefix}-(\\d+)-[0-9a-z]+)\\b`, 'gm'))) {
    try {
      process.kill(Number(pid), 0);
    } catch {
      try {
        execFileSync('ip', ['netns', 'delete', name]);
      } catch {
        // another test's sweep deleted it first
      }
    }
  }
}
