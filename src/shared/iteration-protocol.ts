// The iteration view's messages, both ways, as schemas. The host sends the page to show (an
// iteration, two compared, or an iteration's test report) as data: every text already worded,
// every button already enabled or not with its reason, no path. The webview builds its DOM from
// it and reports clicks. A click names what to open by index or id into the page the host sent,
// never by a path, so a message cannot make the host open a file the view did not show.
// Browser-safe.
import * as z from 'zod/mini';
import { count, guardFor } from './message-schema';

const nodeId = () => z.string().check(z.minLength(1), z.maxLength(4095));
const role = () => z.enum(['architect', 'programmer']);

/** What a click asks for: the messages the view's buttons and links send. */
const clickSchemas = [
  z.strictObject({ type: z.literal('step'), direction: z.union([z.literal(1), z.literal(-1)]) }),
  z.strictObject({ type: z.literal('open-test'), nodeid: nodeId() }),
  /** Index into the shown iteration's archived files. */
  z.strictObject({ type: z.literal('open-file'), index: count() }),
  z.strictObject({ type: z.literal('open-code-changes') }),
  z.strictObject({ type: z.literal('open-requirement') }),
  z.strictObject({ type: z.literal('open-requirement-diff') }),
  z.strictObject({ type: z.literal('select-for-compare') }),
  z.strictObject({ type: z.literal('compare-with-selected') }),
  /** One of the tries the shown iteration lists with a transcript. */
  z.strictObject({ type: z.literal('open-transcript'), role: role(), try: z.int().check(z.minimum(1)) }),
  /** The shown iteration's test report as a table; back to the iteration; the raw report.json. */
  z.strictObject({ type: z.literal('open-test-report') }),
  z.strictObject({ type: z.literal('close-test-report') }),
  z.strictObject({ type: z.literal('open-raw-report') }),
] as const;

/** Webview → host: the page loaded (send it what to show), or a click. */
export const iterationViewMessageSchema = z.discriminatedUnion('type', [z.strictObject({ type: z.literal('ready') }), ...clickSchemas]);
export type IterationViewMessage = z.infer<typeof iterationViewMessageSchema>;
type IterationViewAction = Exclude<IterationViewMessage['type'], 'ready'>;

const isIterationViewMessage = guardFor(iterationViewMessageSchema);
export const ITERATION_VIEW_ACTIONS: IterationViewAction[] = clickSchemas.map((o) => o.def.shape.type.def.values[0]);

// --- host → webview: the page -------------------------------------------------------------

/** A button: the message it sends (its action and `arg`, as messageForAction reads them), its text, and why it is disabled. */
const controlSchema = z.strictObject({
  action: z.enum(ITERATION_VIEW_ACTIONS as [IterationViewAction, ...IterationViewAction[]]),
  arg: z.optional(z.union([z.string(), z.number()])),
  label: z.string(),
  title: z.optional(z.string()),
  disabled: z.optional(z.boolean()),
});
export type PageControl = z.infer<typeof controlSchema>;

/** Previous, the heading (its muted parts greyed), Next; then the page's buttons. */
const headerSchema = z.strictObject({
  previous: controlSchema,
  heading: z.array(z.strictObject({ text: z.string(), muted: z.optional(z.boolean()) })),
  next: controlSchema,
  actions: z.array(controlSchema),
});

/** A list of tests, each a link that opens it; `more` past the ones listed. */
const testListSchema = z.strictObject({ title: z.string(), kind: z.enum(['passing', 'regressed', 'side']), ids: z.array(z.string()), more: count() });

const stepRowSchema = z.strictObject({
  role: role(),
  /** Role, who, time, tokens, cost, tries. */
  cells: z.array(z.string()),
  /** The tries with a transcript: the link's text and tooltip. */
  transcripts: z.array(z.strictObject({ try: z.int().check(z.minimum(1)), label: z.string(), title: z.string() })),
  /** Lines under the row: what was removed, thrown away, failed tries, permissions, the model calls. */
  notes: z.array(z.string()),
});

const iterationPageSchema = z.strictObject({
  kind: z.literal('iteration'),
  header: headerSchema,
  /** The scores (term and value), or why pytest did not run. */
  score: z.union([z.strictObject({ cells: z.array(z.strictObject({ term: z.string(), value: z.string() })) }), z.strictObject({ error: z.string() })]),
  warnings: z.array(z.string()),
  note: z.optional(z.string()),
  /** Code Changes and Test Report. */
  actions: z.array(controlSchema),
  tests: z.array(testListSchema),
  requirement: z.optional(
    z.union([z.strictObject({ state: z.string(), actions: z.array(controlSchema), text: z.string() }), z.strictObject({ missing: z.string() })]),
  ),
  steps: z.array(stepRowSchema),
  /** The archived files, by index (open-file); the test report opens as a table. */
  files: z.array(z.strictObject({ label: z.string(), report: z.boolean() })),
  commit: z.string(),
});

const comparePageSchema = z.strictObject({
  kind: z.literal('compare'),
  header: headerSchema,
  heads: z.array(z.string()),
  rows: z.array(z.strictObject({ label: z.string(), cells: z.array(z.string()) })),
  actions: z.array(controlSchema),
  /** The tests only one side passes, or why they cannot be compared one by one. */
  tests: z.union([z.strictObject({ lists: z.array(testListSchema) }), z.strictObject({ note: z.string() })]),
});

const reportPageSchema = z.strictObject({
  kind: z.literal('report'),
  header: headerSchema,
  table: z.union([
    z.strictObject({
      /** Failures first; past the limit, only a count (`more`). */
      rows: z.array(z.strictObject({ outcome: z.string(), nodeid: z.string(), duration: z.string(), message: z.optional(z.string()) })),
      counts: z.array(z.strictObject({ outcome: z.string(), n: count() })),
      /** The tests' time together, when the report timed them. */
      total: z.optional(z.string()),
      failing: count(),
      more: count(),
    }),
    z.strictObject({ missing: z.string() }),
  ]),
});

const iterationPageUnionSchema = z.discriminatedUnion('kind', [iterationPageSchema, comparePageSchema, reportPageSchema]);
export type IterationPage = z.infer<typeof iterationPageUnionSchema>;

/** Host → webview. */
const iterationHostMessageSchema = z.discriminatedUnion('type', [z.strictObject({ type: z.literal('show'), page: iterationPageUnionSchema })]);
export type IterationHostMessage = z.infer<typeof iterationHostMessageSchema>;
export const isIterationHostMessage = guardFor(iterationHostMessageSchema);

/**
 * The message a clicked element asks for: its `data-action`, plus `data-arg` as the action's
 * argument (direction, node id, file index or `role:try`). Undefined for anything malformed.
 */
export function messageForAction(action: string | undefined, arg: string | undefined): IterationViewMessage | undefined {
  let msg: unknown;
  switch (action) {
    case 'ready':
      return undefined;
    case 'step':
      msg = { type: action, direction: Number(arg) };
      break;
    case 'open-test':
      msg = { type: action, nodeid: arg };
      break;
    case 'open-file':
      msg = { type: action, index: Number(arg) };
      break;
    case 'open-transcript': {
      // `role:try`, e.g. `programmer:2`.
      const [role, tryNumber] = (arg ?? '').split(':');
      msg = { type: action, role, try: Number(tryNumber) };
      break;
    }
    default:
      msg = { type: action };
  }
  return isIterationViewMessage(msg) ? msg : undefined;
}
