import { defineConfig } from "vitest/config";
import SlowFirstSequencer from "./test/support/sequencer.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    // No test is timed: these bound a hang, not the work, so a busy machine (load 6 on two cores)
    // fails nothing. Builds are shared by the run (test/support/shared-build.ts).
    testTimeout: 900_000,
    hookTimeout: 900_000,
    // Integration suites start their own workerd; two at a time fit the 2-core machines.
    maxWorkers: 2,
    // Each worker process runs file after file with the modules it has loaded (the generator, the
    // support code, vitest's runner), instead of a new process per file: 90 of the shorter files
    // took 261 s of CPU isolated and 117 s so (the same 2,629 tests passing). What a module keeps
    // between files is memos of pure functions (generator/contract/isolate-state.ts); a test file
    // that changes the environment puts it back (hostile-clients.test.ts), and mocks are restored.
    isolate: false,
    // The longest files start first, so that neither worker ends the run alone (sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
  },
});
