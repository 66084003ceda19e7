// Python's repr() of a float, as json.dumps writes floats: what python-json.ts writes a float token as.

/** Python's repr of a float: the shortest round-trip digits, exponent below 1e-4 and from 1e16. */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // toExponential() with no argument gives the shortest digits that round-trip, as repr does.
  const [mantissa, exp] = x.toExponential().split('e');
  const e = Number(exp);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  let body: string;
  if (e < -4 || e >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    body = `${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  } else if (e < 0) {
    body = `0.${'0'.repeat(-e - 1)}${digits}`;
  } else {
    const whole = digits.slice(0, e + 1).padEnd(e + 1, '0');
    const frac = digits.slice(e + 1);
    body = `${whole}.${frac || '0'}`;
  }
  return negative ? `-${body}` : body;
}
