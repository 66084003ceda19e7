// The Job's name, made from the experiment folder's: a DNS-1123 label short enough for the pods'
// hostnames.
import { createHash } from 'node:crypto';

/** Derived names stay this short: Kubernetes appends `-<index>` to form each pod's hostname. */
const DERIVED_NAME_MAX = 52;

/** A valid Job name for an experiment folder: `sweci-<slug>`, with a short hash if cut. */
export function k8sJobName(experimentName: string): string {
  const base = experimentName.split(/[\\/]/).filter(Boolean).pop() ?? '';
  const slug = base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^sweci(-|$)/, '');
  const name = slug ? `sweci-${slug}` : 'sweci';
  if (name.length <= DERIVED_NAME_MAX) return name;
  // Cut names of different experiments could collide; the hash of the full name keeps them apart.
  const hash = createHash('sha256').update(experimentName).digest('hex').slice(0, 6);
  return `${name.slice(0, DERIVED_NAME_MAX - hash.length - 1).replace(/-+$/, '')}-${hash}`;
}
