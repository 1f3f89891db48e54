/**
 * What every value a pattern matches must contain, as an and/or query over literal strings: the
 * analysis of Russ Cox's "Regular Expression Matching with a Trigram Index" (Google Code Search),
 * kept small. Each node gives either the exact set of strings it matches (while that set is small)
 * or a query; concatenation multiplies exact sets, alternation unites them, and what grows too
 * large becomes a query of its strings. Sound, not exact: a value the query rejects never matches,
 * a value it accepts is checked by the engine.
 *
 * Strings are folded with `fold` (the case-insensitive key for `~*`, the identity for `~`), so the
 * query is evaluated over folded values.
 */
import type { Node } from "./ast.ts";

export type LiteralQuery =
  | { readonly op: "all" }
  | { readonly op: "literal"; readonly text: string }
  | { readonly op: "and" | "or"; readonly of: readonly LiteralQuery[] };

export const ALL: LiteralQuery = { op: "all" };

/** Largest exact set kept, and the largest class taken as a set of characters. */
const MAX_EXACT = 16;
const MAX_CLASS = 4;

interface Info {
  /** The strings the node matches, when few; else undefined. */
  readonly exact: ReadonlySet<string> | undefined;
  /** What a match must contain, when `exact` is undefined. */
  readonly query: LiteralQuery;
}

export function literalQuery(node: Node, fold: (text: string) => string): LiteralQuery {
  return queryOf(infoOf(node, fold));
}

function infoOf(node: Node, fold: (text: string) => string): Info {
  switch (node.kind) {
    case "empty":
    case "start":
    case "end":
      return exact([""]);
    case "char":
      return exact([fold(String.fromCodePoint(node.code))]);
    case "class": {
      if (node.negated) return { exact: undefined, query: ALL };
      const size = node.ranges.reduce((n, [from, to]) => n + to - from + 1, 0);
      if (size > MAX_CLASS * 2) return { exact: undefined, query: ALL };
      const chars = new Set(
        node.ranges.flatMap(([from, to]) =>
          Array.from({ length: to - from + 1 }, (_, i) => fold(String.fromCodePoint(from + i))),
        ),
      );
      return chars.size <= MAX_CLASS
        ? { exact: chars, query: ALL }
        : { exact: undefined, query: ALL };
    }
    case "any":
      return { exact: undefined, query: ALL };
    case "concat":
      return concat(node.parts.map((part) => infoOf(part, fold)));
    case "alternate": {
      const branches = node.branches.map((branch) => infoOf(branch, fold));
      const union = new Set(branches.flatMap((b) => (b.exact === undefined ? [] : [...b.exact])));
      if (branches.every((b) => b.exact !== undefined) && union.size <= MAX_EXACT)
        return { exact: union, query: ALL };
      return { exact: undefined, query: or(branches.map(queryOf)) };
    }
    case "repeat": {
      const inner = infoOf(node.node, fold);
      if (node.min === 0)
        return inner.exact !== undefined && node.max === 1 && inner.exact.size < MAX_EXACT
          ? exact(["", ...inner.exact])
          : { exact: undefined, query: ALL };
      if (inner.exact !== undefined && node.max === node.min && node.min <= 3)
        return concat(Array.from({ length: node.min }, () => inner));
      return { exact: undefined, query: queryOf(inner) };
    }
  }
}

const exact = (strings: readonly string[]): Info => ({ exact: new Set(strings), query: ALL });

/** Parts in order: exact sets multiply while they stay small; what cannot be carried on is required as a query. */
function concat(parts: readonly Info[]): Info {
  const required: LiteralQuery[] = [];
  let current: ReadonlySet<string> | undefined = new Set([""]);
  for (const part of parts) {
    if (part.exact === undefined) {
      if (current !== undefined) required.push(queryOf({ exact: current, query: ALL }));
      required.push(part.query);
      current = undefined;
      continue;
    }
    if (current === undefined) current = part.exact;
    else if (current.size * part.exact.size <= MAX_EXACT)
      current = new Set([...current].flatMap((a) => [...(part.exact ?? [])].map((b) => a + b)));
    else {
      required.push(queryOf({ exact: current, query: ALL }));
      current = part.exact;
    }
  }
  if (required.length === 0) return { exact: current, query: ALL };
  if (current !== undefined) required.push(queryOf({ exact: current, query: ALL }));
  return { exact: undefined, query: and(required) };
}

function queryOf(info: Info): LiteralQuery {
  if (info.exact === undefined) return info.query;
  if (info.exact.has("")) return ALL;
  return or([...info.exact].map((text) => ({ op: "literal", text })));
}

/** The conjunction, each distinct operand once (`(a|b|c){18}` requires the same `or` eighteen times). */
export function and(queries: readonly LiteralQuery[]): LiteralQuery {
  const of = distinct(queries.flatMap((q) => (q.op === "all" ? [] : q.op === "and" ? q.of : [q])));
  return of.length === 0 ? ALL : of.length === 1 ? (of[0] as LiteralQuery) : { op: "and", of };
}

/**
 * The disjunction, each distinct operand once and without a literal that contains another of its
 * literals (a value containing `ab` contains `a`). Literals that all share a prefix or suffix of
 * COMMON_PART characters or more also require that part (`stadt1|stadt2|…` requires `stadt`): one
 * test or one list that rejects most values before the branches are tried.
 */
export function or(queries: readonly LiteralQuery[]): LiteralQuery {
  if (queries.length === 0 || queries.some((q) => q.op === "all")) return ALL;
  const flat = distinct(queries.flatMap((q) => (q.op === "or" ? q.of : [q])));
  const texts = flat.flatMap((q) => (q.op === "literal" ? [q.text] : []));
  const of = flat.filter(
    (q) => q.op !== "literal" || !texts.some((t) => t !== q.text && q.text.includes(t)),
  );
  if (of.length === 1) return of[0] as LiteralQuery;
  const kept = of.flatMap((q) => (q.op === "literal" ? [q.text] : []));
  const common = kept.length === of.length ? commonPart(kept) : "";
  const either: LiteralQuery = { op: "or", of };
  return common === "" ? either : { op: "and", of: [{ op: "literal", text: common }, either] };
}

const COMMON_PART = 3;

/** The longest prefix, else suffix, every text shares, when it has COMMON_PART characters or more; else "". */
function commonPart(texts: readonly string[]): string {
  const chars = texts.map((text) => Array.from(text));
  const shortest = Math.min(...chars.map((c) => c.length));
  const shared = (at: (c: string[], k: number) => string | undefined) => {
    let k = 0;
    while (k < shortest && chars.every((c) => at(c, k) === at(chars[0] as string[], k))) k++;
    return k;
  };
  const prefix = shared((c, k) => c[k]);
  if (prefix >= COMMON_PART) return (chars[0] as string[]).slice(0, prefix).join("");
  const suffix = shared((c, k) => c[c.length - 1 - k]);
  const first = chars[0] as string[];
  return suffix >= COMMON_PART ? first.slice(first.length - suffix).join("") : "";
}

/** The queries (plain data) without repetitions, in their first order. */
function distinct<T>(queries: readonly T[]): T[] {
  const seen = new Set<string>();
  return queries.filter((q) => {
    const key = JSON.stringify(q);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The query without literals shorter than `length` (still sound): a one-letter literal rejects little and costs a scan. */
export function withoutShortLiterals(query: LiteralQuery, length: number): LiteralQuery {
  switch (query.op) {
    case "all":
      return query;
    case "literal":
      return Array.from(query.text).length < length ? ALL : query;
    case "and":
      return and(query.of.map((q) => withoutShortLiterals(q, length)));
    case "or":
      return or(query.of.map((q) => withoutShortLiterals(q, length)));
  }
}

/** Whether a (folded) value satisfies the query: every value the pattern matches does. */
export function satisfies(query: LiteralQuery, folded: string): boolean {
  switch (query.op) {
    case "all":
      return true;
    case "literal":
      return folded.includes(query.text);
    case "and":
      return query.of.every((q) => satisfies(q, folded));
    case "or":
      return query.of.some((q) => satisfies(q, folded));
  }
}

/** Fewest literals of an `or` tested as sets of substrings (below that, one search each costs less). */
const SET_LITERALS = 8;

/** Most lengths among those literals: each length costs a substring per position of the value. */
const SET_LENGTHS = 2;

/**
 * satisfies, prepared once per query: an `or` of SET_LITERALS literals or more of at most
 * SET_LENGTHS lengths (an alternation of postal codes) looks up each substring of a literal's
 * length in a set of them, instead of searching the value once per literal.
 */
export function satisfier(query: LiteralQuery): (folded: string) => boolean {
  switch (query.op) {
    case "all":
      return () => true;
    case "literal": {
      const text = query.text;
      return (folded) => folded.includes(text);
    }
    case "and": {
      const parts = query.of.map(satisfier);
      return (folded) => parts.every((part) => part(folded));
    }
    case "or": {
      const texts = query.of.flatMap((q) => (q.op === "literal" ? [q.text] : []));
      if (texts.length < SET_LITERALS || new Set(texts.map((t) => t.length)).size > SET_LENGTHS) {
        const parts = query.of.map(satisfier);
        return (folded) => parts.some((part) => part(folded));
      }
      const byLength = new Map<number, Set<string>>();
      for (const text of texts)
        (byLength.get(text.length) ?? byLength.set(text.length, new Set()).get(text.length))?.add(
          text,
        );
      const sets = [...byLength];
      const others = query.of.filter((q) => q.op !== "literal").map(satisfier);
      return (folded) => {
        for (const [length, set] of sets)
          for (let at = 0; at + length <= folded.length; at++)
            if (set.has(folded.slice(at, at + length))) return true;
        return others.some((part) => part(folded));
      };
    }
  }
}
