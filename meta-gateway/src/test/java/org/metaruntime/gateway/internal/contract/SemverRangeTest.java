package org.metaruntime.gateway.internal.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Version ranges with npm {@code semver}'s meaning: examples, and npm's {@code satisfies} as an oracle on generated pairs. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SemverRangeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static boolean satisfies(String version, String range) {
        try {
            return SemverRange.parse(range).satisfiedBy(version);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Test
    void theUsualForms() {
        assertThat(satisfies("1.2.3", "1.2.3")).isTrue();
        assertThat(satisfies("1.2.4", "1.2.3")).isFalse();
        assertThat(satisfies("1.9.0", "^1.2.3")).isTrue();
        assertThat(satisfies("2.0.0", "^1.2.3")).isFalse();
        assertThat(satisfies("1.2.9", "~1.2.3")).isTrue();
        assertThat(satisfies("1.3.0", "~1.2.3")).isFalse();
        assertThat(satisfies("1.5.0", ">=1.2.3 <2.0.0")).isTrue();
        assertThat(satisfies("2.0.0", ">=1.2.3 <2.0.0")).isFalse();
        assertThat(satisfies("3.1.0", "^1.0.0 || ^3.0.0")).isTrue();
        assertThat(satisfies("1.4.0", "1.2.3 - 1.4")).isTrue();
        assertThat(satisfies("1.5.0", "1.2.3 - 1.4")).isFalse();
        assertThat(satisfies("7.0.0", "*")).isTrue();
        assertThat(satisfies("1.7.2", "1.x")).isTrue();
        assertThat(satisfies("1.2.3", ">= 1.2.3")).isTrue();
        assertThat(satisfies("v1.2.3", "=1.2.3")).isTrue();
    }

    @Test
    void zeroMajorVersionsAndPreReleases() {
        assertThat(satisfies("0.2.9", "^0.2.3")).isTrue();
        assertThat(satisfies("0.3.0", "^0.2.3")).isFalse();
        assertThat(satisfies("0.0.3", "^0.0.3")).isTrue();
        assertThat(satisfies("0.0.4", "^0.0.3")).isFalse();
        assertThat(satisfies("0.9.9", "^0.x")).isTrue();
        assertThat(satisfies("1.0.0", "^0.x")).isFalse();
        assertThat(satisfies("1.2.3-beta.3", "^1.2.3-beta.2")).isTrue();
        assertThat(satisfies("1.2.3-alpha", "^1.2.3-beta.2")).isFalse();
        assertThat(satisfies("1.2.4-beta.1", "^1.2.3-beta.2")).as("a pre-release of another patch").isFalse();
        assertThat(satisfies("2.0.0-rc.1", "^1.0.0")).isFalse();
        assertThat(satisfies("1.0.0-rc.1", ">=1.0.0-rc.0 <1.0.0")).isTrue();
        assertThat(satisfies("1.0.0-2", "1.0.0-10")).isFalse();
        assertThat(satisfies("1.0.0-10", ">1.0.0-2")).as("numeric identifiers compare as numbers").isTrue();
        assertThat(satisfies("1.0.0+build.7", "1.0.0")).as("build metadata is ignored").isTrue();
    }

    @Test
    void whatIsNotAVersionOrARangeMatchesNothing() {
        assertThatThrownBy(() -> SemverRange.parse(">=banana")).isInstanceOf(IllegalArgumentException.class);
        assertThat(satisfies("1.2", "*")).isFalse();
        assertThat(satisfies("01.2.3", "*")).isFalse();
        assertThat(SemverRange.Version.parse("1.2.3-beta.01")).isEmpty();
        assertThat(SemverRange.Version.parse("1.2.3-beta.1+exp.sha.5114f85")).map(Object::toString).contains("1.2.3-beta.1");
    }

    @Test
    void agreesWithNpmSemverOnGeneratedVersionsAndRanges() throws Exception {
        Random random = new Random(20);
        List<String[]> pairs = new ArrayList<>();
        for (int i = 0; i < 6000; i++) {
            pairs.add(new String[] {version(random), range(random)});
        }
        List<String> inputs = new ArrayList<>();
        for (String[] pair : pairs) {
            inputs.add(JSON.writeValueAsString(pair));
        }
        List<String> expected = Oracle.ask("satisfies", inputs, dir);
        int matched = 0;
        for (int i = 0; i < pairs.size(); i++) {
            boolean ours = satisfies(pairs.get(i)[0], pairs.get(i)[1]);
            assertThat(String.valueOf(ours)).as("satisfies(%s, %s)", pairs.get(i)[0], pairs.get(i)[1]).isEqualTo(expected.get(i));
            matched += ours ? 1 : 0;
        }
        assertThat(matched).as("generated pairs that match (the generator is not all misses)").isGreaterThan(pairs.size() / 10);
    }

    private static final String[] PRE = {"alpha", "alpha.1", "beta", "beta.2", "beta.11", "rc.0", "rc.1", "0", "1", "x-y", "01"};

    private static String core(Random r) {
        return r.nextInt(3) + "." + r.nextInt(3) + "." + r.nextInt(3);
    }

    private static String version(Random r) {
        int kind = r.nextInt(20);
        if (kind == 0) {
            return new String[] {"1.2", "01.2.3", "v1.2.3", " 1.2.3 ", "1.2.3.4", "", "x", "1.2.3-", "=1.2.3"}[r.nextInt(9)];
        }
        String v = core(r);
        if (r.nextInt(3) == 0) {
            v += "-" + PRE[r.nextInt(PRE.length)];
        }
        if (r.nextInt(8) == 0) {
            v += "+build." + r.nextInt(9);
        }
        return v;
    }

    private static String partial(Random r) {
        String x = new String[] {"x", "X", "*"}[r.nextInt(3)];
        switch (r.nextInt(10)) {
            case 0:
                return String.valueOf(r.nextInt(3));
            case 1:
                return r.nextInt(3) + "." + r.nextInt(3);
            case 2:
                return r.nextInt(3) + "." + x;
            case 3:
                return r.nextInt(3) + "." + r.nextInt(3) + "." + x;
            case 4:
                return x;
            case 5:
                return core(r) + "-" + PRE[r.nextInt(PRE.length)];
            default:
                return core(r);
        }
    }

    private static String comparator(Random r) {
        String op = new String[] {"", "", "^", "~", "~>", ">=", ">", "<", "<=", "=", "v", "^", "~"}[r.nextInt(13)];
        String space = r.nextInt(6) == 0 ? " " : "";
        if (r.nextInt(10) == 0) {
            return partial(r) + " - " + partial(r);
        }
        return op + space + partial(r);
    }

    private static String range(Random r) {
        if (r.nextInt(40) == 0) {
            return new String[] {"", "||", "1.2.3 ||", ">=banana", "^", "~", ">", "<*", ">*", "1.2.3 - ", "  ^1.0.0   "}[r.nextInt(11)];
        }
        StringBuilder range = new StringBuilder();
        int alternatives = 1 + (r.nextInt(4) == 0 ? r.nextInt(3) : 0);
        for (int a = 0; a < alternatives; a++) {
            if (a > 0) {
                range.append(r.nextBoolean() ? " || " : "||");
            }
            int and = 1 + (r.nextInt(3) == 0 ? 1 : 0);
            for (int i = 0; i < and; i++) {
                range.append(i > 0 ? " " : "").append(comparator(r));
            }
        }
        return range.toString();
    }
}
