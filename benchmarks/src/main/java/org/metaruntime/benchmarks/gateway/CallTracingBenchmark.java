package org.metaruntime.benchmarks.gateway;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.metaruntime.gateway.internal.pipeline.CallSpan;
import org.metaruntime.gateway.internal.pipeline.TraceHeaders;
import org.metaruntime.gateway.internal.trace.GatewayTracer;
import org.metaruntime.gateway.spi.CallOutcome;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What tracing adds to one gateway call: the call's span started under the caller's {@code traceparent}, the pod's
 * {@code _meta} stamped, the span ended. {@code noTracing} is the baseline (the {@code _meta} object the call builds
 * anyway); {@code unexported} is the default (spans with real ids, exported nowhere); {@code exported} batches every
 * span to an exporter that drops it (the SDK's cost without the network).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CallTracingBenchmark {

    private static final TraceHeaders INCOMING = new TraceHeaders(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "vendor=x", null);

    private GatewayTracer unexported;
    private GatewayTracer exported;

    /** Drops every span. */
    private static final class Dropping implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }

    @Setup
    public void setUp() {
        unexported = GatewayTracer.unexported();
        exported = GatewayTracer.create(Optional.of(new Dropping()), "bench");
    }

    @TearDown
    public void tearDown() {
        unexported.close();
        exported.close();
    }

    @Benchmark
    public ObjectNode noTracing() {
        return JsonNodeFactory.instance.objectNode().put("mcp-meta/call", "c1");
    }

    @Benchmark
    public ObjectNode unexported() {
        return traced(unexported);
    }

    @Benchmark
    public ObjectNode exported() {
        return traced(exported);
    }

    private static ObjectNode traced(GatewayTracer tracer) {
        ObjectNode meta = JsonNodeFactory.instance.objectNode().put("mcp-meta/call", "c1");
        CallSpan span = tracer.start("files__read", "c1", INCOMING, null, null);
        span.stamp(meta);
        span.end(CallOutcome.OK, null, false);
        return meta;
    }
}
