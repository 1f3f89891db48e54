/**
 * Reads a filter value as PostgreSQL reads `'(?p)' || value` (an ARE, regc_lex.c and regcomp.c):
 * branches, groups, `.`, brackets, the quantifiers `* + ? {m} {m,} {m,n}` (lazy ones too, at most
 * 255 as DUPMAX), anchors `^ $ \A \Z` anywhere, class shorthands and character escapes. What
 * PostgreSQL rejects is `invalid`; what it accepts but a linear-time engine cannot evaluate the same
 * way (back-references, lookaround, word boundaries, collating elements, …) is `unsupported`.
 */
import { invalid, mergeRanges, unsupported, type Node, type Range } from "./ast.ts";
import { caseVariants, rangeWithCases, shorthandRanges } from "./classes.ts";

/** PostgreSQL's DUPMAX: the largest bound of `{m,n}`. */
export const MAX_BOUND = 255;

/** An escape's value that no text holds: `char` makes it a class that matches nothing. */
const NO_CHARACTER = -1;

const CONTROL: Readonly<Record<string, number>> = {
  a: 0x07,
  b: 0x08,
  B: 0x5c,
  e: 0x1b,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  v: 0x0b,
};
const isAlnum = (ch: string | undefined) => ch !== undefined && /^[A-Za-z0-9]$/.test(ch);
const isDigit = (ch: string | undefined) => ch !== undefined && ch >= "0" && ch <= "9";

export function parsePattern(pattern: string, ignoreCase: boolean): Node {
  return new Parser(Array.from(pattern), ignoreCase).parse();
}

class Parser {
  private at = 0;
  private depth = 0;

  constructor(
    private readonly chars: readonly string[],
    private readonly ignoreCase: boolean,
  ) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.chars.length) invalid("unmatched ')'");
    return node;
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.at + offset];
  }

  private alternation(): Node {
    const branches = [this.branch()];
    while (this.peek() === "|") {
      this.at++;
      branches.push(this.branch());
    }
    return branches.length === 1 ? (branches[0] as Node) : { kind: "alternate", branches };
  }

  private branch(): Node {
    const parts: Node[] = [];
    for (
      let ch = this.peek();
      ch !== undefined && ch !== "|" && !(ch === ")" && this.depth > 0);
      ch = this.peek()
    ) {
      const atom = this.atom();
      if (atom === undefined) continue;
      parts.push(this.quantified(atom, ch === "("));
    }
    return parts.length === 0
      ? { kind: "empty" }
      : parts.length === 1
        ? (parts[0] as Node)
        : { kind: "concat", parts };
  }

  /** The next atom; undefined for a comment. */
  private atom(): Node | undefined {
    const ch = this.chars[this.at++] ?? "";
    switch (ch) {
      case "*":
      case "+":
      case "?":
        return invalid(`'${ch}' has nothing to repeat`);
      case "{":
        return isDigit(this.peek()) ? invalid("'{' has nothing to repeat") : this.char(0x7b);
      case ")":
        return invalid("unmatched ')'");
      case "^":
        return { kind: "start" };
      case "$":
        return { kind: "end" };
      case ".":
        return { kind: "any" };
      case "[":
        return this.bracket();
      case "(":
        return this.group();
      case "\\":
        return this.escape();
      default:
        return this.char(ch.codePointAt(0) ?? 0);
    }
  }

  private char(code: number): Node {
    if (code === NO_CHARACTER) return { kind: "class", negated: false, ranges: [] };
    if (!this.ignoreCase) return { kind: "char", code };
    const variants = caseVariants(code);
    return variants.length === 1 && variants[0]?.[0] === code
      ? { kind: "char", code }
      : { kind: "class", negated: false, ranges: variants };
  }

  private group(): Node | undefined {
    if (this.peek() === "?") {
      const kind = this.peek(1);
      this.at += 2;
      if (kind === "#") {
        while (this.peek() !== undefined && this.peek() !== ")") this.at++;
        if (this.chars[this.at++] === undefined) invalid("unterminated comment '(?#'");
        return undefined;
      }
      if (kind === "=" || kind === "!") unsupported(`lookahead '(?${kind}'`);
      if (kind === "<" && (this.peek() === "=" || this.peek() === "!"))
        unsupported(`lookbehind '(?<${this.peek() ?? ""}'`);
      if (kind !== undefined && /^[A-Za-z]$/.test(kind))
        unsupported(`embedded options '(?${kind}'`);
      if (kind !== ":") invalid(`'(?${kind ?? ""}' is not a group`);
    }
    this.depth++;
    const node = this.alternation();
    this.depth--;
    if (this.chars[this.at++] !== ")") invalid("unmatched '('");
    return node;
  }

  private quantified(atom: Node, inParentheses: boolean): Node {
    let node = atom;
    let quantifiers = 0;
    for (
      let ch = this.peek();
      ch === "*" || ch === "+" || ch === "?" || (ch === "{" && isDigit(this.peek(1)));
      ch = this.peek()
    ) {
      if (quantifiers > 0) invalid(`'${ch}' repeats a repetition`);
      if (!inParentheses && (node.kind === "start" || node.kind === "end"))
        invalid(`'${ch}' has nothing to repeat`); // PostgreSQL repeats `(\Z)`, not `\Z`
      this.at++;
      const [min, max] =
        ch === "*"
          ? [0, undefined]
          : ch === "+"
            ? [1, undefined]
            : ch === "?"
              ? [0, 1]
              : this.bound();
      if (this.peek() === "?") this.at++; // lazy: the same matches
      node = { kind: "repeat", node, min, max };
      quantifiers++;
    }
    return node;
  }

  /** `{m}`, `{m,}` or `{m,n}` after its brace. */
  private bound(): [number, number | undefined] {
    const min = this.number();
    let max: number | undefined = min;
    if (this.peek() === ",") {
      this.at++;
      max = isDigit(this.peek()) ? this.number() : undefined;
    }
    if (this.chars[this.at++] !== "}") invalid("a bound '{' is not closed by '}'");
    if (min > MAX_BOUND || (max ?? 0) > MAX_BOUND) invalid(`a bound is larger than ${MAX_BOUND}`);
    if (max !== undefined && min > max)
      invalid(`the bound {${min},${max}} has its minimum above its maximum`);
    return [min, max];
  }

  private number(): number {
    let digits = "";
    while (isDigit(this.peek())) digits += this.chars[this.at++];
    return digits.length > 4 ? Infinity : Number(digits);
  }

  private escape(): Node {
    const ch = this.chars[this.at++];
    if (ch === undefined) return invalid("it ends with a backslash");
    if (ch === "d" || ch === "s" || ch === "w")
      return { kind: "class", negated: false, ranges: shorthandRanges(ch) };
    if (ch === "D" || ch === "S" || ch === "W")
      return {
        kind: "class",
        negated: true,
        ranges: shorthandRanges(ch.toLowerCase() as "d" | "s" | "w"),
      };
    if (ch === "A") return { kind: "start" };
    if (ch === "Z") return { kind: "end" };
    if ("mMyY".includes(ch)) return unsupported(`the word boundary '\\${ch}'`);
    if (ch >= "1" && ch <= "9") return unsupported(`the back-reference '\\${ch}'`);
    return this.char(this.characterEscape(ch));
  }

  /** A character-entry escape (`\n`, `\x41`, `\u00e4`, `\cA`, …) or a backslash before a non-alphanumeric; its code point. */
  private characterEscape(ch: string): number {
    const control = CONTROL[ch];
    if (control !== undefined) return control;
    if (!isAlnum(ch)) return ch.codePointAt(0) ?? 0;
    if (ch === "c") {
      const next = this.chars[this.at++];
      if (next === undefined) return invalid("'\\c' has no character after it");
      // `\c@` is NUL, which no text holds: it matches nothing, as the hexadecimal escapes' NUL.
      const code = (next.codePointAt(0) ?? 0) & 0x1f;
      return code === 0 ? NO_CHARACTER : code;
    }
    if (ch === "x") return this.hex(1, 255);
    if (ch === "u") return this.hex(4, 4);
    if (ch === "U") return this.hex(8, 8);
    if (ch === "0") return unsupported("the octal escape '\\0' (write \\x or \\u)");
    return invalid(`'\\${ch}' is not an escape`);
  }

  /**
   * A hexadecimal escape's value. PostgreSQL takes up to 255 digits for `\x`, in a 32-bit
   * character; a value no text can hold (NUL, a surrogate, beyond U+10FFFF) matches nothing.
   */
  private hex(min: number, max: number): number {
    let digits = "";
    while (digits.length < max && /^[0-9A-Fa-f]$/.test(this.peek() ?? ""))
      digits += this.chars[this.at++];
    if (digits.length < min)
      invalid(
        `a hexadecimal escape needs ${min === max ? min : `at least ${min}`} digit${min === 1 ? "" : "s"}`,
      );
    const code = Number(BigInt(`0x${digits}`) & 0xffffffffn);
    return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
      ? NO_CHARACTER
      : code;
  }

  /** A bracket expression after its `[`. */
  private bracket(): Node {
    const negated = this.peek() === "^";
    if (negated) this.at++;
    const ranges: Range[] = [];
    for (let first = true; ; first = false) {
      const ch = this.chars[this.at++];
      if (ch === undefined) return invalid("unmatched '['");
      if (ch === "]" && !first) break;
      if (ch === "[" && (this.peek() === ":" || this.peek() === "." || this.peek() === "=")) {
        const what = {
          ":": "character classes like [[:alpha:]]",
          ".": "collating elements like [[.a.]]",
          "=": "equivalence classes like [[=a=]]",
        }[this.peek() as ":" | "." | "="];
        unsupported(`${what} (write the characters, e.g. [a-zäöü])`);
      }
      if (ch === "\\" && "dsw".includes(this.peek() ?? "-")) {
        ranges.push(...shorthandRanges(this.chars[this.at++] as "d" | "s" | "w"));
        if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined)
          invalid("a class shorthand cannot start a range");
        continue;
      }
      if (ch === "\\" && "DSW".includes(this.peek() ?? "-"))
        invalid(`'\\${this.peek() ?? ""}' is not allowed inside brackets`);
      const from = this.bracketCharacter(ch);
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined) {
        this.at++;
        const next = this.chars[this.at++] ?? "";
        if (next === "[" && (this.peek() === "." || this.peek() === "=" || this.peek() === ":"))
          unsupported("a collating element as a range end");
        if (next === "\\" && "dswDSW".includes(this.peek() ?? "-"))
          invalid("a class shorthand cannot end a range");
        const to = this.bracketCharacter(next);
        if (to < from)
          invalid(
            `the range '${String.fromCodePoint(from)}-${String.fromCodePoint(to)}' is out of order`,
          );
        if (from !== NO_CHARACTER && to !== NO_CHARACTER)
          ranges.push(...(this.ignoreCase ? rangeWithCases(from, to) : [[from, to] as const]));
        if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined)
          invalid("a range cannot start at the end of another");
      } else if (from !== NO_CHARACTER)
        ranges.push(...(this.ignoreCase ? caseVariants(from) : [[from, from] as const]));
    }
    return { kind: "class", negated, ranges: mergeRanges(ranges) };
  }

  private bracketCharacter(ch: string): number {
    if (ch !== "\\") return ch.codePointAt(0) ?? 0;
    const next = this.chars[this.at++];
    if (next === undefined) return invalid("unmatched '['");
    return this.characterEscape(next);
  }
}
