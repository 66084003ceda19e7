// Aider prints a line per model reply:
//   Tokens: 12k sent, 1.2k cache write, 3.4k cache hit, 345 received. Cost: $0.04 message, $0.10 session.
// Tokens are summed over the run (one `--message` run can take several replies). `sent` is
// taken as the input count as aider reports it; cache figures are not added to it, since
// whether `sent` already includes them depends on the provider. Cost is the last `session`
// figure (the whole run), else the sum of `message` figures.
import { compact, type AgentUsage } from '../../reading/agent-usage';

const LINE = /Tokens:\s*([\d.,]+[kKmM]?)\s+sent\b[^\n]*?([\d.,]+[kKmM]?)\s+received\b([^\n]*)/g;

export function parseAiderUsage(stdout: string): AgentUsage | undefined {
  let input: number | undefined;
  let output: number | undefined;
  let messageCost: number | undefined;
  let sessionCost: number | undefined;
  for (const m of stdout.matchAll(LINE)) {
    const sent = tokenCount(m[1]);
    const received = tokenCount(m[2]);
    if (sent === undefined || received === undefined) continue;
    input = (input ?? 0) + sent;
    output = (output ?? 0) + received;
    const msg = /\$\s*([\d.,]+)\s+message/.exec(m[3]);
    const session = /\$\s*([\d.,]+)\s+session/.exec(m[3]);
    if (msg) messageCost = (messageCost ?? 0) + money(msg[1]);
    if (session) sessionCost = money(session[1]);
  }
  if (input === undefined) return undefined;
  return compact({ inputTokens: input, outputTokens: output, costUsd: sessionCost ?? messageCost });
}

/** `345`, `1,234`, `1.2k`, `12k`, `1.5M` → a whole number of tokens. */
function tokenCount(text: string): number | undefined {
  const m = /^([\d.,]+)([kKmM]?)$/.exec(text);
  if (!m) return undefined;
  const value = Number(m[1].replace(/,/g, ''));
  if (!Number.isFinite(value)) return undefined;
  const scale = m[2] === '' ? 1 : m[2].toLowerCase() === 'k' ? 1_000 : 1_000_000;
  return Math.round(value * scale);
}

function money(text: string): number {
  const v = Number(text.replace(/,/g, ''));
  return Number.isFinite(v) ? v : 0;
}
