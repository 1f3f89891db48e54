/**
 * A pattern as an and/or query over case-folded trigrams (Russ Cox, "Regular Expression Matching
 * with a Trigram Index"): each literal a match must contain becomes the trigrams it contains, all
 * of them required; a literal shorter than three characters requires nothing. Candidates the
 * query selects from a trigram index are then checked by the engine. For `~*` the literals are
 * folded with the same key as the street index's trigrams (search/filter.ts caseFoldKey).
 */
import type { Node } from "./ast.ts";
import { distinct, literalQuery, type LiteralQuery } from "./literals.ts";

export type TrigramQuery =
  | { readonly op: "all" }
  | { readonly op: "trigram"; readonly trigram: string }
  | { readonly op: "and" | "or"; readonly of: readonly TrigramQuery[] };

const ALL: TrigramQuery = { op: "all" };

export function trigramQuery(node: Node, fold: (text: string) => string): TrigramQuery {
  return fromLiterals(literalQuery(node, fold));
}

function fromLiterals(query: LiteralQuery): TrigramQuery {
  switch (query.op) {
    case "all":
      return ALL;
    case "literal":
      return and(trigramsOf(query.text).map((trigram) => ({ op: "trigram", trigram })));
    case "and":
      return and(query.of.map(fromLiterals));
    case "or":
      return or(query.of.map(fromLiterals));
  }
}

/** The distinct trigrams of a text, by code point, in order of first occurrence. */
export function trigramsOf(text: string): string[] {
  const chars = Array.from(text);
  const out = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) out.add(chars.slice(i, i + 3).join(""));
  return [...out];
}

function and(queries: readonly TrigramQuery[]): TrigramQuery {
  const of = distinct(queries.flatMap((q) => (q.op === "all" ? [] : q.op === "and" ? q.of : [q])));
  return of.length === 0 ? ALL : of.length === 1 ? (of[0] as TrigramQuery) : { op: "and", of };
}

function or(queries: readonly TrigramQuery[]): TrigramQuery {
  if (queries.length === 0 || queries.some((q) => q.op === "all")) return ALL;
  const of = distinct(queries.flatMap((q) => (q.op === "or" ? q.of : [q])));
  return of.length === 1 ? (of[0] as TrigramQuery) : { op: "or", of };
}
