/**
 * The cap on one log entry: an entry longer than MAX_ENTRY_BYTES is written cut short, with a
 * visible mark saying how much was left out, so no value (a huge stack, a cyclic structure)
 * can make a line that floods the log pipe or that a log shipper drops.
 * @module
 */

/** The longest entry written, in UTF-8 bytes with its newline: 64 KiB. */
export const MAX_ENTRY_BYTES = 65_536;

// A UTF-16 unit is at most 3 UTF-8 bytes: a line this short cannot be over the cap, and
// checking its length is all the common case costs.
const SURELY_FITS = Math.floor(MAX_ENTRY_BYTES / 3);

/** True when `line` is longer than MAX_ENTRY_BYTES. */
export function overCap(line: string): boolean {
  return line.length > SURELY_FITS && Buffer.byteLength(line) > MAX_ENTRY_BYTES;
}

/** `text` cut to `keep` characters (never inside a surrogate pair) and the truncation mark. */
export function truncateText(text: string, keep: number): string {
  if (text.length <= keep) return text;
  let end = Math.max(0, keep);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}… [truncated ${text.length - end} characters]`;
}

/**
 * The line `encode(keep)` makes once it fits under the cap: `full` when it already does, else
 * encoded again keeping fewer characters of the long parts until it fits.
 */
export function capLine(full: string, encode: (keep: number) => string): string {
  let line = full;
  let keep = full.length;
  while (overCap(line) && keep > 0) {
    // Shrink in proportion to the excess, with room for the marks and the escapes.
    keep = Math.floor((keep * (MAX_ENTRY_BYTES - 512)) / Buffer.byteLength(line));
    line = encode(keep);
  }
  return line;
}
