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
