/**
 * A parsed pattern in RE2 syntax, every character spelt out (`\x{…}`), so that RE2's own rules for
 * case, `.`, `\w` or anchors never come into play: the case variants, the classes and the newline
 * rules are PostgreSQL's, decided by the parser.
 */
import { complement, type Node, type Range } from "./ast.ts";

/**
 * With `lines`, for a text of values joined with newlines (none holds one): no match spans a
 * newline (no class or character matches one) and `^`, `$` are a line's start and end. On a single
 * value that is the same pattern; on many it finds whether any value matches.
 */
export function toRe2Syntax(node: Node, lines = false): string {
  const emit = (n: Node) => toRe2Syntax(n, lines);
  switch (node.kind) {
    case "empty":
      return "(?:)";
    case "char":
      return lines && node.code === NEWLINE ? classSyntax([]) : literal(node.code);
    case "any":
      return "[^\\n]";
    case "class": {
      const ranges = node.negated ? complement(node.ranges) : node.ranges;
      return classSyntax(lines ? withoutNewline(ranges) : ranges);
    }
    case "start":
      return lines ? "(?m:^)" : "\\A";
    case "end":
      return lines ? "(?m:$)" : "\\z";
    case "concat":
      return node.parts.map(emit).join("");
    case "alternate":
      return `(?:${node.branches.map(emit).join("|")})`;
    case "repeat":
      // `()*` matches the empty string however often it is repeated.
      return node.node.kind === "empty"
        ? "(?:)"
        : `(?:${emit(node.node)})${quantifier(node.min, node.max)}`;
  }
}

const NEWLINE = 0x0a;

function withoutNewline(ranges: readonly Range[]): Range[] {
  return ranges.flatMap(([from, to]): Range[] =>
    from > NEWLINE || to < NEWLINE
      ? [[from, to]]
      : [
          ...(from < NEWLINE ? [[from, NEWLINE - 1] as const] : []),
          ...(to > NEWLINE ? [[NEWLINE + 1, to] as const] : []),
        ],
  );
}

function quantifier(min: number, max: number | undefined): string {
  if (max === undefined) return min === 0 ? "*" : min === 1 ? "+" : `{${min},}`;
  if (min === 0 && max === 1) return "?";
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

function literal(code: number): string {
  return /^[A-Za-z0-9]$/.test(String.fromCodePoint(code))
    ? String.fromCodePoint(code)
    : `\\x{${code.toString(16)}}`;
}

function classSyntax(ranges: readonly Range[]): string {
  // An empty class matches nothing; RE2 has no `[]`, so a character class that excludes everything.
  if (ranges.length === 0) return "[^\\x{0}-\\x{10ffff}]";
  const items = ranges.map(([from, to]) =>
    from === to ? literal(from) : `${literal(from)}-${literal(to)}`,
  );
  return `[${items.join("")}]`;
}
