/**
 * Wall time per build phase, for the build summary and the benchmark. Phases nest: each moment
 * counts to the innermost phase running, so a phase's total is its own time (the writes inside
 * the render are the write phase's, the search index inside it the search phase's), and the
 * totals add up to the time measured. Phases run one after another, never side by side.
 */
export class PhaseTimer {
  readonly totals = new Map<string, number>();
  private readonly running: { readonly phase: string; since: number }[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  measure<T>(phase: string, run: () => T): T {
    this.enter(phase);
    try {
      return run();
    } finally {
      this.leave();
    }
  }

  async measureAsync<T>(phase: string, run: () => Promise<T>): Promise<T> {
    this.enter(phase);
    try {
      return await run();
    } finally {
      this.leave();
    }
  }

  private enter(phase: string): void {
    const now = this.now();
    const outer = this.running.at(-1);
    if (outer !== undefined) this.add(outer.phase, now - outer.since);
    this.running.push({ phase, since: now });
  }

  private leave(): void {
    const now = this.now();
    const inner = this.running.pop();
    if (inner !== undefined) this.add(inner.phase, now - inner.since);
    const outer = this.running.at(-1);
    if (outer !== undefined) outer.since = now;
  }

  private add(phase: string, ms: number): void {
    this.totals.set(phase, (this.totals.get(phase) ?? 0) + ms);
  }
}
