/**
 * A run query (runs.ts) over a column's joined values (joined.ts): each run is one search of the
 * text, resumed at the next value after a hit; `and` and `or` combine the flags.
 */
import type { Range } from "./ast.ts";
import type { JoinedValues } from "./joined.ts";
import type { Run, RunQuery } from "./runs.ts";

const NEWLINE = 0x0a;

/** The values that contain every run the query requires, as one flag per value (1: do); undefined for all. */
export function runsSatisfying(query: RunQuery, values: JoinedValues): Uint8Array | undefined {
  const found = new Map<Run, Uint8Array>();
  const collect = (q: RunQuery): void => {
    if (q.op === "run") {
      if (!found.has(q.classes)) found.set(q.classes, containingRun(q.classes, values));
    } else if (q.op !== "all") q.of.forEach(collect);
  };
  collect(query);
  return combine(query, found);
}

function combine(query: RunQuery, found: ReadonlyMap<Run, Uint8Array>): Uint8Array | undefined {
  switch (query.op) {
    case "all":
      return undefined;
    case "run":
      return found.get(query.classes);
    case "and": {
      let flags: Uint8Array | undefined;
      for (const part of query.of) {
        const next = combine(part, found);
        if (next === undefined) continue;
        if (flags === undefined) flags = next.slice();
        else for (let i = 0; i < flags.length; i++) flags[i] = (flags[i] ?? 0) & (next[i] ?? 0);
      }
      return flags;
    }
    case "or": {
      let flags: Uint8Array | undefined;
      for (const part of query.of) {
        const next = combine(part, found);
        if (next === undefined) return undefined;
        if (flags === undefined) flags = next.slice();
        else for (let i = 0; i < flags.length; i++) flags[i] = (flags[i] ?? 0) | (next[i] ?? 0);
      }
      return flags;
    }
  }
}

/**
 * Flags the values that contain the run: one search of the text with the built-in RegExp engine
 * (native code, also in a new isolate's first request), resumed at the next value after each hit.
 * It sees only the run, a fixed-length sequence of classes built here, never a user's pattern: at
 * each position it checks at most the run's length of characters, so the search is linear.
 */
function containingRun(run: Run, values: JoinedValues): Uint8Array {
  const { text, starts } = values;
  const flags = new Uint8Array(values.count);
  if (run.length === 0) return flags.fill(1);
  const search = new RegExp(run.map(classSource).join(""), "gu");
  let index = 0;
  while (search.test(text)) {
    // The match ends inside one value (no class holds a newline).
    const last = search.lastIndex - 1;
    while ((starts[index + 1] ?? Infinity) <= last) index++;
    flags[index] = 1;
    const next = starts[index + 1] ?? Infinity;
    if (next >= text.length) break;
    search.lastIndex = next;
  }
  return flags;
}

/** A class as RegExp source, without the newline that separates the values. */
function classSource(ranges: readonly Range[]): string {
  const parts: string[] = [];
  for (const [from, to] of ranges)
    for (const [a, b] of [
      [from, Math.min(to, NEWLINE - 1)],
      [Math.max(from, NEWLINE + 1), to],
    ] as const)
      if (a <= b) parts.push(a === b ? code(a) : `${code(a)}-${code(b)}`);
  return `[${parts.join("")}]`;
}

function code(point: number): string {
  return `\\u{${point.toString(16)}}`;
}
