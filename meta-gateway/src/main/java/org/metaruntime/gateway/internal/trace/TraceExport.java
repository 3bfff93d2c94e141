package org.metaruntime.gateway.internal.trace;

import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporterBuilder;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the gateway's spans go: a host's exporter, else OTLP over HTTP ({@code http/protobuf}) to the configured
 * endpoint or the one the standard {@code OTEL_EXPORTER_OTLP_*} environment variables name, else nowhere.
 * Immutable.
 *
 * @param exporter    the exporter, empty when spans are not exported
 * @param serviceName the {@code service.name} of the spans' resource
 */
public record TraceExport(Optional<SpanExporter> exporter, String serviceName) {

    private static final Logger log = LoggerFactory.getLogger(TraceExport.class);

    /** The {@code service.name} unless {@code OTEL_SERVICE_NAME} says otherwise. */
    public static final String DEFAULT_SERVICE_NAME = "meta-gateway";

    /**
     * Resolves the export.
     *
     * @param hostExporter an exporter the host gave (wins over any endpoint), or null
     * @param endpoint     the OTLP base URL given as an option (wins over the environment), or null
     * @param env          the gateway's environment
     */
    public static TraceExport resolve(SpanExporter hostExporter, URI endpoint, Map<String, String> env) {
        String service = nonBlank(env.get("OTEL_SERVICE_NAME")).orElse(DEFAULT_SERVICE_NAME);
        if (hostExporter != null) {
            return new TraceExport(Optional.of(hostExporter), service);
        }
        Optional<String> url = tracesUrl(endpoint, env);
        if (url.isEmpty()) {
            return new TraceExport(Optional.empty(), service);
        }
        protocol(env);
        OtlpHttpSpanExporterBuilder builder = OtlpHttpSpanExporter.builder().setEndpoint(url.get());
        headers(nonBlank(env.get("OTEL_EXPORTER_OTLP_HEADERS")).orElse("")).forEach(builder::addHeader);
        log.info("traces: spans are exported to {} (http/protobuf)", url.get());
        return new TraceExport(Optional.of(builder.build()), service);
    }

    /** The URL spans are POSTed to: the option's or {@code OTEL_EXPORTER_OTLP_ENDPOINT} + {@code /v1/traces}, or {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} as is. */
    static Optional<String> tracesUrl(URI endpoint, Map<String, String> env) {
        if (endpoint != null) {
            return Optional.of(withPath(endpoint.toString()));
        }
        Optional<String> traces = nonBlank(env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"));
        if (traces.isPresent()) {
            return traces;
        }
        return nonBlank(env.get("OTEL_EXPORTER_OTLP_ENDPOINT")).map(TraceExport::withPath);
    }

    private static String withPath(String base) {
        return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/traces";
    }

    /** {@code OTEL_EXPORTER_OTLP_PROTOCOL}: only {@code http/protobuf} is sent; any other value costs a warning. */
    private static void protocol(Map<String, String> env) {
        Optional<String> protocol = nonBlank(env.get("OTEL_EXPORTER_OTLP_PROTOCOL"));
        if (protocol.isPresent() && !protocol.get().equals("http/protobuf")) {
            log.warn("traces: OTEL_EXPORTER_OTLP_PROTOCOL={} is not supported; spans are sent as http/protobuf",
                    Printable.of(protocol.get()));
        }
    }

    /** {@code OTEL_EXPORTER_OTLP_HEADERS}: {@code key=value} pairs separated by commas, values URL-encoded. */
    static Map<String, String> headers(String spec) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String pair : spec.split(",")) {
            int eq = pair.indexOf('=');
            if (pair.isBlank()) {
                continue;
            }
            if (eq <= 0) {
                log.warn("traces: an entry of OTEL_EXPORTER_OTLP_HEADERS is not key=value; it is ignored");
                continue;
            }
            String key = pair.substring(0, eq).trim();
            String value = URLDecoder.decode(pair.substring(eq + 1).trim(), StandardCharsets.UTF_8);
            headers.put(key, value);
        }
        return headers;
    }

    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /** Text from the environment, safe for one log line. */
    private static final class Printable {
        static String of(String text) {
            StringBuilder out = new StringBuilder();
            text.codePoints().limit(64).forEach(c -> out.appendCodePoint(Character.isISOControl(c) ? '?' : c));
            return out.toString();
        }
    }
}
