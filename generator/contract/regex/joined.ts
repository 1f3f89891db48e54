/**
 * A column's distinct values as the match table stores them: one string, each value between two
 * newlines (`\nA\nB\n`; no value holds one). Kept whole, a new isolate's first request allocates
 * no string per value and no second copy of the column: the literals a pattern requires are
 * searched for once over the whole text (`String#indexOf`, which skips ahead), anchored ones with
 * the newlines around them, and only the values that contain them are cut out and handed to the
 * engine.
 */
import { gallop } from "../search/kernels.ts";
import type { ExactLiterals } from "./exact.ts";
import { satisfies, type LiteralQuery } from "./literals.ts";

export class JoinedValues {
  /** Where each value starts in `text`, and one past the last newline (the text's length) last. */
  readonly starts: Int32Array;

  /**
   * `text` is the values framed: a newline before each and one after the last. `starts` as the
   * match table stores them (so that a new isolate does not look for every newline); found here
   * when not given.
   */
  constructor(
    readonly text: string,
    starts?: Int32Array,
  ) {
    if (!text.startsWith("\n") || !text.endsWith("\n") || text.length < 2)
      throw new Error("joined values must start and end with a newline");
    this.starts = starts ?? JoinedValues.startsOf(text);
  }

  /** The values as the match table stores them. */
  static frame(values: readonly string[]): string {
    return `\n${values.join("\n")}\n`;
  }

  /** Where each value of a framed text starts, and the text's length last. */
  static startsOf(text: string): Int32Array {
    let count = 0;
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
    const starts = new Int32Array(count);
    let k = 0;
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1))
      starts[k++] = at + 1;
    return starts;
  }

  static of(values: readonly string[]): JoinedValues {
    return new JoinedValues(JoinedValues.frame(values));
  }

  get count(): number {
    return this.starts.length - 1;
  }

  /** The value at an index. */
  at(index: number): string {
    return this.text.slice(this.starts[index] ?? 0, (this.starts[index + 1] ?? 1) - 1);
  }

  /** Every value, as an array (tests and the build; the Worker cuts out only those it tests). */
  all(): string[] {
    return this.text.slice(1, -1).split("\n");
  }
}

/**
 * The values that satisfy a literal query, as one flag per value (1: satisfies), or undefined for
 * every value (`all`). A literal is one search over the text, which resumes at the next value
 * after each hit; `and` and `or` combine the flags.
 */
export function satisfying(query: LiteralQuery, values: JoinedValues): Uint8Array | undefined {
  switch (query.op) {
    case "all":
      return undefined;
    case "literal":
      return containing(query.text, values);
    case "and": {
      let flags: Uint8Array | undefined;
      // Once few values are left (`.*Ber.*Ham.*Mün…` after `ber` and `ham`), each is checked on
      // its own instead of searching the whole text for every further literal.
      let few: { readonly index: number; readonly value: string }[] | undefined;
      for (const part of query.of) {
        if (few !== undefined) {
          few = few.filter(({ value }) => satisfies(part, value));
          continue;
        }
        const next = satisfying(part, values);
        if (next === undefined) continue;
        if (flags === undefined) flags = next;
        else for (let i = 0; i < flags.length; i++) flags[i] = (flags[i] ?? 0) & (next[i] ?? 0);
        if (left(flags) * FEW < flags.length) {
          few = [];
          for (let i = 0; i < flags.length; i++)
            if (flags[i] === 1) few.push({ index: i, value: values.at(i) });
        }
      }
      if (flags !== undefined && few !== undefined) {
        flags.fill(0);
        for (const { index } of few) flags[index] = 1;
      }
      return flags;
    }
    case "or": {
      const flags = new Uint8Array(values.count);
      for (const part of query.of) {
        const next = satisfying(part, values);
        if (next === undefined) return undefined;
        for (let i = 0; i < flags.length; i++) flags[i] = (flags[i] ?? 0) | (next[i] ?? 0);
      }
      return flags;
    }
  }
}

/** The values an exact pattern (exact.ts) matches, as one flag per value: its strings searched for. */
export function exactlyMatching(exact: ExactLiterals, values: JoinedValues): Uint8Array {
  const flags = new Uint8Array(values.count);
  for (const text of exact.texts) containing(text, values, flags, exact.start, exact.end);
  return flags;
}

/** Below one value in FEW still satisfying an `and`, its further parts are checked value by value. */
const FEW = 16;

function left(flags: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < flags.length; i++) count += flags[i] ?? 0;
  return count;
}

/**
 * Flags the values that contain the literal (at their start, their end): one search over the text
 * that resumes at the next value after each hit. Anchored, the literal is searched for with the
 * newlines around it.
 */
function containing(
  literal: string,
  values: JoinedValues,
  flags = new Uint8Array(values.count),
  start = false,
  end = false,
): Uint8Array {
  // A literal across a newline would join two values; none holds a newline.
  if (literal.includes("\n")) return flags;
  const { text, starts } = values;
  const needle = `${start ? "\n" : ""}${literal}${end ? "\n" : ""}`;
  const lead = start ? 1 : 0;
  // Hits come in text order: the value that holds one is found by galloping on from the last (a
  // rare literal's hits cost a few steps each, not a walk over every value between them).
  let index = 0;
  for (let at = text.indexOf(needle); at !== -1;) {
    const position = at + lead;
    index = gallop(starts, position + 1, index + 1) - 1;
    flags[index] = 1;
    // The next value's own leading newline starts an anchored needle.
    const next = (starts[index + 1] ?? Infinity) - lead;
    at = next >= text.length ? -1 : text.indexOf(needle, next);
  }
  return flags;
}
