import fc from "fast-check";

/**
 * Regular expressions as users write them against a column of values: pieces of the values (so
 * that patterns match something), the dialect's every construct, and, now and then, constructs the
 * API refuses and malformed syntax, so that refusals are checked against PostgreSQL too.
 */
export function regexPattern(values: readonly string[]): fc.Arbitrary<string> {
  const alphabet = [...new Set(values.join(""))];
  const char = fc.constantFrom(...alphabet).map(escapeLiteral);
  const piece = fc
    .constantFrom(...values)
    .chain((value) =>
      fc
        .tuple(fc.nat(value.length), fc.integer({ min: 1, max: 6 }))
        .map(([at, length]) => [...value.slice(at, at + length)].map(escapeLiteral).join("")),
    );
  const caseChar = fc.constantFrom(
    "ä",
    "Ä",
    "ö",
    "Ü",
    "ß",
    "ẞ",
    "é",
    "É",
    "ǅ",
    "ſ",
    "K",
    "İ",
    "ı",
    "i",
    "I",
    "k",
    "s",
  );
  const classItem = fc.oneof(
    char,
    fc.constantFrom("a-z", "A-Z", "0-9", "ä-ü", "\\d", "\\s", "\\w", "-", "]", "\\]", "^"),
    caseChar,
  );
  const bracket = fc
    .tuple(fc.boolean(), fc.array(classItem, { minLength: 1, maxLength: 4 }))
    .map(([negated, items]) => {
      const body = items.join("");
      // `]` first is literal; `^` first would negate: keep what was generated unambiguous.
      return `[${negated ? "^" : ""}${body.startsWith("^") ? `\\${body}` : body}]`;
    });
  const atom = fc.oneof(
    { weight: 6, arbitrary: piece },
    { weight: 3, arbitrary: char },
    { weight: 1, arbitrary: caseChar },
    { weight: 2, arbitrary: fc.constant(".") },
    { weight: 2, arbitrary: bracket },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "\\d",
        "\\D",
        "\\w",
        "\\W",
        "\\s",
        "\\S",
        "\\.",
        "\\(",
        "\\-",
        "\\x41",
        "\\u00e4",
        "\\t",
        "{",
        "}",
        "]",
        "\\A",
        "\\Z",
      ),
    },
  );
  const quantifier = fc.oneof(
    { weight: 8, arbitrary: fc.constant("") },
    { weight: 4, arbitrary: fc.constantFrom("?", "*", "+", "*?", "+?", "??") },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.nat(3), fc.nat(3), fc.constantFrom("m", "m,", "m,n"))
        .map(([m, extra, shape]) =>
          shape === "m" ? `{${m}}` : shape === "m," ? `{${m},}` : `{${m},${m + extra}}`,
        ),
    },
  );
  const sequence = (inner: fc.Arbitrary<string>) =>
    fc
      .array(
        fc.tuple(inner, quantifier).map(([a, q]) => a + q),
        { minLength: 1, maxLength: 4 },
      )
      .map((parts) => parts.join(""));
  const { pattern } = fc.letrec<{ pattern: string; group: string }>((tie) => ({
    pattern: fc
      .array(
        sequence(fc.oneof({ weight: 5, arbitrary: atom }, { weight: 1, arbitrary: tie("group") })),
        { minLength: 1, maxLength: 3 },
      )
      .map((branches) => branches.join("|")),
    group: fc
      .tuple(fc.constantFrom("(", "(?:"), tie("pattern"))
      .map(([open, inner]) => `${open}${inner})`),
  }));
  const anchored = fc
    .tuple(fc.constantFrom("", "", "^"), pattern, fc.constantFrom("", "", "$"))
    .map(([start, body, end]) => start + body + end);
  const hostile = fc
    .tuple(
      anchored,
      fc.constantFrom(
        "\\1",
        "(?=a)",
        "(?!e)",
        "(?<=a)",
        "\\y",
        "\\m",
        "[[:alpha:]]",
        "(?i)",
        "(",
        ")",
        "*",
        "a**",
        "[",
        "\\",
        "{2,1}",
        "\\q",
        "[z-a]",
        "(?<x>a)",
      ),
    )
    .map(([body, bad]) => body + bad);
  return fc.oneof({ weight: 12, arbitrary: anchored }, { weight: 1, arbitrary: hostile });
}

const SPECIAL = new Set([..."\\^$.|?*+()[]{}"]);

/** A value's character as a pattern character: escaped when it is syntax. */
function escapeLiteral(ch: string): string {
  return SPECIAL.has(ch) ? `\\${ch}` : ch;
}
