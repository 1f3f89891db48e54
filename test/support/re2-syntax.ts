/**
 * The tests' reference engine's input (regex-automaton.test.ts holds the API's automaton to RE2,
 * the re2js port, which the API ran on before): a parsed pattern in RE2 syntax, every character spelt out (`\x{…}`), so that RE2's own rules for
 * case, `.`, `\w` or anchors never come into play: the case variants, the classes and the newline
 * rules are PostgreSQL's, decided by the parser.
 */
import { complement, type Node, type Range } from "../../generator/contract/regex/ast.ts";

export function toRe2Syntax(node: Node): string {
  switch (node.kind) {
    case "empty":
      return "(?:)";
    case "char":
      return literal(node.code);
    case "any":
      return "[^\\n]";
    case "class":
      return classSyntax(node.negated ? complement(node.ranges) : node.ranges);
    case "start":
      return "\\A";
    case "end":
      return "\\z";
    case "concat":
      return node.parts.map(toRe2Syntax).join("");
    case "alternate":
      return `(?:${node.branches.map(toRe2Syntax).join("|")})`;
    case "repeat":
      // `()*` matches the empty string however often it is repeated.
      return node.node.kind === "empty"
        ? "(?:)"
        : `(?:${toRe2Syntax(node.node)})${quantifier(node.min, node.max)}`;
  }
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
