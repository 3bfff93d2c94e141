// The page's own work, timed: each part is a User Timing measure named "console <part>" that a
// PerformanceObserver can read. The timeline's copy is dropped at once, so a page left open for days keeps none.
export function measured(part, work) {
  const start = performance.now();
  try {
    return work();
  } finally {
    const name = 'console ' + part;
    performance.measure(name, { start });
    performance.clearMeasures(name);
  }
}
