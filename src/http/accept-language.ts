/**
 * Picks the best of `locales` for an `Accept-Language` header: q-values respected, an exact
 * tag first, then a match on the language alone (`en-GB` ↔ `en`), else the first locale.
 */
export function negotiateLanguage(header: string | undefined, locales: readonly string[]): string {
  const fallback = locales[0] ?? 'en';
  if (!header || locales.length === 0) return fallback;
  const wanted = parseAcceptLanguage(header);
  const lower = locales.map((l) => l.toLowerCase());
  for (const tag of wanted) {
    if (tag === '*') return fallback;
    const exact = lower.indexOf(tag);
    if (exact !== -1) return locales[exact]!;
    const lang = primary(tag);
    const byLang = lower.findIndex((l) => l === lang || primary(l) === lang);
    if (byLang !== -1) return locales[byLang]!;
  }
  return fallback;
}

/** The language tags of an `Accept-Language` header, lower case, best first, q=0 left out. */
export function parseAcceptLanguage(header: string): string[] {
  const entries: { tag: string; q: number; i: number }[] = [];
  const parts = header.split(',');
  // A header longer than this is abuse, not preference; the first entries are enough.
  const max = Math.min(parts.length, 32);
  for (let i = 0; i < max; i++) {
    const [rawTag, ...params] = parts[i]!.split(';');
    const tag = rawTag!.trim().toLowerCase();
    if (!tag || !/^[a-z0-9*-]{1,35}$/.test(tag)) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!(q > 0) || q > 1) continue;
    entries.push({ tag, q, i });
  }
  entries.sort((a, b) => b.q - a.q || a.i - b.i);
  return entries.map((e) => e.tag);
}

function primary(tag: string): string {
  const dash = tag.indexOf('-');
  return dash === -1 ? tag : tag.slice(0, dash);
}
