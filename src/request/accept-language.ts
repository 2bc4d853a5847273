/** One entry of an `Accept-Language` header. */
interface Range {
  readonly tag: string;
  readonly q: number;
}

/**
 * Picks the best of `locales` for an `Accept-Language` header: q-values respected, an exact
 * tag first, then a match on the language alone (`en-GB` ↔ `en`); `*` stands for any locale no
 * other entry names, and `q=0` excludes what it names, the most specific entry deciding
 * (`*, en;q=0` is anything but English; `fr;q=0, fr-CA` is Canadian French only).
 * Falls back to the first locale not excluded, else the first locale.
 */
export function negotiateLanguage(header: string | undefined, locales: readonly string[]): string {
  const fallback = locales[0] ?? 'en';
  if (!header || locales.length === 0) return fallback;
  const ranges = parseRanges(header);
  const lower = locales.map((l) => l.toLowerCase());
  const excluded = lower.map((l) => qualityOf(ranges, l) === 0);
  const allowed = (i: number) => i !== -1 && !excluded[i];
  for (const { tag, q } of ranges) {
    if (q === 0) continue;
    if (tag === '*') {
      const other = lower.findIndex(
        (l, i) => allowed(i) && !ranges.some((r) => r.tag !== '*' && covers(r.tag, l)),
      );
      if (other !== -1) return locales[other]!;
      continue;
    }
    const exact = lower.indexOf(tag);
    if (allowed(exact)) return locales[exact]!;
    const lang = primary(tag);
    const byLang = lower.findIndex((l, i) => allowed(i) && (l === lang || primary(l) === lang));
    if (byLang !== -1) return locales[byLang]!;
  }
  const first = excluded.indexOf(false);
  return first === -1 ? fallback : locales[first]!;
}

/** Every well-formed entry, q=0 ones included, best first (ties in header order). */
function parseRanges(header: string): Range[] {
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
    if (!(q >= 0) || q > 1) continue;
    entries.push({ tag, q, i });
  }
  entries.sort((a, b) => b.q - a.q || a.i - b.i);
  return entries;
}

/** The q of the most specific range naming `locale` (`*` last), or undefined when none does. */
function qualityOf(ranges: readonly Range[], locale: string): number | undefined {
  let best: Range | undefined;
  for (const r of ranges) {
    if (r.tag === '*' || !covers(r.tag, locale)) continue;
    if (!best || r.tag.length > best.tag.length) best = r;
  }
  return best ? best.q : ranges.find((r) => r.tag === '*')?.q;
}

/** Whether the range `tag` names `locale`: the same tag, or a prefix of it (`en` ↔ `en-gb`). */
function covers(tag: string, locale: string): boolean {
  return locale === tag || locale.startsWith(`${tag}-`);
}

function primary(tag: string): string {
  const dash = tag.indexOf('-');
  return dash === -1 ? tag : tag.slice(0, dash);
}
