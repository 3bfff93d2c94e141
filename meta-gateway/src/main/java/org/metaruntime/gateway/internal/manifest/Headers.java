package org.metaruntime.gateway.internal.manifest;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.metaruntime.mcp.McpHttpEndpoint;

/**
 * Request headers of remote pods: {@code ${NAME}} in a value is replaced by the gateway's environment variable
 * {@code NAME} (so a token stays out of the manifest file), and the result is checked as an HTTP header. Stateless.
 */
final class Headers {

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private Headers() {
    }

    /** {@code value} with every {@code ${NAME}} replaced from {@code env}; empty when one is not set. */
    static Optional<String> expand(String value, Map<String, String> env) {
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

    /** The variables {@code value} names that {@code env} does not set, joined for a message. */
    static String missing(String value, Map<String, String> env) {
        Matcher m = VARIABLE.matcher(value);
        StringBuilder names = new StringBuilder();
        while (m.find()) {
            if (!env.containsKey(m.group(1))) {
                names.append(names.length() == 0 ? "" : ", ").append(m.group(1));
            }
        }
        return names.toString();
    }

    /** What is wrong with the header (after expansion), if anything. */
    static Optional<String> problem(String name, String value) {
        return McpHttpEndpoint.headerProblem(name, value);
    }
}
