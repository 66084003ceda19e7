// EvoScore(γ), the paper's future-weighted mean of the normalized changes a(c_1..c_N):
//   e = Σ_{i=1..N} γ^i a_i / Σ_{i=1..N} γ^i
// γ = 1 is the plain mean (the reference's EvoScore); γ > 1 weighs later iterations more,
// γ < 1 earlier ones. Pure: bundled into the chart webview to recompute it as γ moves.

/** Throws unless γ is a finite number > 0. */
export function assertGamma(gamma: number): void {
  if (typeof gamma !== 'number' || !Number.isFinite(gamma) || gamma <= 0) {
    throw new RangeError(`EvoScore needs a finite γ greater than 0 (got ${String(gamma)}).`);
  }
}

/**
 * EvoScore(γ) of a_1..a_N (`a[0]` is a_1: iteration 0, the base, is not part of the sum).
 * Pass the sequence padded to N as the reference pads it (see `summarize`). An empty sequence
 * scores 0. The weights are scaled by a constant (γ^−N for γ ≥ 1, γ^−1 below) so that large N
 * or γ cannot overflow; the ratio is unchanged.
 */
export function evoScore(a: readonly number[], gamma: number): number {
  assertGamma(gamma);
  const n = a.length;
  if (n === 0) return 0;
  if (gamma === 1) return a.reduce((s, v) => s + v, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 1; i <= n; i++) {
    const w = gamma >= 1 ? Math.pow(gamma, i - n) : Math.pow(gamma, i - 1);
    num += w * a[i - 1];
    den += w;
  }
  return num / den;
}
