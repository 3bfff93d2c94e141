// The timing loops every node bench client shares, the same as the Java clients' (harness/Timing.java).
// A call is given its text ('w<i>' while warming up, 'm<i>' when timed sequentially, 'c<i>' in flight) and throws
// when its answer is wrong.
export const now = () => process.hrtime.bigint();

// `warmups` untimed calls (default: min(count, 2000)), then `count` timed ones in sequence; µs per timed call.
export async function sequential(count, call, warmups = Math.min(count, 2000)) {
  await warmUp(warmups, call);
  const start = now();
  for (let i = 0; i < count; i++) await call('m' + i);
  return Number(now() - start) / count / 1000;
}

// `count` untimed calls in sequence.
export async function warmUp(count, call) {
  for (let i = 0; i < count; i++) await call('w' + i);
}

// `concurrency` calls in flight until `count` are done; a call that throws is lost.
export async function inflight(count, concurrency, call) {
  let next = 0;
  let lost = 0;
  const start = now();
  async function worker() {
    while (next < count) {
      const i = next++;
      try {
        await call('c' + i);
      } catch (e) {
        lost++;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { lost, callsPerSecond: count / (Number(now() - start) / 1e9) };
}

// `warmups` untimed runs, then `count` timed ones; a run may return a function, run untimed after it (a close).
// ms per timed run.
export async function perRun(count, run, warmups = 0) {
  let total = 0n;
  for (let i = 0; i < warmups + count; i++) {
    const start = now();
    const after = await run(i);
    if (i >= warmups) total += now() - start;
    if (typeof after === 'function') await after();
  }
  return Number(total) / count / 1e6;
}

// The modes `warm` and `inflight` on one session each: connect(), `warmups` untimed calls made the way the timed ones
// are (in sequence, or `concurrency` in flight), the timed calls, close(s).
// BENCH_WARMUP_CALLS in the environment sets `warmups` (default 2000; a JVM on the path needs tens of thousands
// of calls before its compiler has finished).
// call(session, text) makes one call.
export function sessionModes({ count, concurrency, connect, call, close = (s) => s.close(),
                              warmups = Number(process.env.BENCH_WARMUP_CALLS ?? 2000) }) {
  return {
    async warm() {
      const session = await connect();
      const usPerCall = await sequential(count, (text) => call(session, text), warmups);
      await close(session);
      return { calls: count, usPerCall };
    },
    async inflight() {
      const session = await connect();
      await inflight(warmups, concurrency, (text) => call(session, 'w' + text));
      const result = await inflight(count, concurrency, (text) => call(session, text));
      await close(session);
      return { calls: count, ...result };
    },
  };
}

// Runs modes[mode]() and prints {mode, ...its result} as one JSON line; an unknown mode exits with status 2.
export async function main(mode, modes) {
  if (!Object.hasOwn(modes, mode)) {
    console.error('unknown mode ' + mode);
    process.exit(2);
  }
  console.log(JSON.stringify({ mode, ...(await modes[mode]()) }));
}

// Throws unless `actual` is `expected`.
export function expect(expected, actual) {
  if (actual !== expected) throw new Error('mismatched answer');
  return actual;
}
