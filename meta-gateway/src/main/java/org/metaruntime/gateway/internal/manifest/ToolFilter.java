package org.metaruntime.gateway.internal.manifest;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Which of the tools a pod lists live are served ({@code spec.includeTools}, {@code spec.excludeTools}): a tool is
 * served when its name matches an include glob (or there is none) and no exclude glob. In a glob {@code *} stands for
 * any run of characters and {@code ?} for any one; everything else matches itself. Immutable.
 *
 * <pre>{@code
 * ToolFilter filter = new ToolFilter(List.of("read_*", "list_*"), List.of("*_secret"));
 * filter.serves("read_file");   // true
 * filter.serves("read_secret"); // false
 * }</pre>
 *
 * @param include globs of the tools served; empty: every tool
 * @param exclude globs of the tools not served, whatever {@code include} says
 */
public record ToolFilter(List<String> include, List<String> exclude) {

    /** Every tool is served. */
    public static final ToolFilter ALL = new ToolFilter(List.of(), List.of());

    public ToolFilter {
        include = List.copyOf(include);
        exclude = List.copyOf(exclude);
    }

    /** Whether the tool called {@code name} is served. */
    public boolean serves(String name) {
        return (include.isEmpty() || matchesAny(include, name)) && !matchesAny(exclude, name);
    }

    /** Whether it serves every tool. */
    public boolean isAll() {
        return include.isEmpty() && exclude.isEmpty();
    }

    /** Whether {@code name} matches one of {@code globs}, whole and case-sensitively. */
    public static boolean matchesAny(List<String> globs, String name) {
        for (String glob : globs) {
            if (pattern(glob).matcher(name).matches()) {
                return true;
            }
        }
        return false;
    }

    private static Pattern pattern(String glob) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*' || c == '?') {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
