// A heatmap cell's outcome in the display language. heatmap-layout.ts and heatmap-diff.ts name
// the outcomes with pytest's words (missing, passed, failed, error), which the page also uses as
// ids; the key and the hover show them through these literal l10n.t calls (a call on a variable
// would not reach the bundle).
import * as l10n from '@vscode/l10n';

const OUTCOMES: Readonly<Record<string, () => string>> = {
  missing: () => l10n.t('missing'),
  passed: () => l10n.t('passed'),
  failed: () => l10n.t('failed'),
  error: () => l10n.t('error'),
};

/** heatmapHit's status ("passed", …) as the page shows it. */
export const outcomeText = (status: string): string => OUTCOMES[status]?.() ?? status;

/** What each cell code of a difference heatmap (heatmap-diff.ts) means, naming the two runs compared. */
export function diffOutcomeText(code: string, first: string, second: string): string {
  switch (code) {
    case '1':
      return l10n.t('both pass');
    case '2':
      return l10n.t('only {0} passes', first);
    case '3':
      return l10n.t('only {0} passes', second);
    default:
      return l10n.t('neither passes');
  }
}
