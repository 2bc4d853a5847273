// Formatting a Date costs more than building the rest of a line, and a busy server writes many
// lines per millisecond, so each timestamp is formatted once and reused while the clock stands.
let isoMs = Number.NaN;
let isoText = '';
let localSecond = Number.NaN;
let localText = '';

/**
 * The UTC ISO 8601 timestamp of `ms` (epoch milliseconds), as in `2026-11-22T14:03:07.123Z`.
 * Cached per millisecond.
 */
export function isoTimestamp(ms: number): string {
  if (ms !== isoMs) {
    isoText = new Date(ms).toISOString();
    isoMs = ms;
  }
  return isoText;
}

/**
 * The local date and time of `ms` (epoch milliseconds) as `YYYY-MM-DD HH:MM:SS`.
 * Cached per second.
 */
export function localTimestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== localSecond) {
    localText = formatLocal(new Date(ms));
    localSecond = second;
  }
  return localText;
}

function formatLocal(date: Date): string {
  return (
    `${String(date.getFullYear()).padStart(4, '0')}-${pad(date.getMonth() + 1)}-` +
    `${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:` +
    pad(date.getSeconds())
  );
}

function pad(value: number): string {
  return value < 10 ? `0${value}` : `${value}`;
}
