/** Wall time per build phase, for the build summary and the benchmark. */
export class PhaseTimer {
  readonly totals = new Map<string, number>();

  add(phase: string, ms: number): void {
    this.totals.set(phase, (this.totals.get(phase) ?? 0) + ms);
  }

  measure<T>(phase: string, run: () => T): T {
    const started = performance.now();
    try {
      return run();
    } finally {
      this.add(phase, performance.now() - started);
    }
  }

  async measureAsync<T>(phase: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await run();
    } finally {
      this.add(phase, performance.now() - started);
    }
  }
}
