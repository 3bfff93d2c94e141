package org.metaruntime.gateway.internal.contract;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version range with the semantics of npm's {@code semver} ({@code satisfies} without the loose and
 * include-prerelease options): exact versions, {@code ^}, {@code ~}, comparators, x-ranges ({@code 1.x},
 * {@code *}), hyphen ranges, spaces for "and", {@code ||} for "or". A pre-release version matches only a
 * comparator set that names a pre-release of the same major.minor.patch. Whitespace is ASCII whitespace.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * SemverRange.parse("^1.2.0 || >=2.0.0-rc.1 <2.1.0").satisfiedBy("1.4.0");   // true
 * }</pre>
 */
public final class SemverRange {

    private static final int MAX_LENGTH = 256;
    private static final long MAX_SAFE_INTEGER = 9007199254740991L;

    private static final String NUMERIC = "0|[1-9]\\d*";
    private static final String NON_NUMERIC = "\\d*[a-zA-Z-][a-zA-Z0-9-]*";
    private static final String MAIN = "(" + NUMERIC + ")\\.(" + NUMERIC + ")\\.(" + NUMERIC + ")";
    private static final String MAIN_LOOSE = "(\\d+)\\.(\\d+)\\.(\\d+)";
    private static final String PRE_ID = "(?:" + NON_NUMERIC + "|" + NUMERIC + ")";
    private static final String PRE_ID_LOOSE = "(?:" + NON_NUMERIC + "|\\d+)";
    private static final String PRERELEASE = "(?:-(" + PRE_ID + "(?:\\." + PRE_ID + ")*))";
    private static final String PRERELEASE_LOOSE = "(?:-?(" + PRE_ID_LOOSE + "(?:\\." + PRE_ID_LOOSE + ")*))";
    private static final String BUILD = "(?:\\+([a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9-]+)*))";
    private static final String FULL_PLAIN = "v?" + MAIN + PRERELEASE + "?" + BUILD + "?";
    private static final String LOOSE_PLAIN = "[v=\\s]*" + MAIN_LOOSE + PRERELEASE_LOOSE + "?" + BUILD + "?";
    private static final String GTLT = "((?:<|>)?=?)";
    private static final String X_ID = NUMERIC + "|x|X|\\*";
    private static final String X_PLAIN = "[v=\\s]*(" + X_ID + ")(?:\\.(" + X_ID + ")(?:\\.(" + X_ID + ")(?:"
            + PRERELEASE + ")?" + BUILD + "?)?)?";

    private static final Pattern FULL = Pattern.compile("^" + FULL_PLAIN + "$");
    private static final Pattern BUILD_ANYWHERE = Pattern.compile(BUILD);
    private static final Pattern HYPHEN = Pattern.compile("^\\s*(" + X_PLAIN + ")\\s+-\\s+(" + X_PLAIN + ")\\s*$");
    private static final Pattern COMPARATOR_TRIM = Pattern.compile("(\\s*)" + GTLT + "\\s*(" + LOOSE_PLAIN + "|" + X_PLAIN + ")");
    /** A tilde ({@code ~} or {@code ~>}) or a caret, then spaces. */
    private static final Pattern SUGAR_TRIM = Pattern.compile("(\\s*)(~>?|\\^)\\s+");
    /** A tilde or caret range: 1 the operator, 2-4 major, minor, patch, 5 the pre-release. */
    private static final Pattern SUGAR = Pattern.compile("^(~>?|\\^)" + X_PLAIN + "$");
    private static final Pattern X_RANGE = Pattern.compile("^" + GTLT + "\\s*" + X_PLAIN + "$");
    private static final Pattern STAR = Pattern.compile("(<|>)?=?\\s*\\*");
    private static final Pattern GTE0 = Pattern.compile("^\\s*>=\\s*0\\.0\\.0\\s*$");
    private static final Pattern COMPARATOR = Pattern.compile("^" + GTLT + "\\s*(" + FULL_PLAIN + ")$|^$");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    /** A version: major.minor.patch and its pre-release identifiers (numbers as {@link Long}); build ignored. */
    public record Version(long major, long minor, long patch, List<Object> prerelease) implements Comparable<Version> {

        public Version {
            prerelease = List.copyOf(prerelease);
        }

        /** The version {@code text} means (a leading {@code v} allowed, as npm does), or empty when it is none. */
        public static Optional<Version> parse(String text) {
            if (text == null || text.length() > MAX_LENGTH) {
                return Optional.empty();
            }
            Matcher m = FULL.matcher(text.strip());
            if (!m.matches()) {
                return Optional.empty();
            }
            long major = safe(m.group(1));
            long minor = safe(m.group(2));
            long patch = safe(m.group(3));
            if (major < 0 || minor < 0 || patch < 0) {
                return Optional.empty();
            }
            List<Object> pre = new ArrayList<>();
            if (m.group(4) != null) {
                for (String id : m.group(4).split("\\.")) {
                    long n = id.chars().allMatch(Character::isDigit) ? safe(id) : -1;
                    pre.add(n >= 0 && n < MAX_SAFE_INTEGER ? (Object) n : id);
                }
            }
            return Optional.of(new Version(major, minor, patch, pre));
        }

        private static long safe(String digits) {
            if (digits.length() > 16) {
                return -1;
            }
            long n = Long.parseLong(digits);
            return n > MAX_SAFE_INTEGER ? -1 : n;
        }

        @Override
        public int compareTo(Version o) {
            int c = Long.compare(major, o.major);
            c = c != 0 ? c : Long.compare(minor, o.minor);
            c = c != 0 ? c : Long.compare(patch, o.patch);
            if (c != 0) {
                return c;
            }
            if (prerelease.isEmpty() || o.prerelease.isEmpty()) {
                return Boolean.compare(prerelease.isEmpty(), o.prerelease.isEmpty());
            }
            for (int i = 0; ; i++) {
                if (i >= prerelease.size() || i >= o.prerelease.size()) {
                    return Integer.compare(prerelease.size(), o.prerelease.size());
                }
                int d = compareIdentifiers(prerelease.get(i), o.prerelease.get(i));
                if (d != 0) {
                    return d;
                }
            }
        }

        private static int compareIdentifiers(Object a, Object b) {
            boolean an = a instanceof Long || a.toString().chars().allMatch(Character::isDigit);
            boolean bn = b instanceof Long || b.toString().chars().allMatch(Character::isDigit);
            if (an && bn) {
                return new java.math.BigInteger(a.toString()).compareTo(new java.math.BigInteger(b.toString()));
            }
            if (an != bn) {
                return an ? -1 : 1;
            }
            return Integer.signum(a.toString().compareTo(b.toString()));
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder().append(major).append('.').append(minor).append('.').append(patch);
            if (!prerelease.isEmpty()) {
                s.append('-');
                for (int i = 0; i < prerelease.size(); i++) {
                    s.append(i > 0 ? "." : "").append(prerelease.get(i));
                }
            }
            return s.toString();
        }
    }

    /** One comparator; {@code version} null means "any version". */
    private record Comparator(String operator, Version version) {
        static final Comparator ANY = new Comparator("", null);

        String value() {
            return version == null ? "" : operator + version;
        }

        boolean test(Version v) {
            if (version == null) {
                return true;
            }
            int c = v.compareTo(version);
            return switch (operator) {
                case "" -> c == 0;
                case "<" -> c < 0;
                case "<=" -> c <= 0;
                case ">" -> c > 0;
                default -> c >= 0;
            };
        }
    }

    private final String text;
    private final List<List<Comparator>> sets;

    private SemverRange(String text, List<List<Comparator>> sets) {
        this.text = text;
        this.sets = sets;
    }

    /**
     * Parses {@code range}.
     *
     * @throws IllegalArgumentException when it is not a range npm's {@code semver} accepts
     */
    public static SemverRange parse(String range) {
        Objects.requireNonNull(range, "range");
        String raw = SPACES.matcher(range.strip()).replaceAll(" ");
        List<List<Comparator>> sets = new ArrayList<>();
        for (String part : raw.split("\\|\\|", -1)) {
            List<Comparator> set = parseSet(part.strip());
            if (!set.isEmpty()) {
                sets.add(set);
            }
        }
        if (sets.isEmpty()) {
            throw new IllegalArgumentException("not a version range: \"" + range + "\"");
        }
        if (sets.size() > 1) {
            List<Comparator> first = sets.get(0);
            sets.removeIf(set -> isNullSet(set.get(0)));
            if (sets.isEmpty()) {
                sets.add(first);
            } else if (sets.size() > 1) {
                for (List<Comparator> set : sets) {
                    if (set.size() == 1 && set.get(0).version() == null) {
                        sets = new ArrayList<>(List.of(set));
                        break;
                    }
                }
            }
        }
        return new SemverRange(range, List.copyOf(sets));
    }

    /** Whether {@code version} is in the range; false when it is not a version. */
    public boolean satisfiedBy(String version) {
        return Version.parse(version).map(this::satisfiedBy).orElse(false);
    }

    /** Whether {@code version} is in the range. */
    public boolean satisfiedBy(Version version) {
        for (List<Comparator> set : sets) {
            if (matches(set, version)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }

    private static boolean matches(List<Comparator> set, Version version) {
        for (Comparator c : set) {
            if (!c.test(version)) {
                return false;
            }
        }
        if (version.prerelease().isEmpty()) {
            return true;
        }
        for (Comparator c : set) {
            Version allowed = c.version();
            if (allowed != null && !allowed.prerelease().isEmpty() && allowed.major() == version.major()
                    && allowed.minor() == version.minor() && allowed.patch() == version.patch()) {
                return true;
            }
        }
        return false;
    }

    private static boolean isNullSet(Comparator c) {
        return c.value().equals("<0.0.0-0");
    }

    private static List<Comparator> parseSet(String range) {
        String r = BUILD_ANYWHERE.matcher(range).replaceAll("");
        Matcher hyphen = HYPHEN.matcher(r);
        if (hyphen.matches()) {
            r = hyphenRange(hyphen);
        }
        r = COMPARATOR_TRIM.matcher(r).replaceAll("$1$2$3");
        r = SUGAR_TRIM.matcher(r).replaceAll(m -> m.group(1) + (m.group(2).startsWith("~") ? "~" : "^"));
        List<String> parts = new ArrayList<>();
        for (String comp : r.split(" ", -1)) {
            parts.add(desugar(comp));
        }
        List<Comparator> comparators = new ArrayList<>();
        for (String comp : String.join(" ", parts).split("\\s+", -1)) {
            comparators.add(comparator(GTE0.matcher(comp.strip()).replaceAll("")));
        }
        Map<String, Comparator> unique = new LinkedHashMap<>();
        for (Comparator c : comparators) {
            if (isNullSet(c)) {
                return List.of(c);
            }
            unique.put(c.value(), c);
        }
        if (unique.size() > 1) {
            unique.remove("");
        }
        return new ArrayList<>(unique.values());
    }

    private static Comparator comparator(String text) {
        String comp = String.join(" ", SPACES.split(text.strip()));
        Matcher m = COMPARATOR.matcher(comp);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a version comparator: \"" + comp + "\"");
        }
        String operator = m.group(1) == null || m.group(1).equals("=") ? "" : m.group(1);
        if (m.group(2) == null) {
            return Comparator.ANY;
        }
        Version version = Version.parse(m.group(2)).orElseThrow(() ->
                new IllegalArgumentException("not a version: \"" + m.group(2) + "\""));
        return new Comparator(operator, version);
    }

    /** Carets, tildes, x-ranges and stars of one space-free piece, as plain comparators. */
    private static String desugar(String comp) {
        String c = BUILD_ANYWHERE.matcher(comp).replaceFirst("");
        c = eachWord(c.strip(), w -> replace(SUGAR, w, SemverRange::sugar));
        c = eachWord(c, w -> replace(X_RANGE, w.strip(), SemverRange::xRange));
        return STAR.matcher(c.strip()).replaceFirst("");
    }

    private static String eachWord(String s, Function<String, String> f) {
        List<String> out = new ArrayList<>();
        for (String w : s.split("\\s+", -1)) {
            out.add(f.apply(w));
        }
        return String.join(" ", out);
    }

    private static String replace(Pattern p, String s, Function<Matcher, String> f) {
        Matcher m = p.matcher(s);
        return m.matches() ? f.apply(m) : s;
    }

    private static boolean isX(String id) {
        return id == null || id.isEmpty() || id.equalsIgnoreCase("x") || id.equals("*");
    }

    private static long n(String digits) {
        return Long.parseLong(digits);
    }

    /**
     * A tilde range allows changes below the minor version given (below the major when only it is given); a caret
     * range changes below the first non-zero part given (below the last part given when all are zero).
     */
    private static String sugar(Matcher m) {
        String major = m.group(2);
        String minor = m.group(3);
        String patch = m.group(4);
        if (isX(major)) {
            return "";
        }
        int bump;
        if (isX(minor)) {
            bump = 0;
        } else if (m.group(1).startsWith("~")) {
            bump = 1;
        } else if (!major.equals("0")) {
            bump = 0;
        } else {
            bump = isX(patch) || !minor.equals("0") ? 1 : 2;
        }
        return bounded(major, minor, patch, m.group(5), bump);
    }

    /**
     * {@code >=} the version given (x parts as 0, the pre-release only with a patch), {@code <} the pre-release
     * floor of the version with part {@code bump} (0 major, 1 minor, 2 patch) one higher and the later ones 0.
     */
    private static String bounded(String major, String minor, String patch, String pre, int bump) {
        boolean xMinor = isX(minor);
        boolean xPatch = xMinor || isX(patch);
        String[] from = {major, xMinor ? "0" : minor, xPatch ? "0" : patch};
        String[] to = from.clone();
        to[bump] = Long.toString(n(from[bump]) + 1);
        for (int i = bump + 1; i < to.length; i++) {
            to[i] = "0";
        }
        String release = xPatch || pre == null || pre.isEmpty() ? "" : "-" + pre;
        return ">=" + String.join(".", from) + release + " <" + String.join(".", to) + "-0";
    }

    private static String xRange(Matcher m) {
        String whole = m.group(0);
        String op = m.group(1) == null ? "" : m.group(1);
        String major = m.group(2);
        String minor = m.group(3);
        String patch = m.group(4);
        if ((isX(major) && !isX(minor)) || (isX(minor) && patch != null && !patch.isEmpty() && !isX(patch))) {
            return whole;
        }
        boolean xMajor = isX(major);
        boolean xMinor = xMajor || isX(minor);
        boolean xPatch = xMinor || isX(patch);
        if (op.equals("=") && xPatch) {
            op = "";
        }
        if (xMajor) {
            return op.equals(">") || op.equals("<") ? "<0.0.0-0" : "*";
        }
        if (!op.isEmpty() && xPatch) {
            long ma = n(major);
            long mi = xMinor ? 0 : n(minor);
            long pa = 0;
            if (op.equals(">")) {
                op = ">=";
                if (xMinor) {
                    ma++;
                    mi = 0;
                } else {
                    mi++;
                }
            } else if (op.equals("<=")) {
                op = "<";
                if (xMinor) {
                    ma++;
                } else {
                    mi++;
                }
            }
            return op + ma + "." + mi + "." + pa + (op.equals("<") ? "-0" : "");
        }
        if (xPatch) {
            return bounded(major, minor, patch, null, xMinor ? 0 : 1);
        }
        return whole;
    }

    private static String hyphenRange(Matcher m) {
        // groups: 1 from, 2-4 its major/minor/patch, 5 its pre-release, 6 its build; 7 to, 8-10, 11, 12
        String from;
        if (isX(m.group(2))) {
            from = "";
        } else if (isX(m.group(3))) {
            from = ">=" + m.group(2) + ".0.0";
        } else if (isX(m.group(4))) {
            from = ">=" + m.group(2) + "." + m.group(3) + ".0";
        } else {
            from = ">=" + m.group(1);
        }
        String to;
        if (isX(m.group(8))) {
            to = "";
        } else if (isX(m.group(9))) {
            to = "<" + (n(m.group(8)) + 1) + ".0.0-0";
        } else if (isX(m.group(10))) {
            to = "<" + m.group(8) + "." + (n(m.group(9)) + 1) + ".0-0";
        } else if (m.group(11) != null && !m.group(11).isEmpty()) {
            to = "<=" + m.group(8) + "." + m.group(9) + "." + m.group(10) + "-" + m.group(11);
        } else {
            to = "<=" + m.group(7);
        }
        return (from + " " + to).strip();
    }
}
