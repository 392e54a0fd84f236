/**
 * `5,000`: a count with thousands separators, as `Intl.NumberFormat('en-US')` writes it. Whole
 * numbers (every count warden shows) are grouped here: the first ICU formatter of a process costs
 * ~8 ms to build, and a burst's group header was the first to ask for one, inside a frame (profiled).
 * Anything else (a fraction, a number too large to be exact) goes to that formatter, made on first use.
 */
let grouped: Intl.NumberFormat | undefined;

export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) {
    grouped ??= new Intl.NumberFormat('en-US');
    return grouped.format(n);
  }
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  // Intl keeps the sign of -0.
  return n < 0 || Object.is(n, -0) ? `-${out}` : out;
}
