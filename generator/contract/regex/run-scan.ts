/**
 * A run query (runs.ts) over a column's joined values (joined.ts): each run is one pass over the
 * text, which tries the run at every position and resumes at the next value after a hit; `and` and
 * `or` combine the flags. A class is looked up in a table for the code points below TABLED (the
 * Latin letters and their accents, nearly every character of a name), else searched in its ranges.
 */
import type { Range } from "./ast.ts";
import type { JoinedValues } from "./joined.ts";
import type { Run, RunQuery } from "./runs.ts";

const TABLED = 0x250;
const NEWLINE = 0x0a;

/** The values that contain every run the query requires, as one flag per value (1: do); undefined for all. */
export function runsSatisfying(query: RunQuery, values: JoinedValues): Uint8Array | undefined {
  const runs: Run[] = [];
  const collect = (q: RunQuery): void => {
    if (q.op === "run") runs.push(q.classes);
    else if (q.op !== "all") q.of.forEach(collect);
  };
  collect(query);
  const found = new Map<Run, Uint8Array>();
  // Runs share one pass while their classes fit in the bits of a mask.
  for (let i = 0; i < runs.length;) {
    let bits = 0;
    let j = i;
    while (j < runs.length && bits + (runs[j]?.length ?? 0) <= MASK_BITS)
      bits += runs[j++]?.length ?? 0;
    if (j === i) j++; // a run longer than a mask is cut to one (sound: its start is required)
    const group = runs.slice(i, j).map((run) => run.slice(0, MASK_BITS));
    containingRuns(group, values).forEach((flags, k) => found.set(runs[i + k] as Run, flags));
    i = j;
  }
  return combine(query, found);
}

const MASK_BITS = 30;

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

/** Whether one value contains every run the query requires (the tests' reference). */
export function runsSatisfied(query: RunQuery, value: string): boolean {
  switch (query.op) {
    case "all":
      return true;
    case "run": {
      const classes = query.classes.map(classTest);
      const codes = Array.from(value, (ch) => ch.codePointAt(0) ?? 0);
      for (let at = 0; at + classes.length <= codes.length; at++)
        if (classes.every((test, k) => test(codes[at + k] ?? NEWLINE))) return true;
      return false;
    }
    case "and":
      return query.of.every((q) => runsSatisfied(q, value));
    case "or":
      return query.of.some((q) => runsSatisfied(q, value));
  }
}

interface ClassTable {
  readonly low: Uint8Array;
  readonly ranges: readonly Range[];
}

function tableOf(ranges: readonly Range[]): ClassTable {
  const low = new Uint8Array(TABLED);
  for (const [from, to] of ranges) {
    if (from >= TABLED) break;
    low.fill(1, from, Math.min(to, TABLED - 1) + 1);
  }
  low[NEWLINE] = 0;
  return { low, ranges };
}

function classTest(ranges: readonly Range[]): (code: number) => boolean {
  const table = tableOf(ranges);
  return (code) => holds(table, code);
}

function holds({ low, ranges }: ClassTable, code: number): boolean {
  if (code < TABLED) return low[code] === 1;
  let lowest = 0;
  let highest = ranges.length;
  while (lowest < highest) {
    const mid = (lowest + highest) >>> 1;
    const [from, to] = ranges[mid] as Range;
    if (code < from) highest = mid;
    else if (code > to) lowest = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Flags the values that contain each run, in one pass over the text (Shift-And): bit k of the
 * state says that the run's first k+1 classes match the characters that end here, so each
 * character costs one lookup of the classes that hold it, whatever the runs' lengths.
 */
function containingRuns(runs: readonly Run[], values: JoinedValues): Uint8Array[] {
  const { text } = values;
  const classes = runs.flat();
  const tables = classes.map(tableOf);
  let firsts = 0;
  let lasts = 0;
  let bit = 0;
  for (const run of runs) {
    firsts |= 1 << bit;
    bit += run.length;
    lasts |= 1 << (bit - 1);
  }
  const masks = new Int32Array(TABLED);
  tables.forEach(({ low }, k) => {
    for (let c = 0; c < TABLED; c++) if (low[c] === 1) masks[c] = (masks[c] ?? 0) | (1 << k);
  });
  const beyond = new Map<number, number>();
  const maskBeyond = (code: number): number => {
    let mask = beyond.get(code);
    if (mask === undefined) {
      mask = 0;
      tables.forEach((table, k) => {
        if (holds(table, code)) mask = (mask ?? 0) | (1 << k);
      });
      beyond.set(code, mask);
    }
    return mask;
  };
  const flags = runs.map(() => new Uint8Array(values.count));
  const ends = runs.map((_, r) => runs.slice(0, r + 1).reduce((n, run) => n + run.length, 0) - 1);
  const notFirsts = ~firsts;
  let index = 0;
  let state = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === NEWLINE) {
      index++;
      state = 0;
      continue;
    }
    let mask: number;
    if (code < TABLED) mask = masks[code] ?? 0;
    else {
      const point = text.codePointAt(at) ?? code;
      if (point > 0xffff) at++;
      mask = maskBeyond(point);
    }
    state = (((state << 1) & notFirsts) | firsts) & mask;
    if ((state & lasts) !== 0)
      for (let r = 0; r < runs.length; r++)
        if ((state >>> (ends[r] ?? 0)) & 1) (flags[r] as Uint8Array)[index] = 1;
  }
  return flags;
}
