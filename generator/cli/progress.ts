/** Progress on stderr: a rewritten line on a terminal, a line per 10% otherwise (CI logs). */
export function progressReporter(label: string): (done: number, total: number) => void {
  let lastDecile = -1;
  let lastTime = 0;
  return (done, total) => {
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    if (process.stderr.isTTY) {
      const now = Date.now();
      if (done !== total && now - lastTime < 200) return;
      lastTime = now;
      process.stderr.write(
        `\r${label}: ${done}/${total} (${percent}%)${done === total ? "\n" : ""}`,
      );
      return;
    }
    const decile = Math.floor(percent / 10);
    if (decile === lastDecile) return;
    lastDecile = decile;
    process.stderr.write(`${label}: ${done}/${total} (${percent}%)\n`);
  };
}
