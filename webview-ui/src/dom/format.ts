// Numbers as a person reads them in the inspector.

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatTokens(n: number): string {
  return integer.format(n);
}

export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(fraction >= 0.995 || fraction === 0 ? 0 : 1)}%`;
}

export function formatScore(x: number): string {
  return x.toFixed(2);
}

export function formatBytes(chars: number): string {
  if (chars >= 1_000_000) return `${(chars / 1_000_000).toFixed(1)} M characters`;
  if (chars >= 10_000) return `${Math.round(chars / 1000)} k characters`;
  return `${chars} characters`;
}

/** Bidirectional control characters (U+202A–U+202E, U+2066–U+2069) can make text read in a
 *  different order than it is stored ("Trojan source"); the inspector shows them isolated and
 *  flags the message. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

export function hasBidiControls(text: string): boolean {
  return BIDI_CONTROLS.test(text);
}
