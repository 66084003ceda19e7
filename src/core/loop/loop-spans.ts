// The loop's spans, made from the events it already tells its views: task (one call of a run)
// → iteration → step try (role, try, agent) and pytest with its gap. Each agent try's span is
// registered by its calls file, where the gateway finds it as the parent of the try's model
// calls. No free text goes on a span (a failure's message may quote what an agent printed).
// Built from events so the loop itself has no telemetry in it: a listener's work is a
// few objects per step, and the batch processor sends them later.
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import * as path from 'node:path';
import { callsFileBeside } from '../agents/model-route';
import type { LoopEvent, LoopEventListener } from './loop-types';
import { activeTracing, forgetTry, parentOf, registerTry, type TraceParent, type Tracing } from '../telemetry/tracing';

export interface LoopTraceScope {
  taskDir: string;
  run: string;
  /** The experiment's span, when the run is one task of a batch. */
  parent?: TraceParent;
}

interface OpenTry {
  span: Span;
  callsFile?: string;
}

/** A listener that makes the loop's spans, chained before `next`; `next` alone when telemetry is off. */
export function tracedListener(scope: LoopTraceScope, next: LoopEventListener | undefined): LoopEventListener | undefined {
  const tracing = activeTracing();
  if (!tracing) return next;
  const spans = loopSpans(tracing, scope);
  return (e) => {
    try {
      spans(e);
    } catch {
      // Telemetry must never stop a run.
    }
    next?.(e);
  };
}

function loopSpans(tracing: Tracing, scope: LoopTraceScope): LoopEventListener {
  const { tracer } = tracing;
  const task = path.basename(scope.taskDir);
  const taskSpan = tracer.startSpan(
    `sweci.task ${task}`,
    { kind: SpanKind.INTERNAL, attributes: { 'sweci.task': task, 'sweci.run': scope.run } },
    scope.parent,
  );
  const taskCtx = parentOf(taskSpan);
  const iterations = new Map<number, Span>();
  const tries = new Map<string, OpenTry>();
  /** pytest's span stays open until its iteration is recorded, which gives it its gap. */
  let pytest: { span: Span; iteration: number; endedAt?: number } | undefined;

  const iterationSpan = (n: number): Span => {
    let span = iterations.get(n);
    if (!span) {
      span = tracer.startSpan(`sweci.iteration ${n}`, { attributes: { 'sweci.iteration': n, 'sweci.run': scope.run } }, taskCtx);
      iterations.set(n, span);
    }
    return span;
  };
  const endPytest = (gap?: number) => {
    if (!pytest) return;
    if (gap !== undefined) pytest.span.setAttribute('sweci.gap', gap);
    pytest.span.end(pytest.endedAt);
    pytest = undefined;
  };
  const key = (iteration: number, step: string, n: number) => `${iteration}/${step}/${n}`;

  return (e: LoopEvent) => {
    switch (e.type) {
      case 'step-started': {
        const parent = parentOf(iterationSpan(e.iteration));
        if (e.step === 'pytest') {
          endPytest();
          pytest = { span: tracer.startSpan('sweci.pytest', { attributes: { 'sweci.iteration': e.iteration } }, parent), iteration: e.iteration };
          return;
        }
        const agent = e.agent ?? e.kind ?? 'agent';
        const span = tracer.startSpan(
          `invoke_agent ${agent}`,
          {
            kind: SpanKind.INTERNAL,
            attributes: {
              'gen_ai.operation.name': 'invoke_agent',
              'gen_ai.agent.name': agent,
              'sweci.role': e.step,
              'sweci.try': e.try,
              'sweci.iteration': e.iteration,
              ...(e.kind ? { 'sweci.agent.kind': e.kind } : {}),
            },
          },
          parent,
        );
        const open: OpenTry = { span };
        if (e.logFile) {
          open.callsFile = callsFileBeside(e.logFile);
          registerTry(open.callsFile, parentOf(span));
        }
        tries.set(key(e.iteration, e.step, e.try), open);
        return;
      }
      case 'step-finished': {
        if (e.step === 'pytest') {
          if (!pytest) return;
          pytest.span.setAttribute('sweci.duration_ms', e.durationMs);
          if (!e.ok) pytest.span.setStatus({ code: SpanStatusCode.ERROR });
          pytest.endedAt = Date.now();
          return;
        }
        const k = key(e.iteration, e.step, e.try);
        const open = tries.get(k);
        if (!open) return;
        tries.delete(k);
        if (!e.ok) open.span.setStatus({ code: SpanStatusCode.ERROR });
        open.span.end();
        if (open.callsFile) forgetTry(open.callsFile);
        return;
      }
      case 'iteration-recorded': {
        const r = e.record;
        if (pytest?.iteration === r.iteration) endPytest(r.gap);
        const span = iterationSpan(r.iteration);
        span.setAttributes({
          'sweci.gap': r.gap,
          'sweci.target_passed': r.target_passed,
          ...(r.passed !== null ? { 'sweci.passed': r.passed } : {}),
          'sweci.regressions': r.regressions.length,
        });
        span.end();
        iterations.delete(r.iteration);
        return;
      }
      case 'loop-finished': {
        endPytest();
        for (const [k, open] of tries) {
          open.span.end();
          if (open.callsFile) forgetTry(open.callsFile);
          tries.delete(k);
        }
        for (const [n, span] of iterations) {
          span.end();
          iterations.delete(n);
        }
        taskSpan.setAttributes({
          'sweci.stop_reason': e.reason,
          'sweci.iterations': e.iterations,
          ...(e.lastGap !== undefined ? { 'sweci.gap': e.lastGap } : {}),
        });
        if (e.reason === 'failed' || e.reason === 'budget-exhausted') taskSpan.setStatus({ code: SpanStatusCode.ERROR, message: e.reason });
        taskSpan.end();
        return;
      }
      default:
        return;
    }
  };
}
