/**
 * A filter value as the original evaluates it (`value ~* ('(?p)' || pattern)` for names, `~` for
 * postal codes: found anywhere in the value), compiled for a linear-time engine. The pattern is
 * parsed here (parse.ts) and run on its own automaton (automaton.ts); no backtracking engine ever
 * sees it, so `(a+)+$` costs what `a+$` costs.
 */
import { restrictToAlphabet } from "./alphabet.ts";
import { Automaton, AutomatonTooLarge } from "./automaton.ts";
import { PatternRefused, type Node, type PatternError, type Range } from "./ast.ts";
import { parsePattern } from "./parse.ts";

/** Longest pattern accepted, in characters. */
export const MAX_PATTERN_LENGTH = 200;
/**
 * Largest automaton accepted, in NFA states (automaton.ts; within a few of RE2's instructions for
 * the same pattern, which this limit counted before): building a DFA state costs up to about this,
 * and bounds such as `(.{1,255}){1,255}` would grow without it.
 */
export const MAX_PROGRAM_SIZE = 2000;

export interface CompiledPattern {
  readonly source: string;
  readonly tree: Node;
  /** Whether the pattern occurs anywhere in the value. */
  readonly test: (value: string) => boolean;
  /** The same for the value at [from, to) of a longer text (a column's joined values). */
  readonly testIn: (text: string, from: number, to: number) => boolean;
}

export type PatternResult =
  | { readonly ok: true; readonly pattern: CompiledPattern }
  | { readonly ok: false; readonly error: PatternError };

export function compilePattern(
  source: string,
  options: { readonly ignoreCase: boolean },
  alphabet?: readonly Range[],
): PatternResult {
  const parsed = parseFilterPattern(source, options);
  return parsed.ok ? compileTree(source, parsed.tree, alphabet) : parsed;
}

/** The pattern parsed, or why it is refused before any engine sees it. */
export function parseFilterPattern(
  source: string,
  options: { readonly ignoreCase: boolean },
):
  | { readonly ok: true; readonly tree: Node }
  | { readonly ok: false; readonly error: PatternError } {
  const length = Array.from(source).length;
  if (length > MAX_PATTERN_LENGTH)
    return {
      ok: false,
      error: {
        kind: "unsupported",
        construct: `a pattern of ${length} characters (at most ${MAX_PATTERN_LENGTH})`,
      },
    };
  if (source.includes("\0"))
    return { ok: false, error: { kind: "invalid", reason: "it contains the character U+0000" } };
  try {
    return { ok: true, tree: parsePattern(source, options.ignoreCase) };
  } catch (error) {
    if (error instanceof PatternRefused) return { ok: false, error: error.refusal };
    throw error;
  }
}

/**
 * A parsed pattern compiled for the engine. With `alphabet` (the characters of every value it will
 * test), its classes are cut down to it first (alphabet.ts): the same verdicts on those values,
 * and the same program size (a class is one instruction however many ranges it has).
 */
export function compileTree(
  source: string,
  tree: Node,
  alphabet?: readonly Range[],
): PatternResult {
  const tooLarge: PatternResult = {
    ok: false,
    error: {
      kind: "unsupported",
      construct: "a pattern this large (its repetitions expand too far)",
    },
  };
  const cut = alphabet === undefined ? tree : restrictToAlphabet(tree, alphabet);
  let engine: Automaton;
  try {
    engine = new Automaton(cut, MAX_PROGRAM_SIZE);
  } catch (error) {
    if (error instanceof AutomatonTooLarge) return tooLarge;
    throw error;
  }
  // A value shorter than any match is refused without the engine (its UTF-16 length is at least
  // its length in characters): `[a-zäöüß]{20}` or `(.*a){12}` leave the engine the few long values.
  const shortest = shortestMatch(tree);
  const test = (value: string) => value.length >= shortest && engine.test(value);
  const testIn = (text: string, from: number, to: number) =>
    to - from >= shortest && engine.testIn(text, from, to);
  return { ok: true, pattern: { source, tree, test, testIn } };
}

/**
 * Whether compiling the pattern surely stays within the limits (its automaton at most
 * MAX_PROGRAM_SIZE states): then a pattern that tests no value (one that matches every value,
 * universal.ts) need not be compiled to know that it is accepted. A bound, not the size: when in
 * doubt the pattern is compiled.
 */
export function surelyAccepted(tree: Node): boolean {
  return programBound(tree) + 16 <= MAX_PROGRAM_SIZE;
}

/** At least the NFA states automaton.ts builds for the node (a count expands into copies). */
function programBound(node: Node): number {
  switch (node.kind) {
    case "concat":
      return node.parts.reduce((sum, part) => sum + programBound(part), 0);
    case "alternate":
      return Math.max(
        1,
        node.branches.reduce((sum, branch) => sum + programBound(branch) + 1, 0),
      );
    case "repeat":
      return ((node.max ?? node.min) + 1) * (programBound(node.node) + 1) + 2;
    default:
      return 1;
  }
}

/** The fewest characters a match of the node spans. */
export function shortestMatch(node: Node): number {
  switch (node.kind) {
    case "char":
    case "class":
    case "any":
      return 1;
    case "concat":
      return node.parts.reduce((sum, part) => sum + shortestMatch(part), 0);
    case "alternate":
      return node.branches.length === 0 ? 0 : Math.min(...node.branches.map(shortestMatch));
    case "repeat":
      return node.min === 0 ? 0 : node.min * shortestMatch(node.node);
    default:
      return 0;
  }
}

/** The problem text for a refused filter value, naming the parameter. */
export function patternErrorMessage(parameter: string, error: PatternError): string {
  if (error.kind === "invalid")
    return `The value of ${parameter} is not a valid regular expression: ${error.reason}.`;
  return (
    `The value of ${parameter} uses ${error.construct}, which this API does not evaluate: ${parameter} is a PostgreSQL regular expression ` +
    `evaluated in linear time, without back-references, lookahead, lookbehind, word boundaries and POSIX bracket classes.`
  );
}
