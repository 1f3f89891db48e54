/**
 * A pattern that is only a fixed sequence of classes, unanchored (`(a|e|i|o|u){3}`, `\W\w\W\w\W`,
 * `[äöü]ß`): a value matches exactly when it holds that run of classes somewhere, so the run's
 * search over the joined values (run-scan.ts) decides every value, and the pattern is neither
 * compiled nor handed any value.
 */
import type { Node } from "./ast.ts";
import type { RunQuery } from "./runs.ts";

/**
 * The pattern's run query (`runs`: runQuery of the node over the values' alphabet, asked for only
 * when the node is a fixed sequence) when it decides the pattern, or undefined when the run search
 * only sorts values out (an anchor, a repetition of varying count, an alternation of longer
 * branches; or a run runs.ts shortens, splits or drops as not worth a pass).
 */
export function decidingRun(node: Node, runs: () => RunQuery): RunQuery | undefined {
  const length = sequenceLength(node);
  if (length === undefined || length === 0) return undefined;
  const query = runs();
  // runs.ts builds the run position by position from the same classes: whole only at this length.
  return query.op === "run" && query.classes.length === length ? query : undefined;
}

/** The length of every match when the node is a sequence of one class per position, else undefined. */
function sequenceLength(node: Node): number | undefined {
  switch (node.kind) {
    case "char":
    case "class":
    case "any":
      return 1;
    case "empty":
      return 0;
    case "start":
    case "end":
      return undefined;
    case "concat": {
      let sum = 0;
      for (const part of node.parts) {
        const length = sequenceLength(part);
        if (length === undefined) return undefined;
        sum += length;
      }
      return sum;
    }
    case "alternate":
      // `(a|e|i)` is one class; `(ab|cd)` is not `[ac][bd]`.
      return node.branches.length > 0 && node.branches.every((b) => sequenceLength(b) === 1)
        ? 1
        : undefined;
    case "repeat": {
      if (node.max !== node.min) return undefined;
      const inner = sequenceLength(node.node);
      return inner === undefined ? undefined : inner * node.min;
    }
  }
}
