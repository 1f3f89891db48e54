/**
 * A full-text query planned: sparse plans on lists and checks (checks.ts), or without phrases a
 * dense plan on bitmaps (docs/SEARCH.md, "Combinators and plans").
 */
import { lexemesOfQuery, type LexemeMatch, type SearchNode } from "../postgres/tsquery.ts";
import { termKey } from "./bitmaps.ts";
import { checked, hasPhrase, type CheckInputs } from "./checks.ts";
import { COST, cheapest, type Found, type Plan, type Reader } from "./plan.ts";
import { entryAt, type Postings } from "./postings.ts";
import * as leaf from "./leaves.ts";
import * as k from "./kernels.ts";
import { BLOCK_ENTRIES, decodeBlocks, listCount, type ListEntry, type ListRef } from "./store.ts";

/** A term: its lists (a prefix: every lexeme's that starts with it), their entries, its bitmap. */
type Term = { key: string; refs: readonly ListRef[]; entries: number; bitmap: number | undefined };

/** The streets that match the query, counted exactly, and streets [start, end) of them. */
export async function findFullText(
  r: Reader,
  root: SearchNode,
  start: number,
  end: number,
): Promise<Found> {
  const lexemes = lexemesOfQuery({ root });
  const words = lexemes.map((t) => t.lexeme);
  await r.need(leaf.shardFiles(r.meta, words, true));
  const terms = new Map<string, Term>();
  for (const t of lexemes) {
    const [shard, key] = [leaf.shardOf(r, t.lexeme, true), termKey(t)];
    const all = t.prefix ? shard.withPrefix(t.lexeme) : [shard.get(t.lexeme)?.ref ?? []];
    const refs = all.filter((ref) => listCount(ref) > 0);
    const entries = refs.reduce((sum, ref) => sum + listCount(ref), 0);
    terms.set(key, { key, refs, entries, bitmap: leaf.bitmapNumber(r, key) });
  }
  const termOf = (t: LexemeMatch) => terms.get(termKey(t)) as Term;
  if (root.op === "lexeme" && !root.prefix) return await oneList(r, termOf(root), start, end);
  const plans = [false, true].map((least) => sparsePlan(r, root, termOf, least, start, end));
  if (!hasPhrase(root)) plans.push(densePlan(r, root, termOf, start, end));
  return await cheapest(plans, r);
}

/** One lexeme: its list's entries [start, end), only the blocks that hold them read. */
async function oneList(r: Reader, term: Term, start: number, end: number): Promise<Found> {
  const [ref = [0]] = term.refs;
  const total = listCount(ref);
  const to = Math.min(end, total);
  const [first, next] = [Math.floor(start / BLOCK_ENTRIES), Math.ceil(to / BLOCK_ENTRIES)];
  const entries: ListEntry[] = [];
  if (to > start) {
    await r.need(leaf.blockFiles(r.meta, ref, first, next));
    const skip = first * BLOCK_ENTRIES;
    decodeBlocks(leaf.blockBytes(r, ref, first, next), entries, start - skip, to - skip);
  }
  return {
    total,
    positions: Int32Array.from(entries, (e) => e.position),
    places: Int32Array.from(entries, (e) => e.place),
    heads: entries.map((e) => e.head),
  };
}

const positionsOf = (lists: readonly Postings[]) => lists.map((l) => l.positions);
const entriesOf = (terms: readonly Term[]) => terms.reduce((sum, t) => sum + t.entries, 0);
const refsOf = (terms: readonly Term[]) => terms.flatMap((t) => t.refs);
const bitmapsOf = (terms: readonly Term[]) =>
  terms.flatMap((t) => (t.bitmap === undefined ? [] : [t.bitmap]));

/** The operands of a chain of one operator (PostgreSQL's trees are binary, left-deep). */
const chain = (node: SearchNode, op: "and" | "or"): SearchNode[] =>
  node.op === op ? [...chain(node.left, op), ...chain(node.right, op)] : [node];

/** Is every match of a node on one of its lists (not so for `-x`, or `a or -x`)? */
const isPositive = (node: SearchNode): boolean =>
  node.op === "lexeme" ||
  node.op === "phrase" ||
  (node.op === "and"
    ? isPositive(node.left) || isPositive(node.right)
    : node.op === "or" && isPositive(node.left) && isPositive(node.right));

/** A node's set of streets made from its lists and checks (the files fetched), and the terms whose lists hold it. */
type Run = {
  readonly set: (inputs: CheckInputs) => k.Streets;
  readonly read: readonly LexemeMatch[];
};

/**
 * A sparse plan: lists read (sets of positions with their entries), the rest checked per candidate,
 * on a bit where a term's bitmap decides, else on the candidate's document (which needs the place
 * table). An `and`'s operands other than its lead are read when that costs fewer steps than
 * checking them, or (`least`: the plan that reads least) always checked.
 */
function sparsePlan(
  r: Reader,
  root: SearchNode,
  termOf: (t: LexemeMatch) => Term,
  least: boolean,
  start: number,
  end: number,
): Plan<Found> {
  const [read, bitmaps] = [new Set<Term>(), new Set<Term>()];
  let [steps, documents] = [0, false];
  const size = r.meta.count;
  const entries = (node: SearchNode): number =>
    node.op === "phrase"
      ? Math.min(...node.terms.map((t) => termOf(t).entries))
      : entriesOf(lexemesOfQuery({ root: node }).map(termOf));
  const listOf = (t: LexemeMatch) => {
    read.add(termOf(t));
    return (inputs: CheckInputs) => k.unite(positionsOf(inputs.postings(t)), size);
  };
  const plan = (node: SearchNode): Run => {
    switch (node.op) {
      case "lexeme": {
        steps += termOf(node).entries * COST.entry;
        const of = listOf(node);
        return { set: (i) => ({ positions: of(i), negated: false }), read: [node] };
      }
      case "not": {
        const { set } = plan(node.operand);
        return { set: (i) => k.negate(set(i)), read: [] };
      }
      case "or": {
        const parts = chain(node, "or").map(plan);
        return {
          set: (i) => parts.map((p) => p.set(i)).reduce((a, b) => k.combine(a, b, size, false)),
          read: parts.flatMap((p) => p.read),
        };
      }
      case "phrase": {
        // Its rarest term's streets, narrowed by the lists of others that cost fewer steps than checking
        // the candidates they rule out (or by their bits), then checked.
        const driver = node.terms.reduce((a, b) => (termOf(b).entries < termOf(a).entries ? b : a));
        const others = node.terms.filter((t) => termOf(t) !== termOf(driver));
        const most = termOf(driver).entries * COST.document;
        const narrowing = least
          ? []
          : others.filter((t) => termOf(t).bitmap === undefined && termOf(t).entries < most);
        others.forEach((t) => bitmaps.add(termOf(t)));
        steps += entriesOf([driver, ...narrowing].map(termOf)) * COST.entry + most;
        documents = true;
        const [first, ...rest] = [driver, ...narrowing].map(listOf);
        const candidates = (i: CheckInputs) =>
          rest.reduce((set, of) => k.intersect(set, of(i)), first?.(i) ?? new Int32Array());
        return {
          set: (i) => checked(candidates(i), [driver], [node], i, driver),
          read: [driver, ...narrowing],
        };
      }
      case "and": {
        // The lead (the positive operand of fewest entries) first, then plain before negated,
        // cheapest first: each narrows what is left.
        const operands = chain(node, "and")
          .map((n) => ({ n, cost: entries(n), positive: isPositive(n) }))
          .sort((a, b) => Number(!a.positive) - Number(!b.positive) || a.cost - b.cost);
        const lead = operands[0]?.positive === true ? operands[0].cost : undefined;
        const [reads, checks]: [Run[], SearchNode[]] = [[], []];
        operands.forEach(({ n, cost }, i) => {
          const leafNode = n.op === "not" ? n.operand : n;
          const bit =
            leafNode.op === "lexeme" && termOf(leafNode).bitmap !== undefined
              ? termOf(leafNode)
              : undefined;
          const check = (lead ?? 0) * (bit === undefined ? COST.document : COST.bit);
          // Without a positive operand (`-a -b`) every one is read: their union is what is left out.
          if (lead === undefined || i === 0 || (!least && cost * COST.entry <= check))
            reads.push(plan(n));
          else {
            checks.push(n);
            steps += check;
            if (bit === undefined) documents = true;
            else bitmaps.add(bit);
          }
        });
        const terms = reads.flatMap((p) => p.read);
        const set = (i: CheckInputs) => {
          let out = (reads[0] as Run).set(i);
          for (const other of reads.slice(1))
            if (out.negated || out.positions.length > 0)
              out = k.combine(out, other.set(i), size, true);
          return checks.length === 0 ? out : checked(out.positions, terms, checks, i);
        };
        return { set, read: terms };
      }
    }
  };
  const { set } = plan(root);
  const terms = [...read];
  const checkedBits = [...bitmaps].filter((t) => t.bitmap !== undefined);
  return {
    steps: steps + (documents ? r.meta.places * COST.bit : 0),
    files: () =>
      new Map([
        ...leaf.listFiles(r.meta, refsOf(terms)),
        ...leaf.filesOf(r.meta, "b", bitmapsOf(checkedBits)),
        ...(documents ? leaf.placeTableFiles(r.meta) : []),
      ]),
    run: async () => {
      const lists = new Map(
        terms.map((t) => [t.key, t.refs.map((ref) => leaf.list(r, ref))] as const),
      );
      const found = set({
        postings: (t) => lists.get(termKey(t)) ?? [],
        places: documents ? leaf.placeTable(r) : undefined,
        bitmaps: new Map(checkedBits.map((t) => [t.key, leaf.bitmap(r, t.bitmap as number)])),
      });
      const total = found.negated ? size - found.positions.length : found.positions.length;
      if (found.negated)
        return { total, positions: k.selectComplement(found.positions, size, start, end) };
      const positions = found.positions.subarray(start, Math.max(start, Math.min(end, total)));
      const every = [...lists.values()].flat();
      const page = Array.from(positions, (p) => entryAt(every, p));
      return {
        total,
        positions,
        places: Int32Array.from(page, (e) => e?.place ?? 0),
        heads: page.map((e) => e?.head ?? []),
      };
    },
  };
}

/**
 * A query without phrases on bitmaps: each term's bitmap (a term without one: its lists made a
 * bitmap), then `and`, `or` and `-` word by word, the count a popcount and the page a select.
 */
function densePlan(
  r: Reader,
  root: SearchNode,
  termOf: (t: LexemeMatch) => Term,
  start: number,
  end: number,
): Plan<Found> {
  const terms = lexemesOfQuery({ root }).map(termOf);
  const words = (r.meta.count + 31) >>> 5;
  const listed = terms.filter((t) => t.bitmap === undefined);
  return {
    // A pass over the words per term and per operator.
    steps: entriesOf(listed) * COST.entry + 2 * terms.length * words * COST.word,
    files: () =>
      new Map([
        ...leaf.filesOf(r.meta, "b", bitmapsOf(terms)),
        ...leaf.listFiles(r.meta, refsOf(listed)),
      ]),
    run: async () => {
      const of = (node: SearchNode): Uint32Array => {
        const t = node.op === "lexeme" ? termOf(node) : undefined;
        if (t?.bitmap !== undefined) return leaf.bitmap(r, t.bitmap);
        const out = new Uint32Array(words);
        if (t !== undefined)
          for (const ref of t.refs) k.fillPositions(out, leaf.list(r, ref).positions);
        else if (node.op === "not") k.combineBits(out, of(node.operand), out, 2, r.meta.count);
        else if (node.op === "and" || node.op === "or")
          k.combineBits(out, of(node.left), of(node.right), node.op === "and" ? 0 : 1);
        return out;
      };
      const bits = of(root);
      return { total: k.countBits(bits), positions: k.selectBits(bits, start, end) };
    },
  };
}
