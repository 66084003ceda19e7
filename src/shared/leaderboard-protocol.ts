// The Leaderboard panel's messages, both ways, as schemas. The host sends the whole record (the
// one `sweci leaderboard --format json` prints, checked against its own schema); the webview
// builds the table and the figures from it and reports clicks by label (and task id), which the
// host looks up in the record it sent, so a message can only name what the panel showed.
// Browser-safe.
import * as z from 'zod/mini';
import { leaderboardRecordSchema } from './leaderboard-record';
import { guardFor } from './message-schema';

const label = () => z.string().check(z.minLength(1), z.maxLength(500));

/** What a panel ranks: a leaderboard.json, or experiment folders (`folder` or `folder#run`); the host keeps it across a window reload. */
export const leaderboardSourceSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('file'), file: z.string() }),
  z.strictObject({ kind: z.literal('experiments'), experiments: z.array(z.string()) }),
]);
export type LeaderboardSource = z.infer<typeof leaderboardSourceSchema>;

/**
 * Host → webview: the record to show (`init` after each `ready`, `update` when it was computed
 * again). What it ranks stays with the host, which keeps it for a window reload.
 */
const leaderboardHostMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('init'), record: leaderboardRecordSchema }),
  z.strictObject({ type: z.literal('update'), record: leaderboardRecordSchema }),
]);
export type LeaderboardHostMessage = z.infer<typeof leaderboardHostMessageSchema>;
export const isLeaderboardHostMessage = guardFor(leaderboardHostMessageSchema);

/** Webview → host: the page loaded, an entry clicked (open its experiment), a task in an entry's row clicked, Export. */
export const leaderboardViewMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('export-requested') }),
  z.strictObject({ type: z.literal('entry-clicked'), label: label() }),
  z.strictObject({ type: z.literal('task-clicked'), label: label(), task: z.string().check(z.minLength(1), z.maxLength(500)) }),
]);
export type LeaderboardViewMessage = z.infer<typeof leaderboardViewMessageSchema>;
