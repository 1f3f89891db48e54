/**
 * A full-text query evaluated as algebra on posting lists (algebra.ts): a lexeme is its list, a
 * prefix the union of its lexemes' lists, `and`/`or`/`-` are intersection, union and difference.
 * Lists hold exactly the streets whose document has the lexeme (lexemes are normalised when the
 * index is built), so without phrases the result is exact as it stands and nothing is lexized.
 * A phrase is what lists cannot decide (adjacency): its terms' lists are intersected and only
 * those candidates are checked against their documents, and most of them are decided by the
 * name's or the place's lexemes alone (worked out once per name and per place). Likewise an
 * `and` whose cheapest operand leaves a few candidates checks them against operands whose lists
 * are much longer (planQuery), so that a common word beside a rare one costs no list.
 */
import {
  evaluateTree,
  intersect,
  treeCost,
  unite,
  type ListTree,
  type PositionSet,
} from "./algebra.ts";
import { checked } from "./checked.ts";
import type { PlaceTable } from "./meta.ts";
import type { Postings } from "./postings.ts";
import type { LexemeMatch, SearchNode } from "../postgres/tsquery.ts";

export { entryAt } from "./postings.ts";

/**
 * A leaf of a query's tree: one term (a lexeme or a prefix), a phrase, or a tree whose few
 * candidates are checked against the rest of an `and` (`checks`) rather than reading those lists.
 */
export type QueryLeaf =
  | { readonly kind: "term"; readonly term: LexemeMatch }
  | {
      readonly kind: "phrase";
      readonly node: PhraseNode;
      readonly driver: LexemeMatch;
      /** Other terms whose lists are read too and intersected with the driver's (PHRASE_NARROWING). */
      readonly narrowing?: readonly LexemeMatch[];
    }
  | {
      readonly kind: "checked";
      readonly base: ListTree<QueryLeaf>;
      readonly checks: readonly SearchNode[];
    };
type PhraseNode = SearchNode & { readonly op: "phrase" };

/**
 * How a plan trades reading lists for checking candidates: at most `maxChecked` candidates are
 * checked one by one, and only against operands whose lists are `factor` times longer. By
 * default a few; when reading every list would exceed the read budget, as many as it takes.
 */
export interface CheckPolicy {
  readonly maxChecked: number;
  readonly factor: number;
}
export const FEW_CHECKS: CheckPolicy = { maxChecked: 500, factor: 16 };
export const MOST_CHECKS: CheckPolicy = { maxChecked: Infinity, factor: 1 };
/**
 * Beside bitmaps, which decide their words' checks: a list at most 16 times as long as the
 * candidates is read rather than checked per candidate (`dortmund gasse ga`: Dortmund's list
 * narrows Gasse's 776 streets; only `ga` is checked, on its bitmap).
 */
export const BITMAP_CHECKS: CheckPolicy = { maxChecked: Infinity, factor: 16 };

/**
 * A phrase's other terms whose lists are read beside its rarest term's: at most `factor` times
 * as long and at most `entries` entries (a few blocks). Decoding an entry costs far less than
 * checking a candidate (`"Nürnberg Gasse"`: Gasse's 776 streets narrowed to the few with
 * Nürnberg); a longer list is left to its bitmap, if it has one, or to the checks.
 */
export const PHRASE_NARROWING = { factor: 8, entries: 8192 };

/**
 * A query's plan, from list sizes alone (`entries` of a term: its lists' sizes summed). An `and`
 * whose cheapest positive operand bounds its matches to a few candidates checks them against the
 * much longer operands instead of reading those (`berlin pariser platz` does not read Berlin's list).
 * A phrase reads the lists of the terms that `narrows` (PHRASE_NARROWING; not those with bitmaps).
 */
export function planQuery(
  node: SearchNode,
  entries: (term: LexemeMatch) => number,
  policy = FEW_CHECKS,
  narrows: (term: LexemeMatch) => boolean = () => true,
): ListTree<QueryLeaf> {
  switch (node.op) {
    case "lexeme":
      return { op: "list", list: { kind: "term", term: node } };
    case "phrase": {
      // Its candidates are its rarest term's streets, narrowed by the lists of terms not much longer; adjacency is checked.
      const driver = node.terms.reduce<LexemeMatch | undefined>(
        (best, term) => (best === undefined || entries(term) < entries(best) ? term : best),
        undefined,
      );
      if (driver === undefined) return { op: "or", operands: [] };
      const narrowing = node.terms.filter(
        (term) =>
          termKey(term) !== termKey(driver) &&
          narrows(term) &&
          entries(term) <= PHRASE_NARROWING.entries &&
          entries(term) <= PHRASE_NARROWING.factor * entries(driver),
      );
      return {
        op: "list",
        list: {
          kind: "phrase",
          node,
          driver,
          narrowing: [...new Map(narrowing.map((term) => [termKey(term), term])).values()],
        },
      };
    }
    case "not":
      return { op: "not", operand: planQuery(node.operand, entries, policy, narrows) };
    case "or":
      return {
        op: "or",
        operands: operandsOf(node, "or").map((operand) =>
          planQuery(operand, entries, policy, narrows),
        ),
      };
    case "and": {
      const operands = operandsOf(node, "and");
      const costs = operands.map((operand) => nodeCost(operand, entries));
      const bound = Math.min(
        ...operands.map((operand, i) => (isPositive(operand) ? (costs[i] as number) : Infinity)),
      );
      const checked =
        bound <= policy.maxChecked
          ? operands.filter((_, i) => (costs[i] as number) > policy.factor * bound)
          : [];
      const listed = operands
        .filter((operand) => !checked.includes(operand))
        .map((operand) => planQuery(operand, entries, policy, narrows));
      const base: ListTree<QueryLeaf> =
        listed.length === 1 ? (listed[0] as ListTree<QueryLeaf>) : { op: "and", operands: listed };
      return checked.length === 0
        ? base
        : { op: "list", list: { kind: "checked", base, checks: checked } };
    }
  }
}

/** The operands of a chain of one operator (PostgreSQL's trees are binary, left-deep). */
function operandsOf(node: SearchNode, op: "and" | "or"): SearchNode[] {
  return node.op === op ? [...operandsOf(node.left, op), ...operandsOf(node.right, op)] : [node];
}

/** Is every match of a node on one of its lists (not so for `-x`, or `a or -x`)? */
const isPositive = (node: SearchNode): boolean =>
  node.op === "lexeme" ||
  node.op === "phrase" ||
  (node.op === "and"
    ? isPositive(node.left) || isPositive(node.right)
    : node.op === "or"
      ? isPositive(node.left) && isPositive(node.right)
      : false);

const nodeTerms = (node: SearchNode): LexemeMatch[] =>
  node.op === "lexeme"
    ? [node]
    : node.op === "phrase"
      ? [...node.terms]
      : node.op === "not"
        ? nodeTerms(node.operand)
        : [...nodeTerms(node.left), ...nodeTerms(node.right)];
const nodeCost = (node: SearchNode, entries: (term: LexemeMatch) => number): number =>
  node.op === "phrase"
    ? Math.min(...node.terms.map(entries))
    : nodeTerms(node).reduce((sum, term) => sum + entries(term), 0);

/** The terms whose lists a plan reads (not those its checks decide). */
export function planTerms(tree: ListTree<QueryLeaf>): LexemeMatch[] {
  if (tree.op === "not") return planTerms(tree.operand);
  if (tree.op !== "list") return tree.operands.flatMap(planTerms);
  const leaf = tree.list;
  return leaf.kind === "term"
    ? [leaf.term]
    : leaf.kind === "phrase"
      ? [leaf.driver, ...(leaf.narrowing ?? [])]
      : planTerms(leaf.base);
}

/** A term as a key: its lexeme and whether it is a prefix. */
export const termKey = (term: LexemeMatch) => `${term.prefix ? "*" : "="}${term.lexeme}`;

/** What evaluating a plan needs: each of its terms' decoded lists, the places (for checks), the number of streets. */
export interface QueryInputs {
  readonly postings: (term: LexemeMatch) => readonly Postings[];
  readonly places: PlaceTable | undefined;
  readonly size: number;
  /** Bitmaps of lexemes checked (bitmaps.ts): a check they decide is a bit test. */
  readonly bitmaps?: ReadonlyMap<string, Uint32Array>;
}

/** The set of streets that match; exact (phrases and checks decided per candidate). */
export function evaluateQuery(tree: ListTree<QueryLeaf>, inputs: QueryInputs): PositionSet {
  const termSets = new Map<string, Int32Array>();
  const termSet = (term: LexemeMatch) => {
    const key = termKey(term);
    let set = termSets.get(key);
    if (set === undefined)
      termSets.set(
        key,
        (set = unite(
          inputs.postings(term).map((p) => p.positions),
          inputs.size,
        )),
      );
    return set;
  };
  const cost = (node: ListTree<QueryLeaf>) =>
    treeCost(node, (leaf) =>
      Math.min(...planTerms({ op: "list", list: leaf }).map((term) => termSet(term).length)),
    );
  const leaf = (of: QueryLeaf): PositionSet => {
    if (of.kind === "term") return { positions: termSet(of.term), negated: false };
    if (of.kind === "phrase") {
      const candidates = (of.narrowing ?? []).reduce(
        (set, term) => intersect(set, termSet(term)),
        termSet(of.driver),
      );
      return checked(candidates, [of.driver], [of.node], inputs, of.driver);
    }
    return checked(
      evaluateTree(of.base, leaf, inputs.size, cost).positions,
      planTerms(of.base),
      of.checks,
      inputs,
    );
  };
  return evaluateTree(tree, leaf, inputs.size, cost);
}
