/**
 * The main thread's CPU ms: the thread that runs the Worker's code, as Cloudflare bills an
 * isolate's own thread. Linux's getrusage(RUSAGE_THREAD), behind threadCpuUsage, reads the thread's
 * runtime as of its last scheduler tick or switch; cpuUsage (getrusage(RUSAGE_SELF)) first brings
 * the calling thread's runtime up to date, so right after it the thread's figure is exact (see
 * bench/search.ts, which reads both).
 */
export const mainCpu = (): number => {
  process.cpuUsage();
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};
