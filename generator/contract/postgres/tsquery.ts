/**
 * Search queries as trees, as PostgreSQL's tsquery holds them, and their evaluation against a
 * document's lexemes (`tsvector @@ tsquery`, src/backend/utils/adt/tsvector_op.c, TS_execute).
 */
import type { DocumentLexemes } from "./lexize.ts";

/** One lexeme to find; with `prefix`, any lexeme that starts with it (PostgreSQL's `'pl':*`). */
export interface LexemeMatch {
  readonly lexeme: string;
  readonly prefix: boolean;
}

/** A phrase term: found at position p + offset, where p is where the phrase's first term is. */
export interface PhraseTerm extends LexemeMatch {
  readonly offset: number;
}

/**
 * A query tree. `and` and `or` are binary and keep PostgreSQL's shape (left-deep chains); a
 * phrase is flattened: its first term has offset 0 and the offsets increase (`'a' <2> 'b'` is
 * a at p, b at p + 2). Phrases hold lexemes only, never operators.
 */
export type SearchNode =
  | ({ readonly op: "lexeme" } & LexemeMatch)
  | { readonly op: "phrase"; readonly terms: readonly PhraseTerm[] }
  | { readonly op: "not"; readonly operand: SearchNode }
  | { readonly op: "and" | "or"; readonly left: SearchNode; readonly right: SearchNode };

/** A parsed search term; `root` null is the empty query (only stop words, no lexemes), which matches nothing. */
export interface SearchQuery {
  readonly root: SearchNode | null;
}

/** The positions (sorted, distinct) at which a lexeme, or any lexeme with that prefix, occurs. */
function positionsOf(doc: DocumentLexemes, term: LexemeMatch): readonly number[] {
  if (!term.prefix) return doc.get(term.lexeme) ?? [];
  const all = new Set<number>();
  for (const [lexeme, positions] of doc)
    if (lexeme.startsWith(term.lexeme)) for (const p of positions) all.add(p);
  return [...all].sort((a, b) => a - b);
}

function hasLexeme(doc: DocumentLexemes, term: LexemeMatch): boolean {
  if (!term.prefix) return doc.has(term.lexeme);
  for (const lexeme of doc.keys()) if (lexeme.startsWith(term.lexeme)) return true;
  return false;
}

function phraseMatches(doc: DocumentLexemes, terms: readonly PhraseTerm[]): boolean {
  const [first, ...rest] = terms;
  if (first === undefined) return false;
  const others = rest.map((term) => ({ offset: term.offset, at: new Set(positionsOf(doc, term)) }));
  return positionsOf(doc, first).some((p) => others.every(({ offset, at }) => at.has(p + offset)));
}

function evaluate(node: SearchNode, doc: DocumentLexemes): boolean {
  switch (node.op) {
    case "lexeme":
      return hasLexeme(doc, node);
    case "phrase":
      return phraseMatches(doc, node.terms);
    case "not":
      return !evaluate(node.operand, doc);
    case "and":
      return evaluate(node.left, doc) && evaluate(node.right, doc);
    case "or":
      return evaluate(node.left, doc) || evaluate(node.right, doc);
  }
}

/** `document @@ query`: does a document (lexemesOf) match? The empty query matches nothing. */
export function matches(query: SearchQuery, doc: DocumentLexemes): boolean {
  return query.root !== null && evaluate(query.root, doc);
}

/** Every lexeme a query looks up (for fetching posting lists), with its prefix flag, once each. */
export function lexemesOfQuery(query: SearchQuery): LexemeMatch[] {
  const seen = new Map<string, LexemeMatch>();
  const visit = (node: SearchNode): void => {
    if (node.op === "lexeme")
      seen.set(`${node.prefix ? "*" : "="}${node.lexeme}`, {
        lexeme: node.lexeme,
        prefix: node.prefix,
      });
    else if (node.op === "phrase")
      for (const t of node.terms)
        seen.set(`${t.prefix ? "*" : "="}${t.lexeme}`, { lexeme: t.lexeme, prefix: t.prefix });
    else if (node.op === "not") visit(node.operand);
    else {
      visit(node.left);
      visit(node.right);
    }
  };
  if (query.root !== null) visit(query.root);
  return [...seen.values()];
}

/** The lexemes a document must have to match a node: a term's, a phrase's, both sides' of an `and`. */
export const requiredLexemes = (node: SearchNode): string[] =>
  node.op === "lexeme"
    ? [node.lexeme]
    : node.op === "phrase"
      ? node.terms.map((t) => t.lexeme)
      : node.op === "and"
        ? [...requiredLexemes(node.left), ...requiredLexemes(node.right)]
        : [];

const PRIORITY = { or: 1, and: 2, phrase: 3, not: 4 } as const;
const quoteLexeme = (t: LexemeMatch) =>
  `'${t.lexeme.replaceAll("'", "''").replaceAll("\\", "\\\\")}'${t.prefix ? ":*" : ""}`;

function infix(node: SearchNode, parent: number, rightOfPhrase: boolean): string {
  switch (node.op) {
    case "lexeme":
      return quoteLexeme(node);
    case "not": {
      const text = `!${infix(node.operand, PRIORITY.not, false)}`;
      return PRIORITY.not < parent ? `( ${text} )` : text;
    }
    case "phrase": {
      const text = node.terms
        .map(
          (t, i) =>
            (i === 0 ? "" : ` ${distance(t.offset - (node.terms[i - 1]?.offset ?? 0))} `) +
            quoteLexeme(t),
        )
        .join("");
      return PRIORITY.phrase < parent || rightOfPhrase ? `( ${text} )` : text;
    }
    default: {
      const text = `${infix(node.left, PRIORITY[node.op], false)} ${node.op === "and" ? "&" : "|"} ${infix(node.right, PRIORITY[node.op], false)}`;
      return PRIORITY[node.op] < parent ? `( ${text} )` : text;
    }
  }
}
const distance = (d: number) => (d === 1 ? "<->" : `<${d}>`);

/** The query as PostgreSQL prints the tsquery (`websearch_to_tsquery(…)::text`); "" for the empty query. */
export function formatQuery(query: SearchQuery): string {
  return query.root === null ? "" : infix(query.root, -1, false);
}
