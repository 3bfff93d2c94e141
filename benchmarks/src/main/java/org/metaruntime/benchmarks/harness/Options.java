package org.metaruntime.benchmarks.harness;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code --name value} options of a comparison, each declared once with its default; {@code --help} prints
 * them. An unknown option or one without a value is an {@link IllegalArgumentException}. Immutable.
 *
 * <pre>{@code
 * Options opts = Options.parse(McpComparison.class, args, "rounds", "7", "repo", ".");
 * int rounds = opts.integer("rounds");
 * }</pre>
 */
public final class Options {

    private final Map<String, String> values;

    private Options(Map<String, String> values) {
        this.values = values;
    }

    /**
     * Parses {@code args} against {@code defaults} (name, default value, name, default value, ...). On
     * {@code --help} prints the usage and exits.
     */
    public static Options parse(Class<?> harness, String[] args, String... defaults) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i + 1 < defaults.length; i += 2) {
            values.put(defaults[i], defaults[i + 1]);
        }
        StringBuilder usage = new StringBuilder("usage: java -cp benchmarks/target/benchmarks.jar " + harness.getName());
        values.forEach((name, value) -> usage.append(" [--").append(name).append(' ').append(value).append(']'));
        for (int i = 0; i < args.length; i += 2) {
            if (args[i].equals("--help") || args[i].equals("-h")) {
                System.out.println(usage);
                System.exit(0);
            }
            String name = args[i].replaceFirst("^--", "");
            if (!args[i].startsWith("--") || !values.containsKey(name) || i + 1 == args.length) {
                throw new IllegalArgumentException("bad option " + args[i] + "; " + usage);
            }
            values.put(name, args[i + 1]);
        }
        return new Options(values);
    }

    public String value(String name) {
        return values.get(name);
    }

    public int integer(String name) {
        return Integer.parseInt(values.get(name));
    }

    /** The option as an absolute, normalised path. */
    public Path path(String name) {
        return Path.of(values.get(name)).toAbsolutePath().normalize();
    }
}
