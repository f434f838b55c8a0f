// Thousands separators without Intl: toLocaleString builds a number formatter on every call,
// which costs more than the rest of a summary's rendering. Always "1,234,567" (English style),
// so the summary text does not depend on the machine's locale.

export function formatCount(n: number): string {
  const v = Math.round(n);
  const s = String(Math.abs(v));
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && (s.length - i) % 3 === 0) out += ',';
    out += s[i];
  }
  return v < 0 ? `-${out}` : out;
}
