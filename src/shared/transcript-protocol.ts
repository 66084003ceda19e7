// The Transcript panel's messages, both ways, as schemas. The host sends the transcript of one
// try (the webview checks it with the transcript's own schema); the webview asks to open a
// file change in the diff editor or as a document, naming a call and the index of its tool
// call in the transcript it was sent, never a path: the host looks the change up in the
// transcript it sent, so a message cannot make it open anything else. Browser-safe.
import * as z from 'zod/mini';
import { transcriptSchema } from './transcript-schema';
import { count, guardFor } from './message-schema';

const callNumber = () => z.int().check(z.minimum(1));

/** Host → webview. */
export const transcriptHostMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('transcript'),
    transcript: transcriptSchema,
    /** The try is still running: its calls file grows, and the panel follows it. */
    live: z.boolean(),
    /** Whether there is a try before and after this one in the run (Previous / Next). */
    steps: z.optional(z.strictObject({ previous: z.boolean(), next: z.boolean() })),
  }),
]);
export type TranscriptHostMessage = z.infer<typeof transcriptHostMessageSchema>;

/** Webview → host. */
export const transcriptWebviewMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  /** Opens the file change of that tool call in the diff editor. */
  z.strictObject({ type: z.literal('open-diff'), call: callNumber(), tool: count() }),
  /** Opens the file as that tool call left it, as a read-only document. */
  z.strictObject({ type: z.literal('open-file'), call: callNumber(), tool: count() }),
  /** The run's previous or next try (by iteration, then role, then try). */
  z.strictObject({ type: z.literal('step'), direction: z.union([z.literal(1), z.literal(-1)]) }),
]);
export type TranscriptWebviewMessage = z.infer<typeof transcriptWebviewMessageSchema>;

export const isTranscriptHostMessage = guardFor(transcriptHostMessageSchema);
