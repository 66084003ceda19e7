// --workers for the curation's stages: jobs run `workers` at a time, and the candidates' file is
// written by one queue, so a write that started with an older state never lands after a newer one.
import { writeRecords, type CandidateRecord } from './curation-store';

/** Runs `job` on every item, at most `workers` at once; the first failure is thrown once all have stopped. */
export async function sideBySide<T>(items: readonly T[], workers: number, job: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (!failure && next < items.length) {
      const item = items[next++];
      try {
        await job(item);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, items.length)) }, worker));
  if (failure) throw failure.err;
}

/** Saves `records` (updated in place by the jobs) in turn: each write takes the state as it is when its turn comes. */
export class RecordsWriter {
  private chain: Promise<void> = Promise.resolve();
  constructor(
    private readonly out: string,
    private readonly records: readonly CandidateRecord[],
  ) {}

  save(): Promise<void> {
    const turn = this.chain.then(() => writeRecords(this.out, this.records));
    this.chain = turn.catch(() => undefined);
    return turn;
  }
}
