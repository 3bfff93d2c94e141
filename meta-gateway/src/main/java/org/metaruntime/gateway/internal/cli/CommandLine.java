package org.metaruntime.gateway.internal.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.metaruntime.gateway.OAuthOptions;
import org.metaruntime.gateway.internal.cluster.StateDatabase;
import org.metaruntime.gateway.internal.manifest.Durations;
import org.metaruntime.gateway.internal.manifest.Names;

/**
 * The parsed arguments of {@code meta-gateway}.
 *
 * @param logLevel one of trace, debug, info, warn, error, off
 * @param state    the persistent state directory (the event log), or null
 * @param watch    whether the manifests are reloaded when they change
 * @param policy   the policy file (profiles, claim rules, rate limits), or null
 * @param profile  the profile of the local or anonymous principal, or null
 * @param auditArguments whether audit events carry the redacted arguments
 * @param tokens   the named tokens file, or null
 * @param oauth    the OAuth issuer, audience and scopes, or null
 * @param publicUrl the {@code /mcp} URL clients use, or null
 * @param approve  {@code POD/TOOL} whose live definition is approved as its pin, or null
 * @param otlpEndpoint where spans are exported over OTLP/HTTP, or null
 * @param stateUrl the {@code jdbc:postgresql://} URL of the shared database ({@code --state}), or null
 * @param advertiseUrl the base URL other replicas reach this one on, or null: derived from the host and port
 * @param clusterKeyFile the file of the key shared by the replicas of a cluster, or null
 * @param taskAfter how long a modern client's call that declared the tasks extension runs before it is answered with a
 *                  task handle, or null: never
 * @param taskTtl  how long a finished task's result is kept
 */
record CommandLine(List<Path> manifests, Path config, boolean validate, String transport, String host, int port,
                   Path tokenFile, List<String> allowedOrigins, Duration sessionTimeout, String separator, int maxCallDepth,
                   String logLevel, Path state, boolean watch, boolean help,
                   Path policy, String profile, boolean auditArguments, Path tokens, OAuthOptions oauth, URI publicUrl,
                   String approve, URI otlpEndpoint, String stateUrl, URI advertiseUrl, Path clusterKeyFile,
                   Duration taskAfter, Duration taskTtl) {


    static final String USAGE = "usage: meta-gateway --manifests DIR [--manifests DIR2 ...] [--config claude_desktop_config.json]"
            + " [--validate] [--transport stdio|http|sse] [--host 127.0.0.1] [--port 3000] [--token-file FILE]"
            + " [--allow-origin ORIGIN ...] [--session-timeout 30m] [--separator __] [--max-call-depth 8] [--log-level info]"
            + " [--state DIR|jdbc:postgresql://...] [--advertise-url URL] [--cluster-key-file FILE] [--watch] [--policy FILE] [--profile NAME] [--audit-arguments]"
            + " [--tokens FILE] [--oauth-issuer URL --oauth-audience AUD [--oauth-scopes S ...]] [--public-url URL]"
            + " [--approve POD/TOOL] [--otlp-endpoint URL] [--task-after 10s] [--task-ttl 1h]";

    /** How long a finished task's result is kept without {@code --task-ttl}. */
    static final Duration DEFAULT_TASK_TTL = Duration.ofHours(1);

    private static final Set<String> TRANSPORTS = Set.of("stdio", "http", "sse");
    /** The levels of {@code --log-level}, least severe first. */
    static final List<String> LEVELS = List.of("trace", "debug", "info", "warn", "error", "off");

    CommandLine {
        manifests = List.copyOf(manifests);
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    /** Thrown for a bad command line; its message says what is wrong. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    static CommandLine parse(String... args) throws UsageException {
        List<Path> manifests = new ArrayList<>();
        Path config = null;
        boolean validate = false;
        String transport = "stdio";
        String host = "127.0.0.1";
        int port = 3000;
        Path tokenFile = null;
        List<String> origins = new ArrayList<>();
        Duration sessionTimeout = null;
        String separator = Names.DEFAULT_SEPARATOR;
        int maxCallDepth = org.metaruntime.gateway.GatewayOptions.DEFAULT_MAX_CALL_DEPTH;
        String logLevel = "info";
        Path state = null;
        boolean watch = false;
        Path policy = null;
        String profile = null;
        boolean auditArguments = false;
        Path tokens = null;
        URI issuer = null;
        String audience = null;
        List<String> scopes = new ArrayList<>();
        URI publicUrl = null;
        String approve = null;
        URI otlpEndpoint = null;
        String stateUrl = null;
        URI advertiseUrl = null;
        Path clusterKeyFile = null;
        Duration taskAfter = null;
        Duration taskTtl = DEFAULT_TASK_TTL;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            }
            switch (arg) {
                case "-h":
                case "--help":
                    return new CommandLine(manifests, config, validate, transport, host, port, tokenFile, origins, sessionTimeout,
                            separator, maxCallDepth, logLevel, state, watch, true, policy, profile, auditArguments,
                            tokens, null, publicUrl, null, null, stateUrl, advertiseUrl, clusterKeyFile, taskAfter, taskTtl);
                case "--validate":
                    validate = flag(arg, value);
                    continue;
                case "--watch":
                    watch = flag(arg, value);
                    continue;
                case "--audit-arguments":
                    auditArguments = flag(arg, value);
                    continue;
                default:
                    break;
            }
            if (value == null) {
                if (!arg.startsWith("--")) {
                    throw new UsageException("unexpected argument " + arg);
                }
                if (i + 1 >= args.length) {
                    throw new UsageException(arg + " needs a value");
                }
                value = args[++i];
            }
            switch (arg) {
                case "--manifests":
                    manifests.add(Path.of(value));
                    break;
                case "--config":
                    config = Path.of(value);
                    break;
                case "--transport":
                    transport = checked(value, TRANSPORTS.contains(value),
                            "--transport must be stdio, http or sse, not " + value);
                    break;
                case "--host":
                    host = value;
                    break;
                case "--port":
                    port = wholeNumber(value, 0, 65535, "--port must be 0 to 65535, not ");
                    break;
                case "--token-file":
                    tokenFile = Path.of(value);
                    break;
                case "--allow-origin":
                    origins.add(checked(value, value.strip().toLowerCase(java.util.Locale.ROOT).matches("https?://[^/?#\\s]+/?"),
                            "--allow-origin is scheme://host[:port], not " + value));
                    break;
                case "--session-timeout":
                    sessionTimeout = Durations.parse(value).orElse(null);
                    if (sessionTimeout == null) {
                        throw new UsageException("--session-timeout is a duration such as 30m, 90s, 500ms, not " + value);
                    }
                    break;
                case "--task-after":
                    taskAfter = positive("--task-after", value);
                    break;
                case "--task-ttl":
                    taskTtl = positive("--task-ttl", value);
                    break;
                case "--separator":
                    separator = checked(value, Names.validSeparator(value),
                            "--separator must be 1 to 8 of letters, digits, '_' and '-', not " + value);
                    break;
                case "--max-call-depth":
                    maxCallDepth = wholeNumber(value, 1, Integer.MAX_VALUE,
                            "--max-call-depth must be a whole number of at least 1, not ");
                    break;
                case "--policy":
                    policy = Path.of(value);
                    break;
                case "--profile":
                    profile = checked(value, !value.isBlank(), "--profile needs a profile name");
                    break;
                case "--state":
                    if (value.isBlank()) {
                        throw new UsageException("--state needs a directory or a jdbc:postgresql:// URL");
                    }
                    if (value.startsWith("jdbc:")) {
                        if (!StateDatabase.isUrl(value)) {
                            throw new UsageException("--state is a directory or a jdbc:postgresql:// URL");
                        }
                        stateUrl = value;
                        state = null;
                    } else {
                        state = Path.of(value);
                        stateUrl = null;
                    }
                    break;
                case "--advertise-url":
                    advertiseUrl = httpUrl("--advertise-url", value);
                    break;
                case "--cluster-key-file":
                    clusterKeyFile = Path.of(value);
                    break;
                case "--approve":
                    approve = checked(value, value.matches("[^/\\s]+/[^/\\s]+"),
                            "--approve is POD/TOOL (the pod's own name of the tool), not " + value);
                    break;
                case "--otlp-endpoint":
                    try {
                        otlpEndpoint = new URI(value);
                    } catch (URISyntaxException e) {
                        otlpEndpoint = null;
                    }
                    if (otlpEndpoint == null || otlpEndpoint.getHost() == null
                            || !("http".equals(otlpEndpoint.getScheme()) || "https".equals(otlpEndpoint.getScheme()))) {
                        throw new UsageException("--otlp-endpoint is an http or https URL, not " + value);
                    }
                    break;
                case "--log-level":
                    logLevel = checked(value, LEVELS.contains(value),
                            "--log-level must be one of trace, debug, info, warn, error, off, not " + value);
                    break;
                case "--tokens":
                    tokens = Path.of(value);
                    break;
                case "--oauth-issuer":
                    issuer = httpUrl("--oauth-issuer", value);
                    break;
                case "--oauth-audience":
                    audience = checked(value, !value.isBlank(), "--oauth-audience needs a value").strip();
                    break;
                case "--oauth-scopes":
                    scopes.add(value);
                    break;
                case "--public-url":
                    publicUrl = httpUrl("--public-url", value);
                    break;
                default:
                    throw new UsageException("unknown option " + arg);
            }
        }
        if (manifests.isEmpty() && config == null) {
            throw new UsageException("give --manifests DIR or --config FILE");
        }
        if (approve != null && state == null && stateUrl == null) {
            throw new UsageException("--approve records the pin in the event log: give --state DIR");
        }
        if (taskAfter != null && "stdio".equals(transport)) {
            throw new UsageException("--task-after answers calls over HTTP: give --transport http");
        }
        if (stateUrl == null && (advertiseUrl != null || clusterKeyFile != null)) {
            throw new UsageException("--advertise-url and --cluster-key-file are for replicas: give --state jdbc:postgresql://...");
        }
        if (stateUrl != null && approve == null && !validate && !"stdio".equals(transport) && clusterKeyFile == null) {
            throw new UsageException("--state jdbc:postgresql://... makes this gateway a replica of a cluster:"
                    + " give --cluster-key-file FILE (the key shared by every replica)");
        }
        return new CommandLine(manifests, config, validate, transport, host, port, tokenFile, origins, sessionTimeout,
                separator, maxCallDepth, logLevel, state, watch, false, policy, profile, auditArguments,
                tokens, oauth(issuer, audience, scopes), publicUrl, approve, otlpEndpoint, stateUrl, advertiseUrl,
                clusterKeyFile, taskAfter, taskTtl);
    }

    /** {@code true} for the flag {@code option}, which takes no {@code value}. */
    private static boolean flag(String option, String value) throws UsageException {
        if (value != null) {
            throw new UsageException(option + " takes no value");
        }
        return true;
    }

    /** {@code value} when it is {@code valid}, else a usage error saying {@code problem}. */
    private static String checked(String value, boolean valid, String problem) throws UsageException {
        if (!valid) {
            throw new UsageException(problem);
        }
        return value;
    }

    /** {@code value} as a whole number from {@code min} to {@code max}, else a usage error {@code problem + value}. */
    private static int wholeNumber(String value, int min, int max, String problem) throws UsageException {
        try {
            int number = Integer.parseInt(value);
            if (number >= min && number <= max) {
                return number;
            }
        } catch (NumberFormatException e) {
            // the usage error below
        }
        throw new UsageException(problem + value);
    }

    /** The duration {@code value} of {@code option}, more than zero. */
    private static Duration positive(String option, String value) throws UsageException {
        Duration duration = Durations.parse(value).orElse(null);
        if (duration == null || duration.isZero() || duration.isNegative()) {
            throw new UsageException(option + " is a duration above zero such as 10s, 1h, 500ms, not " + value);
        }
        return duration;
    }

    private static OAuthOptions oauth(URI issuer, String audience, List<String> scopes) throws UsageException {
        if (issuer == null && audience == null) {
            if (!scopes.isEmpty()) {
                throw new UsageException("--oauth-scopes needs --oauth-issuer and --oauth-audience");
            }
            return null;
        }
        if (issuer == null || audience == null) {
            throw new UsageException("--oauth-issuer and --oauth-audience go together");
        }
        try {
            return OAuthOptions.builder().issuer(issuer).audience(audience).requiredScopes(scopes.toArray(String[]::new)).build();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** {@code value} as an absolute http or https URL. */
    private static URI httpUrl(String option, String value) throws UsageException {
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null && uri.getRawQuery() == null
                    && uri.getRawFragment() == null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw new UsageException(option + " is an http or https URL, not " + value);
    }
}
