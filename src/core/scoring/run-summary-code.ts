// Which scoring code the per-run summary cache holds numbers of (run-summary-cache.ts): a hash of
// the sources that compute them. A cache from other code is never read. When those sources
// change, test/unit/scoring/run-summary-cache.test.ts fails and prints the new value for here.
export const RUN_SUMMARY_CODE = '3c7ff90a5519ad9a';
