// The Leaderboard panel's host: one panel (SWE-CI: Open Leaderboard) showing one record, the one
// `sweci leaderboard --format json` prints. The record comes from a loader the caller hands in
// (leaderboard-source.ts for the command), is checked against the record's schema before it is
// sent, and is sent again (the host's onReady) whenever a new page says `ready` (opened, restored
// after a reload, or shown again after being hidden). The loader is kept: refresh() loads again as runs finish. A
// click names an entry by label (and a task by id); the host acts only on a label and a task the
// record it sent holds.
import * as vscode from 'vscode';
import { leaderboardRecordSchema, type LeaderboardEntry, type LeaderboardRecord } from '../../shared/leaderboard-record';
import { UserError } from '../../core/util/errors';
import {
  leaderboardViewMessageSchema,
  type LeaderboardHostMessage,
  leaderboardSourceSchema,
  type LeaderboardSource,
  type LeaderboardViewMessage,
} from '../../shared/leaderboard-protocol';
import * as messages from '../messages';
import { WebviewHost } from '../webview/webview-host';
import { firstSchemaIssue } from '../../core/records/schema-problem';

const LEADERBOARD_VIEW_TYPE = 'sweci.leaderboard';

export interface LeaderboardPanelDeps {
  extensionUri: vscode.Uri;
  /** The workspace's state: what the panel ranks is kept there, to rank it again after a window reload. */
  memento: vscode.Memento;
  /** Computes a source's record (and follows what it ranks): the panel restored after a reload ranks again with it. */
  loaderFor(source: LeaderboardSource): () => Promise<LeaderboardRecord>;
  /** An entry was clicked: open its experiment; returns why it could not. */
  openEntry(entry: LeaderboardEntry): Promise<string | undefined>;
  /** A task in an entry's row was clicked: open that task's chart for the entry's run; returns why it could not. */
  openTask(entry: LeaderboardEntry, task: string): Promise<string | undefined>;
  /** Export: writes the record as an offline page (and its JSON) where the user says. */
  exportReport(record: LeaderboardRecord): Promise<void>;
  /** The panel closed: what it followed need not be watched any more. */
  closed?(): void;
}

export class LeaderboardPanelHost implements vscode.Disposable {
  private readonly host: WebviewHost<LeaderboardViewMessage, LeaderboardHostMessage, Record<never, never>, LeaderboardSource>;
  private current: LeaderboardRecord | undefined;
  private load: (() => Promise<LeaderboardRecord>) | undefined;
  /** What the record ranks, handed to the page to keep (undefined: a record handed in whole). */
  private ranked: LeaderboardSource | undefined;
  /** Counts the loads: one overtaken by a newer load is dropped, so an older record never lands last. */
  private loads = 0;

  constructor(private readonly deps: LeaderboardPanelDeps) {
    this.host = new WebviewHost({
      extensionUri: deps.extensionUri,
      viewType: LEADERBOARD_VIEW_TYPE,
      title: vscode.l10n.t('SWE-CI Leaderboard'),
      script: 'leaderboard.js',
      style: 'leaderboard.css',
      incoming: leaderboardViewMessageSchema,
      replies: {},
      onReady: () => {
        const init = this.message('init');
        return init ? [init] : [];
      },
      // init carries the record in full, as it is when the page is ready.
      replacedOnReady: ['update'],
      onMessage: (m) => this.handle(m),
      onDidClose: () => {
        this.current = undefined;
        this.load = undefined;
        this.ranked = undefined;
        deps.closed?.();
      },
      // After a window reload: rank what the panel ranked before, afresh (a record handed in whole is not kept; its panel closes).
      restore: {
        kept: { memento: deps.memento, schema: leaderboardSourceSchema },
        restore: (source) => this.restore(deps.loaderFor(source), source),
      },
    });
  }

  /** What the record shown ranks, while the panel is open (undefined: a record handed in whole). */
  get source(): LeaderboardSource | undefined {
    return this.host.isOpen ? this.ranked : undefined;
  }

  /** The record shown, while the panel is open. */
  get record(): LeaderboardRecord | undefined {
    return this.host.isOpen ? this.current : undefined;
  }

  /** Loads a record with `load`, checks it, and opens the panel on it (a failure throws before anything opens); `load` is kept for refresh. */
  async show(load: () => Promise<LeaderboardRecord>, source?: LeaderboardSource): Promise<LeaderboardRecord> {
    const record = await this.loaded(load);
    this.load = load;
    this.ranked = source;
    this.current = record;
    if (source) this.host.keep(source);
    this.host.show();
    // A page still loading gets the record as its init instead (onReady).
    this.send('update');
    return record;
  }

  /** Fills the panel VS Code restored after a window reload (the host adopted it) from `load`; a failure throws (the host closes it). */
  private async restore(load: () => Promise<LeaderboardRecord>, source: LeaderboardSource): Promise<void> {
    this.current = await this.loaded(load);
    this.load = load;
    this.ranked = source;
    this.send('init');
  }

  /** Loads again with the loader the panel was opened with and sends the record as an update, where the panel is (nothing when closed). */
  async refresh(): Promise<void> {
    const load = this.load;
    if (!load || !this.host.isOpen) return;
    const n = ++this.loads;
    const record = checked(await load());
    if (n !== this.loads || load !== this.load) return;
    this.current = record;
    this.send('update');
  }

  /** `load`'s record, checked; counted, so a refresh begun before it drops its own. */
  private async loaded(load: () => Promise<LeaderboardRecord>): Promise<LeaderboardRecord> {
    ++this.loads;
    return checked(await load());
  }

  /** Sends the record (the host holds it until the webview is ready for it). */
  private send(type: 'init' | 'update'): void {
    const message = this.message(type);
    if (message) this.host.post(message);
  }

  private message(type: 'init' | 'update'): LeaderboardHostMessage | undefined {
    return this.current && { type, record: this.current };
  }

  private async handle(m: Exclude<LeaderboardViewMessage, { type: 'ready' }>): Promise<void> {
    if (m.type === 'export-requested') {
      if (this.current) await this.deps.exportReport(this.current);
      return;
    }
    const entry = this.current?.entries.find((e) => e.label === m.label);
    if (!entry) return;
    let why: string | undefined;
    if (m.type === 'entry-clicked') why = await this.deps.openEntry(entry);
    else if (this.current?.tasks.includes(m.task) && !entry.missing.includes(m.task)) why = await this.deps.openTask(entry, m.task);
    if (why) void messages.showInformationMessage(why);
  }

  dispose(): void {
    this.host.dispose();
  }
}

/** The record as the schema reads it; a record that does not fit is the computation's fault, said plainly. */
function checked(record: LeaderboardRecord): LeaderboardRecord {
  const parsed = leaderboardRecordSchema.safeParse(record);
  if (!parsed.success) {
    const issue = firstSchemaIssue(parsed.error);
    throw new UserError('The leaderboard record is malformed.', { detail: `${issue.path.join('.')}: ${issue.message}` });
  }
  return parsed.data;
}
