/**
 * Case classes for the `~*` filters' candidate keys: characters that `~*` may match to each other
 * (the closure of c, towlower(c) and towupper(c)) map to one representative, the smallest code
 * point of their class.
 *
 * The whole closure walks every case pair of the tables (some 2,800) and a fresh isolate's first
 * name filter would pay for it. Below LATIN_END (Latin scripts, what street names use) a class is
 * what towlower and towupper reach from c, except the few classes that a character beyond reaches
 * by its own mapping (the Kelvin sign's `k`, the long s's `s`): those are listed here. A character
 * beyond that maps to one below has that one's class (ẞ, in every `~*` class of ß: without this,
 * `name=(straße|platz)` built the whole closure inside its first request). A unit test checks all
 * three against the whole closure.
 */
import { casePairs, toLower, toUpper } from "../postgres/ctype.ts";
import { onForgetIsolateState } from "../isolate-state.ts";

/** Code points below this have their class from the fast path. */
export const LATIN_END = 0x250;

/** The classes with a member below LATIN_END that towlower/towupper from that member do not reach whole. */
export const REACHED_FROM_BEYOND = [
  "Ii\u0130\u0131", // İ ı
  "Kk\u212a", // the Kelvin sign
  "Ss\u017f", // ſ
  "\u00b5\u039c\u03bc", // µ Μ μ
  "\u00c5\u00e5\u212b", // Å å and the Ångström sign
  "\u01c4\u01c5\u01c6", // Ǆ ǅ ǆ
  "\u01c7\u01c8\u01c9", // Ǉ ǈ ǉ
  "\u01ca\u01cb\u01cc", // Ǌ ǋ ǌ
  "\u01f1\u01f2\u01f3", // Ǳ ǲ ǳ
].map((members) => Array.from(members, (ch) => ch.codePointAt(0) ?? 0).sort((a, b) => a - b));

const listed = new Map<number, readonly number[]>();
for (const members of REACHED_FROM_BEYOND) for (const c of members) listed.set(c, members);

/** The class of c by its own mappings: c, towlower(c), towupper(c) and theirs, sorted. */
export function reachedClass(c: number): readonly number[] {
  const out = [c];
  for (let k = 0; k < out.length; k++)
    for (const d of [toLower(out[k] as number), toUpper(out[k] as number)])
      if (!out.includes(d)) out.push(d);
  return out.sort((a, b) => a - b);
}

/** Every character caseFoldKey maps to the same representative as c (c included). */
export function caseClass(c: number): readonly number[] {
  const known = listed.get(c);
  if (known !== undefined) return known;
  if (c < LATIN_END) return reachedClass(c);
  return fromLatin(c) ?? wholeClass(c);
}

/** The smallest code point of c's case class. */
export function representative(c: number): number {
  if (c < 0x80) return c >= 0x61 && c <= 0x7a ? c - 0x20 : c;
  const known = listed.get(c);
  if (known !== undefined) return known[0] as number;
  if (c < LATIN_END) return reachedClass(c)[0] as number;
  return fromLatin(c)?.[0] ?? wholeRepresentative(c);
}

/** The class of a character below LATIN_END that c maps to: c's own (a case pair is one class). */
function fromLatin(c: number): readonly number[] | undefined {
  for (const d of [toLower(c), toUpper(c)]) if (d < LATIN_END) return caseClass(d);
  return undefined;
}

/** The class from the whole closure (built on first use beyond the fast path). */
export function wholeClass(c: number): readonly number[] {
  if (classes === undefined) {
    classes = new Map();
    parent ??= caseClosure();
    for (const member of parent.keys()) {
      const root = wholeRepresentative(member);
      (classes.get(root) ?? classes.set(root, [root]).get(root))?.push(member);
    }
    for (const members of classes.values()) members.sort((a, b) => a - b);
  }
  return classes.get(wholeRepresentative(c)) ?? [c];
}
let classes: Map<number, number[]> | undefined;

/** Union-find over the case pairs, built on first use. */
let parent: Map<number, number> | undefined;
onForgetIsolateState(() => {
  classes = undefined;
  parent = undefined;
});
export function wholeRepresentative(c: number): number {
  parent ??= caseClosure();
  let root = c;
  for (let up = parent.get(root); up !== undefined && up !== root; up = parent.get(root)) root = up;
  return root;
}
function caseClosure(): Map<number, number> {
  const links = new Map<number, number>();
  const find = (c: number): number => {
    let root = c;
    for (let up = links.get(root); up !== undefined; up = links.get(root)) root = up;
    return root;
  };
  for (const [a, b] of casePairs()) {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) links.set(Math.max(ra, rb), Math.min(ra, rb));
  }
  return links;
}
