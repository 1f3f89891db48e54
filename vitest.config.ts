import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Integration suites start their own workerd; two at a time fit the 2-core machines.
    maxWorkers: 2,
  },
});
