package org.metaruntime.benchmarks.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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

    private final Map<String, List<Double>> results = new LinkedHashMap<>();

    /** Runs {@code steps} in an order rotated by {@code round}, so no path always goes first. */
    public static void rotated(int round, List<Step> steps) throws Exception {
        for (int i = 0; i < steps.size(); i++) {
            steps.get((round + i) % steps.size()).run();
        }
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
