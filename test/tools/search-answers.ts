/**
 * The child of the differential run (test/support/search-differential.ts): one version of the
 * Worker (`generator/edge/worker.ts` of a checkout, imported through tsx) over one build, asked
 * every target in order in one warm isolate, through the local stand-in for the asset binding
 * (test/support/local-assets.ts: files with their `_headers` rules). Orders as JSON on stdin;
 * answers as JSON into the file the order names (the Worker's own log lines go to stderr).
 *
 *   node --import tsx test/tools/search-answers.ts < order.json
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { localAssets } from "../support/local-assets.ts";
import type { AnswerOrder, WorkerAnswer } from "../support/search-differential.ts";

interface Worker {
  fetch(request: Request, env: { ASSETS: unknown }): Promise<Response>;
}

/** Characters of a 200's body kept in the answer (for the report), unless every body is asked for; any other body is kept whole. */
const HEAD = 400;

const order = JSON.parse(readFileSync(0, "utf8")) as AnswerOrder;
const worker = (
  (await import(pathToFileURL(join(order.checkout, "generator/edge/worker.ts")).href)) as {
    default: Worker;
  }
).default;
const env = { ASSETS: localAssets(order.out) };
const answers: WorkerAnswer[] = [];
for (const target of order.targets) {
  const response = await worker.fetch(new Request(`http://localhost${target}`), env);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  answers.push({
    status: response.status,
    headers: [...response.headers],
    length: bytes.byteLength,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    ...(order.bodies || response.status !== 200 ? { body: text } : { head: text.slice(0, HEAD) }),
  });
}
writeFileSync(order.answers, JSON.stringify(answers));
