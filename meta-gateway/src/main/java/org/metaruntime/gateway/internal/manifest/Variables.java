package org.metaruntime.gateway.internal.manifest;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${NAME}} in a manifest's {@code env} and {@code headers} values (and in named tokens): replaced by the gateway's environment
 * variable {@code NAME} (so a token stays out of the manifest file). Only {@code ${}, a name of letters, digits and
 * {@code _} not starting with a digit, and {@code }} form a reference; any other {@code $} is kept as written.
 * Stateless.
 */
public final class Variables {

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private Variables() {
    }

    /** {@code value} with every {@code ${NAME}} replaced from {@code env}; empty when one is not set. */
    public static Optional<String> expand(String value, Map<String, String> env) {
        Matcher m = VARIABLE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = env.get(m.group(1));
            if (replacement == null) {
                return Optional.empty();
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return Optional.of(out.toString());
    }

    /** The names of the variables {@code value} reads, in order. */
    public static Set<String> names(String value) {
        Matcher m = VARIABLE.matcher(value);
        Set<String> names = new LinkedHashSet<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** The variables {@code value} names that {@code env} does not set, joined for a message. */
    public static String missing(String value, Map<String, String> env) {
        Matcher m = VARIABLE.matcher(value);
        StringBuilder names = new StringBuilder();
        while (m.find()) {
            if (!env.containsKey(m.group(1))) {
                names.append(names.length() == 0 ? "" : ", ").append(m.group(1));
            }
        }
        return names.toString();
    }
}
