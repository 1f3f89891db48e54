/** A defect in a source file, reported as `file:line: message` and failing the build. */
export class SourceError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(`${file}${line === undefined ? "" : `:${line}`}: ${reason}`);
    this.name = "SourceError";
  }
}

/** A failed fetch's message plus its root cause's code (e.g. ECONNREFUSED, ECONNRESET) or timeout. */
export function withRootCause(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let cause: unknown = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code =
      cause.name === "TimeoutError" ? "timed out" : (cause as NodeJS.ErrnoException).code;
    if (code !== undefined) return message.includes(code) ? message : `${message} (${code})`;
    cause = cause.cause;
  }
  return message;
}
