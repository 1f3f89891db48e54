/**
 * Node's flags for a thread running `script`: the process's own but V8's heap settings (a thread
 * refuses them; it shares the process's V8 flags), and tsx's loader when the process has none
 * (vitest), so that the thread runs TypeScript as this process does; none for the compiled CLI's
 * JavaScript (cli/compiled.mjs).
 */
export function threadArgs(script: URL): string[] {
  const own = process.execArgv.filter(
    (arg) =>
      !/^--(max-old-space-size|max-semi-space-size|min-semi-space-size|heap-growing-percent|stack-size)\b/.test(
        arg,
      ),
  );
  return !script.pathname.endsWith(".ts") || own.some((arg) => arg.includes("tsx"))
    ? own
    : [...own, "--import", "tsx"];
}
