/** Patterns built up to the filters' 200-character limit (a longer value is a 400 by design). */
export const upTo200 = (parts: readonly string[], separator: string): string => {
  let out = "";
  for (const part of parts) {
    const next = out === "" ? part : `${out}${separator}${part}`;
    if (Array.from(next).length > 200) break;
    out = next;
  }
  return out;
};
