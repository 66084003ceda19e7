// The part of Inspect's eval log schema an Inspect log of ours fills, as TypeScript types. The
// names and meanings are Inspect's (inspect_ai/log/_log.py: EvalLog, EvalSpec, EvalPlan,
// EvalResults, EvalStats, EvalSample, EvalSampleSummary, EvalSampleReductions; model/_chat_message.py,
// model/_model_output.py (ModelUsage: input_tokens excludes cache reads), tool/_tool_call.py,
// event/_model.py, event/_span.py, event/_info.py, scorer/_metric.py's Score). Optional fields we have no value
// for are left out, as Inspect's own writer leaves out what is unset. Pure types.

export interface InspectModelUsage {
  /** Input tokens charged at full rate: cache reads and writes are not in it. */
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_cache_read?: number;
  reasoning_tokens?: number;
  total_cost?: number;
}

export interface InspectContentText {
  type: 'text';
  text: string;
}

export interface InspectContentReasoning {
  type: 'reasoning';
  reasoning: string;
}

export type InspectContent = InspectContentText | InspectContentReasoning;

export interface InspectToolCall {
  id: string;
  function: string;
  arguments: Record<string, unknown>;
  type: 'function';
  /** The arguments were not a JSON object: what they were, as text. */
  parse_error?: string;
}

interface InspectMessageBase {
  id: string;
  content: string | InspectContent[];
  source?: 'input' | 'generate';
  metadata?: Record<string, unknown>;
}

export interface InspectSystemMessage extends InspectMessageBase {
  role: 'system';
}

export interface InspectUserMessage extends InspectMessageBase {
  role: 'user';
}

export interface InspectAssistantMessage extends InspectMessageBase {
  role: 'assistant';
  tool_calls?: InspectToolCall[];
  model?: string;
}

export interface InspectToolMessage extends InspectMessageBase {
  role: 'tool';
  tool_call_id?: string;
  function?: string;
  error?: { type: 'unknown'; message: string };
}

export type InspectMessage = InspectSystemMessage | InspectUserMessage | InspectAssistantMessage | InspectToolMessage;

export interface InspectModelOutput {
  model: string;
  choices: Array<{ message: InspectAssistantMessage; stop_reason: string }>;
  completion: string;
  usage?: InspectModelUsage;
  time?: number;
  error?: string;
}

interface InspectEventBase {
  timestamp: string;
  working_start: number;
  span_id?: string;
  metadata?: Record<string, unknown>;
}

export interface InspectSpanBeginEvent extends InspectEventBase {
  event: 'span_begin';
  id: string;
  parent_id?: string;
  type: string;
  name: string;
}

export interface InspectSpanEndEvent extends InspectEventBase {
  event: 'span_end';
  id: string;
}

export interface InspectModelEvent extends InspectEventBase {
  event: 'model';
  model: string;
  role?: string;
  input: InspectMessage[];
  tools: Array<{ name: string; description: string; parameters: { type: 'object'; properties: Record<string, never>; required: string[] } }>;
  tool_choice: 'auto';
  config: Record<string, never>;
  output: InspectModelOutput;
  retries?: number;
  error?: string;
  working_time?: number;
}

export interface InspectInfoEvent extends InspectEventBase {
  event: 'info';
  source: string;
  data: Record<string, unknown>;
}

export type InspectEvent = InspectSpanBeginEvent | InspectSpanEndEvent | InspectModelEvent | InspectInfoEvent;

/** A score's value is a number or a boolean here (Inspect's Value also allows strings and lists). */
export interface InspectScore {
  value: number | boolean;
  explanation?: string;
  metadata?: Record<string, unknown>;
}

export interface InspectSample {
  id: string;
  epoch: number;
  input: string;
  target: string;
  messages: InspectMessage[];
  output: InspectModelOutput;
  scores: Record<string, InspectScore>;
  metadata: Record<string, unknown>;
  store: Record<string, never>;
  events: InspectEvent[];
  model_usage: Record<string, InspectModelUsage>;
  role_usage: Record<string, InspectModelUsage>;
  started_at?: string;
  completed_at?: string;
  total_time?: number;
  working_time?: number;
  uuid: string;
  attachments: Record<string, never>;
}

export interface InspectSampleSummary {
  id: string;
  epoch: number;
  input: string;
  target: string;
  metadata: Record<string, unknown>;
  scores: Record<string, InspectScore>;
  model_usage: Record<string, InspectModelUsage>;
  role_usage: Record<string, InspectModelUsage>;
  started_at?: string;
  completed_at?: string;
  total_time?: number;
  working_time?: number;
  uuid: string;
  completed: boolean;
  message_count: number;
}

export interface InspectModelConfig {
  model: string;
  config: Record<string, never>;
  args: Record<string, unknown>;
}

export interface InspectEvalSpec {
  eval_id: string;
  run_id: string;
  created: string;
  task: string;
  task_id: string;
  task_version: number;
  task_attribs: Record<string, never>;
  task_args: Record<string, unknown>;
  task_args_passed: Record<string, unknown>;
  solver: string;
  dataset: { name: string; location: string; samples: number; sample_ids: string[]; shuffled: boolean };
  model: string;
  model_generate_config: Record<string, never>;
  model_args: Record<string, never>;
  model_roles: Record<string, InspectModelConfig>;
  /** Inspect's own fields (epochs) and the experiment's settings beside them (Inspect's reader ignores keys it does not know; metadata keeps them too). */
  config: Record<string, unknown>;
  packages: Record<string, string>;
  metadata: Record<string, unknown>;
}

export interface InspectPlan {
  name: 'plan';
  steps: Array<{ solver: string; params: Record<string, unknown> }>;
  config: Record<string, never>;
}

export interface InspectEvalScore {
  name: string;
  scorer: string;
  scored_samples: number;
  unscored_samples: number;
  params: Record<string, unknown>;
  metrics: Record<string, { name: string; value: number; params: Record<string, never> }>;
}

export interface InspectResults {
  total_samples: number;
  completed_samples: number;
  scores: InspectEvalScore[];
}

export interface InspectStats {
  started_at: string;
  completed_at: string;
  model_usage: Record<string, InspectModelUsage>;
  role_usage: Record<string, InspectModelUsage>;
}

/** header.json: the log without its samples. */
export interface InspectLogHeader {
  version: 2;
  status: 'success';
  eval: InspectEvalSpec;
  plan: InspectPlan;
  results: InspectResults;
  stats: InspectStats;
  invalidated: false;
}

export interface InspectReduction {
  scorer: string;
  samples: Array<InspectScore & { sample_id: string }>;
}

/** An entry of listing.json (log/_file.py's LogOverview, what write_log_listing makes of a header): what a viewer lists a log by. */
export interface InspectLogOverview {
  eval_id: string;
  run_id: string;
  task: string;
  task_id: string;
  task_version: number;
  version: 2;
  status: 'success';
  invalidated: false;
  model: string;
  model_roles: Record<string, string>;
  started_at: string;
  completed_at: string;
  primary_metric?: { name: string; value: number; params: Record<string, never> };
}
