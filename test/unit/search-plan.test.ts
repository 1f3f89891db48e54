import { describe, expect, it } from "vitest";
import {
  BITMAP_CHECKS,
  FEW_CHECKS,
  MOST_CHECKS,
  planQuery,
  planTerms,
  termKey,
  type CheckPolicy,
} from "../../generator/contract/search/fulltext.ts";
import type { ListTree } from "../../generator/contract/search/algebra.ts";
import type { QueryLeaf } from "../../generator/contract/search/fulltext.ts";
import type { LexemeMatch } from "../../generator/contract/postgres/tsquery.ts";
import { parseSearchTerm } from "../../generator/contract/postgres/websearch.ts";

/** Plans from list sizes (the national list's, rounded): which lists a plan reads, and what it checks per candidate. */
const SIZES: Record<string, number> = {
  "=berlin": 17_898,
  "=strass": 253_808,
  "=gass": 776,
  "=nurnberg": 3_751,
  "=dortmund": 4_098,
  "*ga": 1_200_000,
  "=koln": 5_967,
  "=neu": 4_739,
};
/** The words with bitmaps: they do not narrow a phrase by their lists. */
const BITMAPS = new Set(["=koln", "=neu"]);
const entries = (term: LexemeMatch) => SIZES[termKey(term)] ?? 1;

function shape(tree: ListTree<QueryLeaf>): unknown {
  if (tree.op === "not") return { not: shape(tree.operand) };
  if (tree.op !== "list") return { [tree.op]: tree.operands.map(shape) };
  const leaf = tree.list;
  if (leaf.kind === "term") return termKey(leaf.term);
  if (leaf.kind === "phrase")
    return { phrase: termKey(leaf.driver), narrowing: (leaf.narrowing ?? []).map(termKey) };
  return {
    base: shape(leaf.base),
    checks: leaf.checks.map((c) => (c.op === "lexeme" ? termKey(c) : c.op)),
  };
}

describe("planQuery", () => {
  it.each<[string, boolean, CheckPolicy, unknown, string[]]>([
    // A phrase reads its rarest word's list and the lists of words not much longer, never a very common word's.
    [
      '"Nürnberg Gasse"',
      false,
      FEW_CHECKS,
      { phrase: "=gass", narrowing: ["=nurnberg"] },
      ["=gass", "=nurnberg"],
    ],
    ['"Berlin Straße"', false, FEW_CHECKS, { phrase: "=berlin", narrowing: [] }, ["=berlin"]],
    // A word with a bitmap narrows by its bitmap, not its list (the caller says which narrow).
    [
      '"Köln Neue" Dortmund',
      false,
      FEW_CHECKS,
      { and: [{ phrase: "=neu", narrowing: [] }, "=dortmund"] },
      ["=dortmund", "=neu"],
    ],
    // Beside a bitmap (a word counted as every street), a list not much longer than the candidates is read, not checked.
    [
      "Dortmund Gasse Ga",
      true,
      BITMAP_CHECKS,
      { base: { and: ["=dortmund", "=gass"] }, checks: ["*ga"] },
      ["=dortmund", "=gass"],
    ],
    [
      "Dortmund Gasse Ga",
      true,
      MOST_CHECKS,
      { base: "=gass", checks: ["=dortmund", "*ga"] },
      ["=gass"],
    ],
  ])("%s (prefix %s)", (term, prefix, policy, expected, read) => {
    const root = parseSearchTerm(term, { lastWordPrefix: prefix }).root;
    if (root === null) throw new Error(term);
    const plan = planQuery(root, entries, policy, (t) => !BITMAPS.has(termKey(t)));
    expect(shape(plan)).toEqual(expected);
    expect(planTerms(plan).map(termKey).sort()).toEqual(read);
  });
});
