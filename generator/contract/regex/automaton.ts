/**
 * The engine accepted patterns run on: the parsed tree (ast.ts) compiled to a Thompson NFA over
 * the pattern's own character classes (the spans between the bounds of its ranges), run as a DFA
 * whose states are built as values reach them (RE2's lazy DFA without captures: a filter asks only
 * whether a match exists anywhere in the value). One loop over typed arrays serves every pattern,
 * so a new isolate compiles it once at startup (edge/warm-kernels.ts) rather than a library's many
 * paths per request, and a value costs a table lookup per character.
 */
import { gallop } from "../search/kernels.ts";
import { complement, mergeRanges, type Node, type Range } from "./ast.ts";

const CONSUME = 0;
const SPLIT = 1;
const START = 2;
const END = 3;
const MATCH = 4;

/** Code points below this find their class in a table; the rest by binary search. */
const TABLED = 0x180;
/** Transition entries (states × classes) a pattern keeps; past it the states are built anew. */
const MAX_ENTRIES = 1 << 17;
const UNKNOWN = -1;

export class Automaton {
  private readonly op: Uint8Array;
  private readonly out: Int32Array;
  private readonly alt: Int32Array;
  /** Per CONSUME state, the classes it takes: `takes[state * classes + class]`. */
  private readonly takes: Uint8Array;
  private readonly classes: number;
  private readonly cuts: Int32Array;
  private readonly tabled = new Uint16Array(TABLED);
  /** DFA states kept (MAX_ENTRIES over the classes); past it they are built anew. */
  private readonly maxStates: number;
  private readonly marks: Int32Array;
  private generation = 0;
  // The DFA: per state its NFA states, whether it has matched, whether the value's end would
  // match, whether no match can follow; transitions by class.
  private sets: Int32Array[] = [];
  private matched: number[] = [];
  private endMatches: number[] = [];
  private dead: number[] = [];
  private ids = new Map<string, number>();
  private next = new Int32Array(0);
  private initial = 0;
  /** Whether an empty value matches (`^` and `$` both hold at its one position). */
  private readonly emptyMatches: boolean;

  /** Throws AutomatonTooLarge when the NFA would have more than `nfaLimit` states. */
  constructor(tree: Node, nfaLimit = Infinity) {
    const nfa = new Builder(nfaLimit);
    this.entry = nfa.compile(tree, nfa.state(MATCH, -1));
    this.cuts = Int32Array.from(nfa.bounds).sort();
    this.classes = this.cuts.length + 1;
    for (let code = 0; code < TABLED; code++) this.tabled[code] = this.search(code);
    this.op = Uint8Array.from(nfa.op);
    this.out = Int32Array.from(nfa.out);
    this.alt = Int32Array.from(nfa.alt);
    this.takes = new Uint8Array(nfa.op.length * this.classes);
    // A range's bounds are cuts, so it takes every class from its first character's to its last's.
    nfa.ranges.forEach((ranges, state) => {
      for (const [from, to] of ranges ?? [])
        this.takes.fill(
          1,
          state * this.classes + this.search(from),
          state * this.classes + this.search(to) + 1,
        );
    });
    this.marks = new Int32Array(nfa.op.length);
    this.maxStates = Math.max(32, Math.floor(MAX_ENTRIES / this.classes));
    this.emptyMatches = this.closure([this.entry], true, true, []);
    this.restart = [];
    this.restartMatches = this.closure([this.entry], false, false, this.restart);
    this.initial = this.addInitial();
  }

  private readonly entry: number;
  /** The NFA states a match starting at a later position begins with (the search is unanchored). */
  private readonly restart: number[];
  private readonly restartMatches: boolean;

  /** Whether the pattern matches anywhere in the value. */
  test(value: string): boolean {
    return this.testIn(value, 0, value.length);
  }

  /**
   * Whether the pattern matches anywhere in `text` from `from` to `end` (UTF-16 units): a value of
   * a column's joined text tested where it lies, with no string cut out for it.
   */
  testIn(text: string, from: number, end: number): boolean {
    if (end <= from) return this.emptyMatches;
    const classes = this.classes;
    let state = this.initial;
    if (this.matched[state] === 1) return true;
    for (let i = from; i < end; i++) {
      let code = text.charCodeAt(i);
      if (code >= 0xd800 && code < 0xdc00 && i + 1 < end) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low < 0xe000) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i++;
        }
      }
      const k = code < TABLED ? (this.tabled[code] as number) : this.search(code);
      let after = this.next[state * classes + k] as number;
      if (after === UNKNOWN) after = this.step(state, k);
      state = after;
      if (this.matched[state] === 1) return true;
      if (this.dead[state] === 1) return false;
    }
    return this.endMatches[state] === 1;
  }

  /** The class of a code point: how many cuts lie at or below it (the first above it). */
  private search(code: number): number {
    return gallop(this.cuts, code + 1);
  }

  /** The state after `state` reads a character of class `k`, built and recorded. */
  private step(state: number, k: number): number {
    const seeds = this.restart.slice();
    for (const s of this.sets[state] as Int32Array)
      if (this.op[s] === CONSUME && this.takes[s * this.classes + k] === 1)
        seeds.push(this.out[s] as number);
    const set: number[] = [];
    const matched = this.restartMatches || this.closure(seeds, false, false, set);
    if (this.sets.length >= this.maxStates) {
      this.flush();
      this.initial = this.addInitial();
      return this.add(set, matched);
    }
    const to = this.add(set, matched);
    this.next[state * this.classes + k] = to;
    return to;
  }

  private addInitial(): number {
    const set: number[] = [];
    return this.add(set, this.closure([this.entry], true, false, set));
  }

  /** The DFA state of a set of NFA states, made when new. */
  private add(states: number[], matched: boolean): number {
    const set = Int32Array.from(states).sort();
    const key = set.join(",");
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.sets.length;
    this.ids.set(key, id);
    this.sets.push(set);
    this.matched.push(matched ? 1 : 0);
    const ends: number[] = [];
    for (const s of set) if (this.op[s] === END) ends.push(this.out[s] as number);
    const endMatches = matched || (ends.length > 0 && this.closure(ends, false, true, []));
    this.endMatches.push(endMatches ? 1 : 0);
    const stuck = set.length === 0 && this.restart.length === 0 && !this.restartMatches;
    this.dead.push(stuck && !endMatches ? 1 : 0);
    if (this.next.length < this.sets.length * this.classes) {
      const grown = new Int32Array(Math.max(this.classes * 16, this.next.length * 2)).fill(UNKNOWN);
      grown.set(this.next);
      this.next = grown;
    }
    return id;
  }

  private flush(): void {
    this.sets = [];
    this.matched = [];
    this.endMatches = [];
    this.dead = [];
    this.ids = new Map();
    this.next.fill(UNKNOWN);
  }

  /**
   * Adds to `into` the CONSUME, END and MATCH states reachable from `seeds` without reading (`^`
   * passed at the value's start only, `$` at its end only); whether MATCH is among them.
   */
  private closure(seeds: number[], atStart: boolean, atEnd: boolean, into: number[]): boolean {
    const mark = ++this.generation;
    const stack = seeds.slice();
    let matched = false;
    while (stack.length > 0) {
      const s = stack.pop() as number;
      if (this.marks[s] === mark) continue;
      this.marks[s] = mark;
      switch (this.op[s]) {
        case CONSUME:
          into.push(s);
          break;
        case SPLIT:
          stack.push(this.alt[s] as number, this.out[s] as number);
          break;
        case START:
          if (atStart) stack.push(this.out[s] as number);
          break;
        case END:
          if (atEnd) stack.push(this.out[s] as number);
          else into.push(s);
          break;
        default:
          // Kept in the set too: a state that has matched is not the one with the same others.
          into.push(s);
          matched = true;
      }
    }
    return matched;
  }
}

/** An NFA past its states' limit: the pattern's counted repetitions expand too far. */
export class AutomatonTooLarge extends Error {
  constructor() {
    super("the pattern's automaton is too large");
    this.name = "AutomatonTooLarge";
  }
}

/** A character, class or `.` as the sorted, merged ranges it takes. */
function rangesOf(node: Extract<Node, { kind: "char" | "class" | "any" }>): readonly Range[] {
  if (node.kind === "char") return [[node.code, node.code]];
  if (node.kind === "any") return complement([]);
  return node.negated ? complement(node.ranges) : mergeRanges(node.ranges);
}

/**
 * The NFA, built back to front: `compile(node, next)` is the state that matches the node and goes
 * on to `next`. A counted repetition is copied out (`{2,4}`: two copies, then two optional ones),
 * as RE2 compiles it; its states are what pattern.ts MAX_PROGRAM_SIZE counts.
 */
class Builder {
  readonly op: number[] = [];
  readonly out: number[] = [];
  readonly alt: number[] = [];
  /** Per CONSUME state, the ranges it takes. */
  readonly ranges: (readonly Range[] | undefined)[] = [];
  /** Every range bound: where a class of characters ends and the next begins. */
  readonly bounds = new Set<number>();
  constructor(private readonly limit: number) {}

  state(op: number, out: number, alt = -1, ranges?: readonly Range[]): number {
    if (this.op.length >= this.limit) throw new AutomatonTooLarge();
    this.op.push(op);
    this.out.push(out);
    this.alt.push(alt);
    this.ranges.push(ranges);
    if (ranges !== undefined) for (const [from, to] of ranges) this.bounds.add(from).add(to + 1);
    return this.op.length - 1;
  }

  compile(node: Node, next: number): number {
    switch (node.kind) {
      case "empty":
        return next;
      case "char":
      case "class":
      case "any":
        return this.state(CONSUME, next, -1, rangesOf(node));
      case "start":
        return this.state(START, next);
      case "end":
        return this.state(END, next);
      case "concat": {
        let at = next;
        for (let i = node.parts.length - 1; i >= 0; i--)
          at = this.compile(node.parts[i] as Node, at);
        return at;
      }
      case "alternate": {
        if (node.branches.length === 0) return this.state(CONSUME, next, -1, []);
        const entries = node.branches.map((branch) => this.compile(branch, next));
        let at = entries[entries.length - 1] as number;
        for (let i = entries.length - 2; i >= 0; i--)
          at = this.state(SPLIT, entries[i] as number, at);
        return at;
      }
      case "repeat": {
        let at = next;
        if (node.max === undefined) {
          const loop = this.state(SPLIT, -1, next);
          this.out[loop] = this.compile(node.node, loop);
          at = loop;
        } else
          for (let i = node.min; i < node.max; i++)
            at = this.state(SPLIT, this.compile(node.node, at), at);
        for (let i = 0; i < node.min; i++) at = this.compile(node.node, at);
        return at;
      }
    }
  }
}
