package org.metaruntime.gateway.internal.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.metaruntime.gateway.GatewayPolicy;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.GatewayOptions;
import org.metaruntime.gateway.ManifestException;
import org.metaruntime.gateway.ManifestProblem;
import org.metaruntime.gateway.MetaGateway;
import org.metaruntime.gateway.ValidationReport;
import org.metaruntime.gateway.internal.auth.NamedTokensFile;
import org.metaruntime.gateway.internal.cluster.ReplicaIds;
import org.metaruntime.gateway.internal.serve.RedactedStderr;

/**
 * {@code meta-gateway}: validates manifests (and a policy), approves a tool's definition, or serves their pods as one MCP server. Exit codes: 0 normal
 * end, 1 invalid manifests, config, policy or tokens file, 2 bad command line. Stdout carries nothing but the
 * {@code --validate} report
 * or JSON-RPC; logs go to stderr.
 */
public final class GatewayCommand {

    private GatewayCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, new PrintStream(System.out, true, StandardCharsets.UTF_8),
                new PrintStream(System.err, true, StandardCharsets.UTF_8)));
    }

    /** Runs the command; returns its exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine line;
        try {
            line = CommandLine.parse(args);
        } catch (CommandLine.UsageException e) {
            err.println("meta-gateway: " + e.getMessage());
            err.println(CommandLine.USAGE);
            return 2;
        }
        if (line.help()) {
            out.println(CommandLine.USAGE);
            return 0;
        }
        configureLogging(line.logLevel());
        RedactedStderr.install();
        GatewayPolicy policy = GatewayPolicy.allowAll();
        if (line.policy() != null) {
            try {
                policy = GatewayPolicy.read(line.policy());
            } catch (ManifestException e) {
                PrintStream to = line.validate() ? out : err;
                e.problems().forEach(to::println);
                to.flush();
                return 1;
            }
        }
        if (line.profile() != null && !policy.hasProfile(line.profile())) {
            err.println("meta-gateway: --profile " + line.profile() + " is neither all nor a profile of "
                    + (line.policy() == null ? "the policy (give --policy FILE)" : line.policy()));
            err.println(CommandLine.USAGE);
            return 2;
        }
        GatewayOptions.Builder options = options(line).policy(policy).localProfile(line.profile())
                .auditArguments(line.auditArguments());
        MetaGateway.Builder builder = MetaGateway.builder().options(options.build());
        line.manifests().forEach(builder::manifests);
        if (line.config() != null) {
            builder.claudeConfig(line.config());
        }
        if (line.validate()) {
            ValidationReport report = builder.validate();
            List<ManifestProblem> tokenProblems = List.of();
            if (line.tokens() != null) {
                try {
                    NamedTokensFile.read(line.tokens(), System.getenv(), policy::hasProfile);
                } catch (ManifestException e) {
                    tokenProblems = e.problems();
                }
            }
            if (!tokenProblems.isEmpty()) {
                report.problems().forEach(out::println);
                tokenProblems.forEach(out::println);
            }
            List<String> lines = tokenProblems.isEmpty() ? report.lines() : List.of();
            for (int i = 0; i < lines.size(); i++) {
                boolean last = i == lines.size() - 1;
                out.println(last && report.valid() && line.policy() != null ? lines.get(i) + ", " + policy.profiles().size()
                        + (policy.profiles().size() == 1 ? " profile" : " profiles") : lines.get(i));
            }
            out.flush();
            return report.valid() && tokenProblems.isEmpty() ? 0 : 1;
        }
        if (line.approve() != null) {
            return approve(builder, options, line, out, err);
        }
        return Serve.serve(builder, options, line, out, err);
    }

    /** {@code --approve POD/TOOL}: records the tool's live definition as its pin; 0 when done, 1 when refused. */
    private static int approve(MetaGateway.Builder builder, GatewayOptions.Builder options, CommandLine line, PrintStream out,
                               PrintStream err) {
        String pod = line.approve().substring(0, line.approve().indexOf('/'));
        String tool = line.approve().substring(line.approve().indexOf('/') + 1);
        EventLog log;
        try {
            log = StateLog.open(line, StateLog.database(line, System.getenv()), ReplicaIds.next());
        } catch (RuntimeException e) {
            err.println("meta-gateway: --state " + StateLog.describe(line) + " cannot be opened: " + e.getMessage());
            return 1;
        }
        try {
            builder.options(options.eventLog(log).build());
            String hash = builder.approve(pod, tool);
            out.println("approved " + pod + "/" + tool + " " + hash);
            out.flush();
            return 0;
        } catch (ManifestException e) {
            e.problems().forEach(err::println);
            return 1;
        } catch (IllegalArgumentException e) {
            err.println("meta-gateway: --approve " + line.approve() + ": " + e.getMessage());
            return 1;
        } finally {
            log.close();
        }
    }

    /** The gateway's naming and depth options as the command line sets them (policy and event log are added after). */
    static GatewayOptions.Builder options(CommandLine line) {
        return GatewayOptions.builder().separator(line.separator()).maxCallDepth(line.maxCallDepth())
                .otlpEndpoint(line.otlpEndpoint());
    }

    /**
     * slf4j-simple, when it is the binding: everything to stderr. The gateway's own loggers ({@code org.metaruntime})
     * log at {@code level}; the libraries' loggers never below info (their debug lines are many, and Jetty's carry
     * every request header, the bearer token included), Jetty's never below warn (its start and stop lines are noise).
     */
    static void configureLogging(String level) {
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", atLeast(level, "info"));
        System.setProperty("org.slf4j.simpleLogger.log.org.metaruntime", level);
        System.setProperty("org.slf4j.simpleLogger.log.org.eclipse.jetty", atLeast(level, "warn"));
    }

    /** The more severe of two levels. */
    private static String atLeast(String level, String floor) {
        return CommandLine.LEVELS.indexOf(level) >= CommandLine.LEVELS.indexOf(floor) ? level : floor;
    }
}
