package org.metaruntime.benchmarks.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Figures of an interleaved comparison: each round runs every path once, starting with a different one each round;
 * the table uses the median over rounds and the median of ratios taken within one round. Not thread-safe.
 *
 * <pre>{@code
 * Rounds rounds = new Rounds();
 * Rounds.rotated(round, List.of(() -> rounds.record("a.us", a()), () -> rounds.record("b.us", b())));
 * double aOverB = rounds.ratio("a.us", "b.us");
 * }</pre>
 */
public final class Rounds {

    /** One measurement of a round. */
    public interface Step {
        void run() throws Exception;
    }

    /** One round of a comparison, numbered from 1. */
    public interface Round {
        void run(int round) throws Exception;
    }

    private final Map<String, List<Double>> results = new LinkedHashMap<>();

    /** The machine a comparison runs on: its cores and its Java VM. */
    public static String machine() {
        return Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.version");
    }

    /** Runs {@code steps} in an order rotated by {@code round}, so no path always goes first. */
    public static void rotated(int round, List<Step> steps) throws Exception {
        for (int i = 0; i < steps.size(); i++) {
            steps.get((round + i) % steps.size()).run();
        }
    }

    /**
     * Runs rounds 1 to {@code count} of {@code round}, printing each round's figures when it ends, then a blank line
     * and {@code table}.
     */
    public void runAndPrint(int count, Round round, Supplier<String> table) throws Exception {
        for (int r = 1; r <= count; r++) {
            round.run(r);
            System.out.println("round " + r + ": " + lastRound());
        }
        System.out.println();
        System.out.println(table.get());
    }

    public void record(String key, double value) {
        results.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }

    /** Every key with its value of the last round, {@code key=value} separated by spaces. */
    public String lastRound() {
        StringBuilder sb = new StringBuilder();
        results.forEach((k, v) -> sb.append(k).append('=').append(String.format(Locale.ROOT, "%.1f", v.get(v.size() - 1))).append(' '));
        return sb.toString().trim();
    }

    public double median(String key) {
        return median(new ArrayList<>(results.get(key)));
    }

    /** The median over rounds of numerator / denominator, both of the same round. */
    public double ratio(String numerator, String denominator) {
        List<Double> n = results.get(numerator);
        List<Double> d = results.get(denominator);
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            ratios.add(n.get(i) / d.get(i));
        }
        return median(ratios);
    }

    /** The median over rounds of numerator / the smallest (or largest) of {@code others} in the same round. */
    public double ratioToBest(String numerator, List<String> others, boolean smallestIsBest) {
        List<Double> n = results.get(numerator);
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            double best = smallestIsBest ? Double.MAX_VALUE : 0;
            for (String other : others) {
                double v = results.get(other).get(i);
                best = smallestIsBest ? Math.min(best, v) : Math.max(best, v);
            }
            ratios.add(n.get(i) / best);
        }
        return median(ratios);
    }

    public double sum(String key) {
        return results.get(key).stream().mapToDouble(Double::doubleValue).sum();
    }

    private static double median(List<Double> values) {
        Collections.sort(values);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }
}
