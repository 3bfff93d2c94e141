package org.metaruntime.benchmarks.harness;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * The timing loops of the Java clients, the same as {@code benchmarks/node/timing.mjs} runs for the node clients:
 * warm sequential calls, {@value #IN_FLIGHT} calls kept in flight, timed runs. A call is given its text
 * ({@code w<i>} while warming up, {@code m<i>} when timed sequentially, {@code c<i>} in flight) and fails (throws,
 * or completes exceptionally) when its answer is wrong. Stateless; each loop runs on the calling thread.
 *
 * <pre>{@code
 * double us = Timing.sequential(2000, 20000, text -> Timing.expect(text, client.echo(text)));
 * Timing.InFlight r = Timing.inFlight(20000, i -> client.echoAsync("c" + i));
 * }</pre>
 */
public final class Timing {

    /** How many calls the in-flight loops keep outstanding. */
    public static final int IN_FLIGHT = 64;

    /** One call of a loop, given the text it sends. */
    public interface Call {
        void run(String text) throws Exception;
    }

    /** One timed run. */
    public interface Run {
        void run() throws Exception;
    }

    /** What an in-flight loop measured: throughput and the calls that failed or answered wrongly. */
    public record InFlight(double callsPerSecond, int lost, Throwable firstFailure) {
    }

    private Timing() {
    }

    /** {@code warmups} untimed calls, then {@code calls} timed ones, one after the other; µs per timed call. */
    public static double sequential(int warmups, int calls, Call call) throws Exception {
        warmUp(warmups, call);
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            call.run("m" + i);
        }
        return (System.nanoTime() - start) / 1e3 / calls;
    }

    /** {@code calls} untimed calls, one after the other. */
    public static void warmUp(int calls, Call call) throws Exception {
        for (int i = 0; i < calls; i++) {
            call.run("w" + i);
        }
    }

    /** Keeps {@value #IN_FLIGHT} calls in flight until {@code calls} are done; a failed call is counted as lost. */
    public static InFlight inFlight(int calls, IntFunction<? extends CompletionStage<?>> call) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        AtomicReference<Throwable> first = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(calls);
        Runnable[] issue = new Runnable[1];
        issue[0] = () -> {
            int i = next.getAndIncrement();
            if (i >= calls) {
                return;
            }
            CompletionStage<?> f;
            try {
                f = call.apply(i);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((answer, e) -> {
                if (e != null) {
                    lost.incrementAndGet();
                    first.compareAndSet(null, e);
                }
                done.countDown();
                issue[0].run();
            });
        };
        long start = System.nanoTime();
        for (int w = 0; w < IN_FLIGHT; w++) {
            issue[0].run();
        }
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("in-flight run did not finish");
        }
        return new InFlight(calls / ((System.nanoTime() - start) / 1e9), lost.get(), first.get());
    }

    /** Runs {@code run} {@code runs} times; the mean ms per run. */
    public static double msPerRun(int runs, Run run) throws Exception {
        long total = 0;
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            run.run();
            total += System.nanoTime() - start;
        }
        return total / 1e6 / runs;
    }

    /** Returns {@code actual}, or throws when it is not {@code expected}. */
    public static String expect(String expected, String actual) {
        if (!expected.equals(actual)) {
            throw new IllegalStateException("mismatched answer " + actual + " to " + expected);
        }
        return actual;
    }
}
