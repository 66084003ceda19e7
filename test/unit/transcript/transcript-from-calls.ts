// A try's transcript from its calls as the product builds it: TranscriptBuilder fed in the order
// the calls began (as read-transcript.ts feeds it from the calls file), for tests that hold the calls.
import { TranscriptBuilder, type TranscriptMeta } from '../../../src/core/transcript/calls-transcript';
import type { Transcript } from '../../../src/shared/transcript-schema';
import type { GatewayCall } from '../../../src/core/records/gateway-call';

/** The transcript of a try's calls (any order: they are taken in the order they began). */
export function transcriptFromCalls(calls: readonly GatewayCall[], meta: TranscriptMeta, notes: string[] = []): Transcript {
  const builder = new TranscriptBuilder(meta);
  for (const call of [...calls].sort((a, b) => a.call - b.call)) builder.add(call);
  return builder.finish(notes);
}
