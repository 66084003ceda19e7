// Passes a score should not count: the reference counts every test pytest says passed, so code
// under test can raise its own score by adding passing tests the target never had (a parametrized
// table it owns grows, a test module it ships). The one definition: node ids that pass now and
// that neither the target nor the base run passed. The base run's passes are the harness's own
// measurement of the code as the task began, so an environment where a test the target fails
// happens to pass does not flag every iteration. Pure: no node imports.

/** At most this many ids are listed on a line; `inflatedCount` says how many there were. */
export const MAX_INFLATED_LISTED = 50;

export function inflatedIds(nowPassed: ReadonlySet<string>, targetPassed: ReadonlySet<string>, basePassed?: ReadonlySet<string>): string[] {
  return [...nowPassed].filter((id) => !targetPassed.has(id) && !basePassed?.has(id)).sort();
}
