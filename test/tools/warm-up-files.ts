/**
 * `npm run warm-up-files`: (re)writes generator/edge/warm-up-files.ts, the small build the Worker
 * warms up on at startup (generator/edge/warm-up.ts). Run it when the build's format changes;
 * test/unit/warm-up.test.ts fails until it is current.
 */
import { writeFileSync } from "node:fs";
import { failedWarmUps } from "../../generator/edge/warm-up.ts";
import { renderWarmUpModule, WARM_UP_MODULE } from "../support/warm-up-build.ts";

const { source, statuses } = await renderWarmUpModule();
const failed = failedWarmUps(statuses);
if (failed > 0) {
  process.stderr.write(`error: ${failed} warm-up requests failed on the warm-up build\n`);
  process.exit(1);
}
writeFileSync(WARM_UP_MODULE, source);
process.stderr.write(`wrote ${WARM_UP_MODULE} (${(source.length / 1024).toFixed(0)} KiB)\n`);
