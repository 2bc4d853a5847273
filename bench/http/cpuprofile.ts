// Reads a .cpuprofile (`node --cpu-prof` or `bun --cpu-prof`) and sums each function's time,
// its own and with its callees, over the samples of a time window only: both profilers put the
// time a server waits for requests on the last JavaScript frame that ran, so the seconds before
// and after the load would land on some random function. A sample's weight is its time delta
// capped at twice the median delta: a longer gap is the process waiting for a core (a shared
// machine), not time spent in the frame sampled after it.

/** The parts of the Chrome .cpuprofile format this reads. */
interface Profile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      readonly lineNumber: number;
    };
    readonly children?: readonly number[];
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** One function's time in the window, in microseconds. */
export interface FunctionTime {
  /** Name, file (relative to node_modules, dist/ or bench/) and line. */
  readonly name: string;
  /** Samples whose top frame was this function. */
  readonly selfMicros: number;
  /** Samples with this function anywhere on the stack (counted once per sample). */
  readonly totalMicros: number;
}

/** What a window of a profile holds. */
export interface WindowTimes {
  /** Microseconds of samples in the window. */
  readonly micros: number;
  /** Every function seen in the window, by self time, highest first. */
  readonly functions: readonly FunctionTime[];
}

/** Sums the samples taken from `fromMs` to `toMs` after the profile started. */
export function windowTimes(json: string, fromMs: number, toMs: number): WindowTimes {
  const profile = JSON.parse(json) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parents.set(child, node.id);
  }
  const nameOf = (id: number) => {
    const frame = nodes.get(id)!.callFrame;
    const file = frame.url.replace(/^.*node_modules\//, '').replace(/^.*\/(dist|bench)\//, '$1/');
    return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const sorted = [...profile.timeDeltas].sort((a, b) => a - b);
  const cap = 2 * (sorted[Math.floor(sorted.length / 2)] ?? 0);
  let at = 0;
  let micros = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < fromMs * 1000 || at > toMs * 1000) return;
    const delta = Math.min(profile.timeDeltas[i] ?? 0, cap);
    micros += delta;
    const top = nameOf(id);
    self.set(top, (self.get(top) ?? 0) + delta);
    const seen = new Set<string>();
    for (let frame: number | undefined = id; frame !== undefined; frame = parents.get(frame)) {
      const name = nameOf(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + delta);
    }
  });
  const functions = [...total.keys()]
    .map((name) => ({ name, selfMicros: self.get(name) ?? 0, totalMicros: total.get(name)! }))
    .sort((a, b) => b.selfMicros - a.selfMicros);
  return { micros, functions };
}
