// The metrics, pure TypeScript (no node imports): shared by the extension, the CLI and the
// chart webview.
export * from './normalized-change';
export * from './evo-score';
export * from './reference-summary';
export * from './regressions';
export * from './inflated';
export * from './run-flags';
export * from './transitions';
export * from './run-metrics';
