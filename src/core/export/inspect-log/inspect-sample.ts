// One task's run as an Inspect sample: the conversation of every agent try (from the tries'
// transcripts, as `sweci transcript` reads them), the iterations as spans with what each one
// scored, the scores, and the usage. The sample summary (summaries.json) is made from it.
import { createHash } from 'node:crypto';
import type { AgentRole } from '../../agents/agent-driver';
import { listArchivedTriesSync } from '../../inspect/transcript-tries';
import type { IterationRecord } from '../../loop/iteration-record';
import type { RunInfo } from '../../loop/run-store';
import { readTryTranscript } from '../../transcript/read-transcript';
import type { TaskFolder } from '../../workspace/task-folder';
import type { TaskRecord } from '../../workspace/task-record-schema';
import type { ChartRun } from '../../../shared/chart-types';
import type { InspectEvent, InspectMessage, InspectSample, InspectSampleSummary } from './inspect-log-types';
import { tryConversation } from './inspect-messages';
import { sampleScores } from './inspect-scores';
import { linesUsage, roleModel, type UsageByKey } from './inspect-usage';

export interface SampleSource {
  id: string;
  task: TaskFolder;
  info: RunInfo;
  /** The run as the chart scores it (with its points). */
  run: ChartRun;
  /** The lines as scored. */
  lines: readonly IterationRecord[];
  record: TaskRecord | undefined;
}

export interface BuiltSample {
  sample: InspectSample;
  summary: InspectSampleSummary;
  usage: UsageByKey;
}

/** A stable id from the parts (Inspect's ids are opaque strings): the same export gives the same ids. */
export function stableId(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 22);
}

function sampleInput(src: SampleSource): string {
  const spec = src.record?.task;
  const what = spec?.repo ?? src.id;
  const target = src.run.baseline ? `, where the target passes ${src.run.baseline.target} tests (the base ${src.run.baseline.init})` : '';
  return spec
    ? `${what}: evolve the code from ${spec.baseSha.slice(0, 12)} towards ${spec.targetSha.slice(0, 12) || 'the target'}${target}.`
    : `${what}${target}.`;
}

/** The iterations as spans, each with what it scored and, inside, each agent try's model calls; the tries' messages in order. */
async function conversation(src: SampleSource, uuid: string): Promise<{ messages: InspectMessage[]; events: InspectEvent[] }> {
  const tries = listArchivedTriesSync(src.task, src.info);
  const messages: InspectMessage[] = [];
  const events: InspectEvent[] = [];
  const first = Date.parse(src.lines[1]?.started_at ?? src.lines[0]?.started_at ?? '');
  const since = (iso: string) => (Number.isFinite(first) && Number.isFinite(Date.parse(iso)) ? Math.max(0, (Date.parse(iso) - first) / 1000) : 0);
  for (const line of src.lines) {
    if (line.iteration === 0) continue;
    const span = `${uuid}-i${line.iteration}`;
    const base = { timestamp: line.started_at, working_start: since(line.started_at) };
    events.push({ event: 'span_begin', ...base, id: span, type: 'iteration', name: `iteration ${line.iteration}` });
    const point = src.run.points.find((p) => p.iteration === line.iteration);
    for (const role of ['architect', 'programmer'] as const) {
      const step = line[role];
      const roleTries = tries.filter((t) => t.iteration === line.iteration && t.role === role);
      if (roleTries.length === 0 && step)
        events.push({ event: 'info', ...base, span_id: span, source: role, data: { role, kind: step.kind, agent: step.agent, tries: step.tries } });
      for (const t of roleTries) await addTry(src, t, role, span, base, messages, events);
    }
    events.push({
      event: 'info',
      ...base,
      timestamp: line.finished_at,
      span_id: span,
      source: 'pytest',
      data: {
        iteration: line.iteration,
        gap: line.gap,
        passed: point?.passed ?? null,
        a: point?.a ?? null,
        regressions: point?.regressions ?? 0,
        commit: line.commit,
        ...(line.pytest_error ? { pytest_error: line.pytest_error } : {}),
        ...(line.note ? { note: line.note } : {}),
      },
    });
    events.push({ event: 'span_end', timestamp: line.finished_at, working_start: since(line.finished_at), id: span });
  }
  return { messages, events };
}

async function addTry(
  src: SampleSource,
  t: { iteration: number; try: number; dir: string },
  role: AgentRole,
  parent: string,
  base: { timestamp: string; working_start: number },
  messages: InspectMessage[],
  events: InspectEvent[],
): Promise<void> {
  const r = src.info.roles[role];
  const transcript = await readTryTranscript({
    iterDir: t.dir,
    role,
    try: t.try,
    iteration: t.iteration,
    run: src.info.name,
    ...(r.kind === 'agent' ? { agent: r.preset ?? 'custom' } : {}),
  });
  if (!transcript) return;
  const span = `${parent}-${role}-${t.try}`;
  const tag = { iteration: t.iteration, role, try: t.try };
  events.push({ event: 'span_begin', ...base, id: span, parent_id: parent, type: 'agent', name: `${role} try ${t.try}`, metadata: { agent: r.label } });
  const conv = tryConversation(transcript, {
    idPrefix: span,
    tag,
    model: roleModel(src.info, role),
    timestamp: base.timestamp,
    workingStart: base.working_start,
  });
  messages.push(...conv.messages);
  for (const e of conv.events) events.push({ ...e, span_id: span });
  if (transcript.notes.length) events.push({ event: 'info', ...base, span_id: span, source: 'transcript', data: { notes: transcript.notes } });
  events.push({ event: 'span_end', ...base, id: span });
}

export async function buildSample(src: SampleSource, evalId: string): Promise<BuiltSample> {
  const uuid = stableId(evalId, src.id);
  const { messages, events } = await conversation(src, uuid);
  const scores = sampleScores(src.run);
  const usage = linesUsage(src.info, src.lines);
  const last = src.lines[src.lines.length - 1];
  const lastAnswer = [...messages].reverse().find((m) => m.role === 'assistant' && m.source === 'generate');
  const metadata: Record<string, unknown> = {
    task: src.id,
    repository: src.record?.task.repo ?? null,
    run: src.info.name,
    kind: src.run.kind,
    agents: src.run.label,
    iterations: src.run.metrics.iterations,
    crashed: src.run.metrics.crashed,
    base_commit: src.record?.task.baseSha ?? null,
    target_commit: src.record?.task.targetSha ?? null,
    ...(src.run.flags.length ? { flags: src.run.flags } : {}),
  };
  const times = {
    ...(src.lines[1] ? { started_at: src.lines[1].started_at } : {}),
    ...(last ? { completed_at: last.finished_at } : {}),
    total_time: src.run.metrics.timeSec,
    working_time: src.run.metrics.timeSec,
  };
  const input = sampleInput(src);
  const target = src.record?.task.targetSha ?? '';
  const sample: InspectSample = {
    id: src.id,
    epoch: 1,
    input,
    target,
    messages,
    output:
      lastAnswer?.role === 'assistant'
        ? {
            model: lastAnswer.model ?? '',
            choices: [{ message: lastAnswer, stop_reason: 'stop' }],
            completion: typeof lastAnswer.content === 'string' ? lastAnswer.content : '',
          }
        : { model: '', choices: [], completion: '' },
    scores,
    metadata,
    store: {},
    events,
    model_usage: usage.model,
    role_usage: usage.role,
    ...times,
    uuid,
    attachments: {},
  };
  const summary: InspectSampleSummary = {
    id: src.id,
    epoch: 1,
    input,
    target,
    metadata,
    scores,
    model_usage: usage.model,
    role_usage: usage.role,
    ...times,
    uuid,
    completed: true,
    message_count: messages.length,
  };
  return { sample, summary, usage };
}
