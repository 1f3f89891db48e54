/**
 * `bench:fresh --deopts`, its other half: which functions V8 compiled inside a fresh isolate's
 * first request, and for how long. With Cloudflare's flags (bench/cloudflare-v8.ts) every compile
 * a request triggers runs on its thread: a function the startup warm-up did not make hot enough
 * is compiled by the first request that does. The timing child runs with `--trace-opt` and marks
 * its timed requests on stdout; this reads the compiles V8 reported done between the first
 * request's marks, with the time V8 measured (its three phases summed).
 */
import { END, START } from "./deopt-census.ts";

export interface Compile {
  /** The function's name as V8 prints it (`(anonymous)` when it has none). */
  readonly name: string;
  /** MAGLEV, TURBOFAN_JS, …, with " OSR" for an on-stack replacement. */
  readonly tier: string;
  readonly ms: number;
}

const COMPLETED =
  /^\[completed compiling \S+ <JSFunction ([^ >(]*)[^>]*> \(target (\w+)\)( OSR)? - took ([\d.]+), ([\d.]+), ([\d.]+) ms\]/;

/** The compiles V8 reported done in `text` (its `--trace-opt` output). */
export function compilesIn(text: string): Compile[] {
  const compiles: Compile[] = [];
  for (const line of text.split("\n")) {
    const match = COMPLETED.exec(line);
    if (match !== null)
      compiles.push({
        name: match[1] || "(anonymous)",
        tier: `${match[2] ?? ""}${match[3] ?? ""}`,
        ms: Number(match[4]) + Number(match[5]) + Number(match[6]),
      });
  }
  return compiles;
}

/** The compiles inside the first timed request of a child's stdout (bench:fresh's marks). */
export function firstRequestCompiles(stdout: string): Compile[] {
  const start = stdout.indexOf(START);
  if (start < 0) return [];
  const end = stdout.indexOf(END, start);
  return compilesIn(stdout.slice(start, end < 0 ? undefined : end));
}

/**
 * The census lines: the compile time per first request (median and most), then per function and
 * tier the requests that compiled it and its time summed over them, dearest first, `top` rows.
 */
export function compileCensus(perRequest: readonly (readonly Compile[])[], top = 25): string[] {
  const perFunction = new Map<string, { requests: number; ms: number }>();
  for (const compiles of perRequest) {
    const seen = new Set<string>();
    for (const c of compiles) {
      const key = `${c.name} (${c.tier})`;
      const row = perFunction.get(key) ?? { requests: 0, ms: 0 };
      row.ms += c.ms;
      if (!seen.has(key)) row.requests++;
      seen.add(key);
      perFunction.set(key, row);
    }
  }
  const totals = perRequest.map((compiles) => compiles.reduce((sum, c) => sum + c.ms, 0));
  const sorted = [...totals].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
  const rows = [...perFunction]
    .sort((a, b) => b[1].ms - a[1].ms || (a[0] < b[0] ? -1 : 1))
    .slice(0, top);
  return [
    `compiles inside ${perRequest.length} first requests: per request median ${median.toFixed(2)} ms, most ${(sorted.at(-1) ?? 0).toFixed(2)} ms (V8's own timing, with tracing on)`,
    "  requests       ms  function (tier)",
    ...(rows.length === 0
      ? ["  none"]
      : rows.map(
          ([key, row]) =>
            `${String(row.requests).padStart(10)} ${row.ms.toFixed(2).padStart(8)}  ${key}`,
        )),
  ];
}
