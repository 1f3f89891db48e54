import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order the test files start in. Two workers take files from one queue, so the run ends when
 * the later of them runs out: the longest files have to start first, or one of them starts near
 * the end while the other worker has nothing left. vitest orders by the last run's durations when
 * it has them (node_modules/.vite) and otherwise by file size, which puts several short files
 * with long runs (a CLI build per row, a PostgreSQL oracle, a property test) last on a fresh
 * clone, as in CI. These files start first, in this order: the longest in CI-like runs on two
 * cores (each file's own time; the builds it shares with others aside). Every other file follows
 * in vitest's order.
 */
export const SLOW_FIRST = [
  "test/build/remote.test.ts",
  "test/build/cli.test.ts",
  "test/build/deploy.test.ts",
  "test/integration/hostile.test.ts",
  "test/integration/request-limits.test.ts",
  "test/browser/docs.test.ts",
  "test/build/guards.test.ts",
  "test/build/incremental.test.ts",
  "test/build/resources.test.ts",
  "test/unit/search-property.test.ts",
  "test/unit/search-index.test.ts",
  "test/integration/search.test.ts",
  "test/integration/budget-equivalence.test.ts",
  "test/integration/serve.test.ts",
  "test/integration/runtimes.test.ts",
  "test/unit/search-tables.test.ts",
  "test/unit/suggest-property.test.ts",
  "test/build/budget-equivalence.test.ts",
  "test/integration/records.test.ts",
  "test/build/build.test.ts",
  "test/unit/streets-regex-property.test.ts",
  "test/integration/endpoints.test.ts",
  "test/integration/verify.test.ts",
  "test/unit/regex-property.test.ts",
  // 25 s in CI; about 10 s since its builds write no page files and no search index.
  "test/build/changes.test.ts",
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOW_FIRST.indexOf(relative(file.project.config.root, file.moduleId));
      return index === -1 ? SLOW_FIRST.length : index;
    };
    // Array.prototype.sort is stable: files of the same rank keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
