/**
 * `bench:fresh --deopts`: which functions V8 threw optimised code away for inside a fresh
 * isolate's first request. The startup warm-up optimises code on a small build; where the national
 * data reaches a branch the warm-up never ran, V8 has no type feedback for it, deoptimises, and
 * runs the rest of the request in its lower tiers (docs/SEARCH.md, docs/SUGGESTIONS.md). The
 * timing child marks its timed requests on stdout (FRESH_TRACE=1) and runs with `--trace-deopt`;
 * this reads the deoptimisations between the first request's marks.
 */

export interface Deopt {
  /** The function's name as V8 prints it (`(anonymous)` when it has none). */
  readonly name: string;
  /** The code thrown away: TURBOFAN_JS, MAGLEV, … */
  readonly tier: string;
  readonly reason: string;
  readonly offset: number;
}

/** How the timing child marks a timed request's start and end on stdout (FRESH_TRACE=1). */
export const START = "[timed request starts";
export const END = "[timed request ends";
const BAILOUT =
  /^\[bailout \(kind: [^,]+, reason: (.*)\): begin\. deoptimizing [^<]*<JSFunction ([^ >(]*)[^<]*<Code ([A-Z_]+)>.*bytecode offset (\d+)/;

/** The deoptimisations inside the first timed request of a child's stdout. */
export function firstRequestDeopts(stdout: string): Deopt[] {
  const deopts: Deopt[] = [];
  let inside = false;
  for (const line of stdout.split("\n")) {
    if (line.startsWith(START)) inside = true;
    else if (line.startsWith(END)) return deopts;
    else if (inside) {
      const match = BAILOUT.exec(line);
      if (match !== null)
        deopts.push({
          name: match[2] || "(anonymous)",
          tier: match[3] ?? "",
          reason: match[1] ?? "",
          offset: Number(match[4]),
        });
    }
  }
  return deopts;
}

/**
 * The census lines: per function and reason, in how many first requests it was deoptimised, most
 * first, of `requests` requests.
 */
export function deoptCensus(perRequest: readonly (readonly Deopt[])[]): string[] {
  const requests = new Map<string, number>();
  for (const deopts of perRequest) {
    const keys = new Set(
      deopts.map((d) => `${d.name} (${d.tier}, bytecode offset ${d.offset}): ${d.reason}`),
    );
    for (const key of keys) requests.set(key, (requests.get(key) ?? 0) + 1);
  }
  const rows = [...requests].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return [
    `deoptimisations inside ${perRequest.length} first requests (requests: function (code, where): reason):`,
    ...(rows.length === 0
      ? ["  none"]
      : rows.map(([key, n]) => `${String(n).padStart(5)}  ${key}`)),
  ];
}
