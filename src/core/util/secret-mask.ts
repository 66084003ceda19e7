// The one masking of secrets for everything sweci writes or shows: run.json, sweci-experiment.json,
// the status files, logs, archives, calls records, the output channel, and the check that keeps
// them out of the Slurm and Kubernetes files. A secret is a value sweci was given as one (an API
// key, a role's env, the gateway's token) or one written into a setting the usual ways
// (`secretsInSetting`); once known, the value is masked wherever it appears, even where an agent
// echoed it.
import { tokenizeCommand } from './argv-tokenizer';

export const MASK = '***';
/** Shorter values ("1", "true") are too common to be secrets and would blot out the text. */
const MIN_SECRET_LENGTH = 6;

export class SecretMask {
  private readonly secrets: string[];

  constructor(values: Iterable<string | undefined>) {
    const real = [...values].filter((v): v is string => typeof v === 'string' && v.length >= MIN_SECRET_LENGTH);
    // Inside JSON text a secret holding a quote or a backslash appears escaped.
    const forms = real.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
    this.secrets = [...new Set(forms)].sort((a, b) => b.length - a.length);
  }

  /** The longest form of a secret: how much of a stream to hold back (StreamMask). */
  get longest(): number {
    return this.secrets[0]?.length ?? 0;
  }

  mask(text: string): string {
    let out = text;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join(MASK);
    return out;
  }

  /** Whether `text` holds a secret this mask knows. */
  holds(text: string): boolean {
    return this.secrets.some((s) => text.includes(s));
  }
}

/**
 * Masks a stream chunk by chunk. A secret may be split across chunks, so the last
 * (longest secret − 1) characters are held back until more text or the end arrives.
 */
export class StreamMask {
  private pending = '';

  constructor(
    private readonly secrets: SecretMask,
    private readonly emit: (text: string) => void,
  ) {}

  push(chunk: string): void {
    const keep = Math.max(0, this.secrets.longest - 1);
    const text = this.secrets.mask(this.pending + chunk);
    const cut = Math.max(0, text.length - keep);
    this.pending = text.slice(cut);
    if (cut > 0) this.emit(text.slice(0, cut));
  }

  flush(): void {
    if (this.pending) this.emit(this.secrets.mask(this.pending));
    this.pending = '';
  }
}

/** `ANTHROPIC_API_KEY=…`, `GH_TOKEN=…`: a variable named for a secret, set inline. */
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD))=(.+)$/i;
/** `--key`, `--api-key`, `-token`, `--client_secret`, `--password`: an option named for a secret (the last part of its name). */
const SECRET_OPTION = /^--?(?:[A-Za-z0-9]+[-_])*(?:api)?(?:key|token|secret|password|passwd)$/i;
/** Keys in the shapes providers issue them (OpenAI and Anthropic, Google, GitHub, Hugging Face, AWS, Slack). */
const KEY_SHAPES = [
  /\bsk-[A-Za-z0-9_-]{16,}/gi,
  /\bAIza[A-Za-z0-9_-]{30,}/g,
  /\b(?:ghp|gho|ghu|ghs|github_pat)_[A-Za-z0-9_]{20,}/g,
  /\bhf_[A-Za-z0-9]{20,}/g,
  /\bAKIA[A-Z0-9]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
];

/** A secret written into a setting, and the variable it was assigned to if any. */
interface Finding {
  value: string;
  variable?: string;
}

/**
 * Secrets written into a setting (an agent's command line or extra arguments, a model name, a
 * run flag; text or its words): the value of a variable or an option named for a secret, and
 * anything shaped like a provider's key. What sweci records of the setting then holds MASK in
 * their place.
 */
export function secretsInSetting(setting: string | readonly string[] | undefined): string[] {
  return [...new Set(findings(setting).map((f) => f.value))].filter((v) => v.length >= MIN_SECRET_LENGTH);
}

function findings(setting: string | readonly string[] | undefined): Finding[] {
  if (!setting || setting.length === 0) return [];
  const words = typeof setting === 'string' ? wordsOf(setting) : setting;
  const text = typeof setting === 'string' ? setting : setting.join(' ');
  const found: Finding[] = [];
  for (const shape of KEY_SHAPES) for (const m of text.matchAll(shape)) found.push({ value: m[0] });
  words.forEach((word, i) => {
    const assigned = ASSIGNMENT.exec(word);
    if (assigned) found.push({ value: assigned[2], variable: assigned[1] });
    const eq = word.indexOf('=');
    if (eq > 0 && SECRET_OPTION.test(word.slice(0, eq))) found.push({ value: word.slice(eq + 1) });
    else if (SECRET_OPTION.test(word) && i + 1 < words.length && !words[i + 1].startsWith('-')) found.push({ value: words[i + 1] });
  });
  return found.filter((f) => f.value.length > 0);
}

/** A command line's words as the agent gets them; text that is no valid command, by whitespace. */
function wordsOf(text: string): string[] {
  try {
    return tokenizeCommand(text);
  } catch {
    return text.split(/\s+/).filter(Boolean);
  }
}

/**
 * For a file sweci writes for a cluster (a Slurm script, a Kubernetes Job), which must hold no
 * secret and cannot mask one (the job would run with the mask): the flag among `words` that
 * holds one (a value of `keys`, or one written the usual ways, however short) and the variable
 * it was assigned to; undefined when none does.
 */
export function flagHoldingSecret(words: readonly string[], keys: Iterable<string>): { flag: string; variable?: string } | undefined {
  const found = [...findings(words), ...words.flatMap((w) => findings(w))];
  const known = new SecretMask(keys);
  const at = words.findIndex((w) => known.holds(w) || found.some((f) => w.includes(f.value)));
  if (at < 0) return undefined;
  const word = words[at];
  const variable = found.find((f) => f.variable && word.includes(f.value))?.variable;
  const flag = word.startsWith('-') ? word.replace(/=.*/s, '') : at > 0 && words[at - 1].startsWith('-') ? words[at - 1] : 'a word';
  return { flag, ...(variable ? { variable } : {}) };
}
