/**
 * `websearch_to_tsquery('config_openplzapi', term)` (src/backend/utils/adt/tsquery.c:
 * gettoken_query_websearch, parse_or_operator, makepol; tsearch/to_tsany.c: pushval_morph;
 * utils/adt/tsquery_cleanup.c: clean_stopword_intree), plus an opt-in prefix mode for the last
 * word (search-as-you-type).
 *
 * - Words are ANDed; `or` (any case, followed by a non-word character and, later, an operand)
 *   ORs; `-` negates; `"…"` is a phrase (an unclosed quote runs to the end). `! & | ( ) <` are
 *   ignored, so parentheses do not group: `(a or b) c` is `a | (b & c)`.
 * - Each word or quoted text is tokenised and normalised like a document (lexize.ts); several
 *   lexemes become a phrase (`Karl-Marx-Allee`, `10117,Berlin`), stop words inside leave a gap
 *   (`"Platz der Republik"` is `'platz' <2> 'republ'`), stop words elsewhere disappear.
 * - Nothing left: the empty query, which matches nothing.
 *
 * Portions Copyright (c) 1996-2024, PostgreSQL Global Development Group. PostgreSQL License.
 */
import { isAlnum, isSpace, utf8Length } from "./ctype.ts";
import { positionedLexemes } from "./lexize.ts";
import type { PhraseTerm, SearchNode, SearchQuery } from "./tsquery.ts";

export interface SearchOptions {
  /**
   * Search-as-you-type: the lexemes of the term's last word (the last operand, when it is an
   * unquoted word, negated or not) match every lexeme that starts with them, as a `word:*` in
   * PostgreSQL's to_tsquery would, if they have at least PREFIX_MIN_LENGTH characters (shorter
   * ones match exactly). `berlin pariser pl` finds Pariser Platz. Default false.
   */
  readonly lastWordPrefix?: boolean;
}

/** The shortest lexeme that prefix mode matches as a prefix (in characters, after normalisation). */
export const PREFIX_MIN_LENGTH = 2;

/** A term PostgreSQL would reject with an error (the original answers 500); never a silent answer. */
export class SearchTermError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SearchTermError";
  }
}

type Operator = "not" | "and" | "or";
const PRIORITY: Record<Operator | "phrase", number> = { or: 1, and: 2, phrase: 3, not: 4 };
/** makepol's operator stack (STACKDEPTH): 32 operators waiting at once, e.g. 33 `-` in a row, is an error. */
const STACK_DEPTH = 32;

/** Polish-notation items as makepol pushes them; `stop` is a stop-word placeholder. */
type Item =
  | { readonly kind: "value"; readonly lexeme: string; readonly prefix: boolean }
  | { readonly kind: "stop" }
  | { readonly kind: "op"; readonly op: Operator | "phrase"; readonly distance: number };

/** A tree before stop-word cleanup: binary phrases with distances, as PostgreSQL builds it. */
type Raw =
  | { readonly kind: "value"; readonly lexeme: string; readonly prefix: boolean }
  | { readonly kind: "stop" }
  | {
      readonly kind: "op";
      readonly op: Operator | "phrase";
      readonly distance: number;
      readonly left: Raw | null;
      readonly right: Raw | null;
    };

const OPERATOR_CHARS = new Set(["!", "&", "|", "(", ")", "<"]);
/** pushValue rejects lexemes this long ("word is too long in tsquery", MAXSTRLEN). */
const MAX_LEXEME_BYTES = 2047;

/** gettoken_query_websearch's tokens. */
type Token =
  | { readonly kind: "operand"; readonly text: string; readonly quoted: boolean }
  | { readonly kind: "operator"; readonly op: Operator };

export function parseSearchTerm(term: string, options: SearchOptions = {}): SearchQuery {
  if (term.includes("\0"))
    throw new SearchTermError("The search term must not contain the character U+0000.");
  const tokens = tokenize(Array.from(term));
  const last = tokens.findLast((t) => t.kind === "operand");
  const prefixOperand =
    options.lastWordPrefix === true && last?.kind === "operand" && !last.quoted ? last : undefined;

  const items: Item[] = [];
  const stack: Operator[] = [];
  for (const token of tokens) {
    if (token.kind === "operand") {
      pushValue(items, token.text, token === prefixOperand);
      continue;
    }
    // makepol's shunting-yard: pop what binds at least as tightly; NOT is right-associative.
    while (stack.length > 0) {
      const top = stack.at(-1) as Operator;
      if (
        token.op !== "not"
          ? PRIORITY[token.op] > PRIORITY[top]
          : PRIORITY[token.op] >= PRIORITY[top]
      )
        break;
      items.push({ kind: "op", op: stack.pop() as Operator, distance: 0 });
    }
    if (stack.length === STACK_DEPTH)
      throw new SearchTermError(
        "The search term has too many operators in a row (at most 32, such as '-' signs).",
      );
    stack.push(token.op);
  }
  // The term ended where an operand was expected: a stop placeholder stands in (and is cleaned away).
  if (tokens.at(-1)?.kind !== "operand") items.push({ kind: "stop" });
  while (stack.length > 0) items.push({ kind: "op", op: stack.pop() as Operator, distance: 0 });
  return { root: toSearchNode(cleanStopWords(buildTree(items)).node) };
}

function tokenize(chars: readonly string[]): Token[] {
  const tokens: Token[] = [];
  const at = (k: number) => chars[k] ?? "";
  const space = (k: number) => isSpace(at(k).codePointAt(0) ?? 0);
  let waitOperand = true;
  for (let i = 0; i < chars.length;) {
    const ch = at(i);
    if (waitOperand && ch === "-") {
      tokens.push({ kind: "operator", op: "not" });
      i++;
    } else if (waitOperand && ch === '"') {
      let end = i + 1;
      while (end < chars.length && at(end) !== '"') end++;
      tokens.push({ kind: "operand", text: chars.slice(i + 1, end).join(""), quoted: true });
      i = end + 1;
      waitOperand = false;
    } else if (OPERATOR_CHARS.has(ch) || space(i)) i++;
    else if (waitOperand) {
      let end = i + 1;
      while (
        end < chars.length &&
        !space(end) &&
        !OPERATOR_CHARS.has(at(end)) &&
        at(end) !== '"' &&
        at(end) !== ":"
      )
        end++;
      tokens.push({ kind: "operand", text: chars.slice(i, end).join(""), quoted: false });
      i = end;
      waitOperand = false;
    } else if (isOrOperator(chars, i)) {
      tokens.push({ kind: "operator", op: "or" });
      i += 2;
      waitOperand = true;
    } else {
      tokens.push({ kind: "operator", op: "and" });
      waitOperand = true;
    }
  }
  return tokens;
}

/**
 * pushval_morph: an operand's lexemes in position order, chained as a phrase; a stop word between
 * two lexemes becomes a placeholder (so a gap), a stop word at either end nothing; no lexeme at
 * all, one placeholder.
 */
function pushValue(items: Item[], text: string, prefix: boolean): void {
  const words = positionedLexemes(text).filter(
    (w): w is { lexeme: string; position: number } => w.lexeme !== null,
  );
  if (words.length === 0) return void items.push({ kind: "stop" });
  let previous = 0;
  words.forEach(({ lexeme, position }, index) => {
    if (utf8Length(lexeme) >= MAX_LEXEME_BYTES)
      throw new SearchTermError("A word of the search term is too long.");
    for (; index > 0 && previous + 1 < position; previous++)
      items.push({ kind: "stop" }, { kind: "op", op: "phrase", distance: 1 });
    previous = position;
    items.push({
      kind: "value",
      lexeme,
      prefix: prefix && Array.from(lexeme).length >= PREFIX_MIN_LENGTH,
    });
    if (index > 0) items.push({ kind: "op", op: "phrase", distance: 1 });
  });
}

/** parse_or_operator: `or` (ASCII, any case) is the operator when not part of a word and some operand follows. */
function isOrOperator(chars: readonly string[], i: number): boolean {
  if (!/^[oO]$/.test(chars[i] ?? "") || !/^[rR]$/.test(chars[i + 1] ?? "")) return false;
  const after = chars[i + 2];
  if (after === undefined || after === "-" || after === "_" || isAlnum(after.codePointAt(0) ?? 0))
    return false;
  for (let k = i + 3; k < chars.length; k++)
    if (!isSpace(chars[k]?.codePointAt(0) ?? 0)) return true;
  return false;
}

/** The Polish-notation items, read as postfix, into a tree (findoprnd). */
function buildTree(items: readonly Item[]): Raw | null {
  const stack: Raw[] = [];
  for (const item of items) {
    if (item.kind !== "op") stack.push(item);
    else if (item.op === "not")
      stack.push({ kind: "op", op: "not", distance: 0, left: null, right: stack.pop() ?? null });
    else {
      const right = stack.pop() ?? null;
      stack.push({
        kind: "op",
        op: item.op,
        distance: item.distance,
        left: stack.pop() ?? null,
        right,
      });
    }
  }
  return stack.pop() ?? null;
}

interface Cleaned {
  readonly node: Raw | null;
  readonly ladd: number;
  readonly radd: number;
}

/** clean_stopword_intree: drops stop placeholders; their width moves into the neighbouring phrase distances. */
function cleanStopWords(node: Raw | null): Cleaned {
  if (node === null || node.kind === "stop") return { node: null, ladd: 0, radd: 0 };
  if (node.kind === "value") return { node, ladd: 0, radd: 0 };
  if (node.op === "not") {
    const child = cleanStopWords(node.right);
    return child.node === null
      ? { node: null, ladd: child.ladd, radd: child.radd }
      : { node: { ...node, right: child.node }, ladd: child.ladd, radd: child.radd };
  }
  const left = cleanStopWords(node.left);
  const right = cleanStopWords(node.right);
  const phrase = node.op === "phrase";
  const d = phrase ? node.distance : 0;
  if (left.node === null && right.node === null) {
    const add = phrase ? left.ladd + d + right.ladd : Math.max(left.ladd, right.ladd);
    return { node: null, ladd: add, radd: add };
  }
  if (left.node === null)
    return {
      node: right.node,
      ladd: phrase ? left.ladd + d + right.ladd : right.ladd,
      radd: right.radd,
    };
  if (right.node === null)
    return {
      node: left.node,
      ladd: left.ladd,
      radd: phrase ? left.radd + d + right.radd : left.radd,
    };
  return {
    node: {
      ...node,
      left: left.node,
      right: right.node,
      distance: phrase ? d + left.radd + right.ladd : d,
    },
    ladd: phrase ? left.ladd : 0,
    radd: phrase ? right.radd : 0,
  };
}

function toSearchNode(node: Raw | null): SearchNode | null {
  if (node === null || node.kind === "stop") return null;
  if (node.kind === "value") return { op: "lexeme", lexeme: node.lexeme, prefix: node.prefix };
  const right = toSearchNode(node.right);
  if (right === null) throw new Error("malformed query tree");
  if (node.op === "not") return { op: "not", operand: right };
  const left = toSearchNode(node.left);
  if (left === null) throw new Error("malformed query tree");
  if (node.op !== "phrase") return { op: node.op, left, right };
  const leftTerms: readonly PhraseTerm[] =
    left.op === "phrase"
      ? left.terms
      : left.op === "lexeme"
        ? [{ lexeme: left.lexeme, prefix: left.prefix, offset: 0 }]
        : [];
  if (leftTerms.length === 0 || right.op !== "lexeme")
    throw new Error("a phrase of something other than lexemes");
  const last = leftTerms.at(-1)?.offset ?? 0;
  return {
    op: "phrase",
    terms: [
      ...leftTerms,
      { lexeme: right.lexeme, prefix: right.prefix, offset: last + node.distance },
    ],
  };
}
