// How the Transcript panel talks to its host. Inside VS Code: acquireVsCodeApi, every host
// message checked against the protocol (the transcript with its own schema). In an exported
// report there is no host: the transcript comes from a JSON script tag, nothing is posted, and a
// link leads back to the report.
import * as l10n from '@vscode/l10n';
import * as z from 'zod/mini';
import { isTranscriptHostMessage, type TranscriptHostMessage, type TranscriptWebviewMessage } from '../src/shared/transcript-protocol';
import { transcriptSchema, type Transcript } from '../src/shared/transcript-schema';
import { savedState, vsCodeApi } from './vscode-api';

/** What the panel keeps across reloads of its page (VS Code's webview state). */
const transcriptViewStateSchema = z.object({ query: z.string(), measure: z.optional(z.enum(['ms', 'tokens'])) });
export type TranscriptViewState = z.infer<typeof transcriptViewStateSchema>;

export interface TranscriptBridge {
  readonly standalone: boolean;
  post(msg: TranscriptWebviewMessage): void;
  getState(): Partial<TranscriptViewState> | undefined;
  setState(s: TranscriptViewState): void;
  onMessage(fn: (msg: TranscriptHostMessage) => void): void;
}

export function createTranscriptBridge(): TranscriptBridge {
  const api = vsCodeApi();
  if (api) {
    return {
      standalone: false,
      post: (msg) => api.postMessage(msg),
      getState: () => savedState(api, z.partial(transcriptViewStateSchema)),
      setState: (s) => api.setState(s),
      onMessage: (fn) =>
        window.addEventListener('message', (e: MessageEvent) => {
          if (isTranscriptHostMessage(e.data)) fn(e.data);
          else console.warn('SWE-CI transcript: ignored a malformed message');
        }),
    };
  }
  return {
    standalone: true,
    post: () => undefined,
    getState: () => undefined,
    setState: () => undefined,
    onMessage: () => undefined,
  };
}

/** What an exported report's transcript page embeds in <script type="application/json" id="sweci-transcript-data">. */
export interface TranscriptPagePayload {
  transcript: Transcript;
  title: string;
  /** The report's page, relative to this one. */
  back?: string;
}

/** The embedded transcript, checked like the host's; undefined (and a reason) when it is not one. */
export function readTranscriptPayload(): { payload?: TranscriptPagePayload; problem?: string } {
  const el = document.getElementById('sweci-transcript-data');
  if (!el?.textContent) return { problem: 'This page carries no transcript.' };
  try {
    const raw = JSON.parse(el.textContent) as { transcript?: unknown; title?: unknown; back?: unknown };
    const t = transcriptSchema.safeParse(raw.transcript);
    if (!t.success) return { problem: 'The transcript in this page is damaged.' };
    return {
      payload: {
        transcript: t.data,
        title: typeof raw.title === 'string' ? raw.title : l10n.t('Transcript'),
        ...(typeof raw.back === 'string' ? { back: raw.back } : {}),
      },
    };
  } catch {
    return { problem: 'The transcript in this page is damaged.' };
  }
}
