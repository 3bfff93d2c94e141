package org.metaruntime.gateway.internal.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.eclipse.jetty.util.Fields;
import org.junit.jupiter.api.Test;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventPage;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.MobEventPage;
import org.metaruntime.events.MobEventQuery;
import org.metaruntime.events.MobStructuralEventEnvelope;
import org.metaruntime.events.Subscription;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.gateway.internal.cluster.Replica;
import org.metaruntime.gateway.internal.cluster.Replicas;
import org.metaruntime.gateway.internal.pipeline.AuditLog;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.serve.ServedView;
import org.metaruntime.gateway.spi.Principal;

/** The console's endpoints over a fake gateway, a fake event log, a clock the test moves and fake replicas. */
class ConsoleApiTest {

    private static final Principal OPS = new Principal("ops", "token", List.of("all"), Map.of());
    private static final Principal GUEST = new Principal("guest", "token", List.of("guest"), Map.of());

    private final AtomicLong now = new AtomicLong(1_800_000_000_000L);
    private final FakeLog log = new FakeLog();
    private final LatencyWindows latency = new LatencyWindows(now::get);
    private final FakeSource source = new FakeSource();
    private final ConsoleApi api = new ConsoleApi(source, log, latency, fakeReplicas(), now::get);

    @Test
    void podsCarryStateCountsPercentilesAndABoundedStderrTail() {
        String tail = "x".repeat(ConsoleApi.STDERR_CHARS) + "<script>end</script>";
        source.pods.add(new ServedView.PodView("alpha", "healthy", OptionalLong.of(ProcessHandle.current().pid()), 2,
                "exited with 1", tail, 7, 1, "2025-11-25"));
        source.pods.add(new ServedView.PodView("beta", "idle", OptionalLong.empty(), 0, null, "", 0, 0, null));
        for (int i = 1; i <= 100; i++) {
            latency.completed("alpha", "echo", i * 1_000_000L, 0);
        }

        JsonNode pods = api.pods(OPS).get("pods");

        JsonNode alpha = pods.get(0);
        assertThat(alpha.get("state").asText()).isEqualTo("healthy");
        assertThat(alpha.get("restarts").asInt()).isEqualTo(2);
        assertThat(alpha.get("callsServed").asLong()).isEqualTo(7);
        assertThat(alpha.get("callsFailed").asLong()).isEqualTo(1);
        assertThat(alpha.get("era").asText()).isEqualTo("2025-11-25");
        assertThat(alpha.get("uptimeSeconds").isNumber()).isTrue();
        assertThat(alpha.get("p50Ms").asDouble()).isBetween(50.0, 50.0 * 1.2);
        assertThat(alpha.get("p95Ms").asDouble()).isBetween(95.0, 95.0 * 1.2);
        assertThat(alpha.get("stderrTail").asText()).hasSize(ConsoleApi.STDERR_CHARS).endsWith("<script>end</script>");
        JsonNode beta = pods.get(1);
        assertThat(beta.get("pid").isNull()).isTrue();
        assertThat(beta.get("uptimeSeconds").isNull()).isTrue();
        assertThat(beta.get("p95Ms").isNull()).isTrue();
        assertThat(beta.get("lastError").isNull()).isTrue();
    }

    @Test
    void theRecentPercentilesForgetCallsOlderThanFiveMinutes() {
        source.pods.add(new ServedView.PodView("alpha", "healthy", OptionalLong.empty(), 0, null, "", 0, 0, null));
        latency.completed("alpha", "echo", 1_000_000_000L, 0);
        now.addAndGet(Duration.ofMinutes(6).toMillis());
        latency.completed("alpha", "echo", 2_000_000L, 0);

        assertThat(api.pods(OPS).at("/pods/0/p95Ms").asDouble()).isLessThan(3.0);
    }

    @Test
    void toolsCarryContractHashesDriftAndProfiles() {
        source.tools.add(new ServedView.ToolView("alpha__echo", "alpha", "echo", "<img src=x onerror=alert(1)>",
                "fixture.echo", "1.4.2", "sha256:s", "sha256:d", "sha256:p", "warn", List.of("all", "guest")));

        JsonNode tool = api.tools(OPS).at("/tools/0");

        assertThat(tool.get("name").asText()).isEqualTo("alpha__echo");
        assertThat(tool.get("description").asText()).isEqualTo("<img src=x onerror=alert(1)>");
        assertThat(tool.at("/contract/id").asText()).isEqualTo("fixture.echo");
        assertThat(tool.at("/contract/version").asText()).isEqualTo("1.4.2");
        assertThat(tool.get("schemaHash").asText()).isEqualTo("sha256:s");
        assertThat(tool.get("definitionHash").asText()).isEqualTo("sha256:d");
        assertThat(tool.get("drift").asText()).isEqualTo("warn");
        assertThat(tool.get("profiles")).extracting(JsonNode::asText).containsExactly("all", "guest");
    }

    @Test
    void callsComeFromTheAuditNewestFirstFilteredAndPaged() {
        for (int i = 0; i < 30; i++) {
            audit(i % 2 == 0 ? "alpha" : "beta", i % 2 == 0 ? "alpha__echo" : "beta__echo", i % 3 == 0 ? "guest" : "ops",
                    i % 5 == 0 ? "error" : "ok");
        }

        JsonNode first = api.calls(OPS, query("limit", "10"));
        assertThat(first.get("calls")).hasSize(10);
        assertThat(first.at("/calls/0/seq").asLong()).isEqualTo(30);
        JsonNode second = api.calls(OPS, query("limit", "10", "before", first.get("before").asText()));
        assertThat(second.at("/calls/0/seq").asLong()).isEqualTo(20);
        JsonNode last = api.calls(OPS, query("limit", "10", "before", "11"));
        assertThat(last.get("calls")).hasSize(10);
        assertThat(last.get("before").isNull()).isTrue();

        JsonNode filtered = api.calls(OPS, query("pod", "alpha", "principal", "guest", "outcome", "error", "tool", "alpha__echo"));
        assertThat(filtered.get("calls")).extracting(c -> c.get("seq").asLong()).containsExactly(1L);
        JsonNode call = filtered.at("/calls/0");
        assertThat(call.get("durationMs").asLong()).isEqualTo(12);
        assertThat(call.get("traceId").asText()).isEqualTo("trace-1");
        assertThat(call.get("errorCode").asInt()).isEqualTo(-32603);
    }

    @Test
    void aPrincipalSeesOnlyTheCallsOfToolsItMayCall() {
        audit("alpha", "alpha__echo", "ops", "ok");
        audit("beta", "beta__secret", "ops", "ok");
        source.hidden = "beta__secret";

        assertThat(api.calls(GUEST, query()).get("calls")).extracting(c -> c.get("tool").asText()).containsExactly("alpha__echo");
        assertThat(api.calls(OPS, query()).get("calls")).hasSize(2);
    }

    @Test
    void callsAreReadOnceAndNewRecordsArePickedUp() {
        audit("alpha", "alpha__echo", "ops", "ok");
        assertThat(api.calls(OPS, query()).get("calls")).hasSize(1);
        audit("alpha", "alpha__echo", "ops", "ok");
        assertThat(api.calls(OPS, query()).get("calls")).hasSize(2);
        assertThat(log.queries).as("each read asks only for what is new").last()
                .extracting(EventQuery::afterSeq).isEqualTo(1L);
    }

    @Test
    void theFirstPageReadsAboutItsOwnRecordsNotTheWholeAudit() {
        for (int i = 0; i < 20_000; i++) {
            audit("alpha", "alpha__echo", "ops", "ok");
            if (i % 3 == 0) {
                other();
            }
        }
        long newest = log.events.get(log.events.size() - 1).seq();

        JsonNode first = api.calls(OPS, query());

        assertThat(first.get("calls")).hasSize(ConsoleApi.PAGE);
        assertThat(first.at("/calls/0/seq").asLong()).isEqualTo(newest);
        assertThat(log.rowsRead).as("rows read for the first page").isLessThan(3 * AuditIndex.READ);
    }

    @Test
    void pagesGoBackThroughSparseRecordsToTheFirst() {
        List<Long> written = new ArrayList<>();
        for (int i = 0; i < 3 * AuditIndex.READ; i++) {
            for (int gap = 0; gap < i % 7; gap++) {
                other();
            }
            audit("alpha", "alpha__echo", "ops", "ok");
            written.add(log.events.get(log.events.size() - 1).seq());
        }
        List<Long> paged = new ArrayList<>();
        String before = null;
        do {
            JsonNode page = before == null ? api.calls(OPS, query("limit", "500")) : api.calls(OPS, query("limit", "500", "before", before));
            page.get("calls").forEach(c -> paged.add(c.get("seq").asLong()));
            before = page.get("before").isNull() ? null : page.get("before").asText();
        } while (before != null);

        Collections.reverse(written);
        assertThat(paged).as("every record once, newest first").isEqualTo(written);
    }

    @Test
    void aFilterMatchingNothingReadsTheWholeHistoryOnce() {
        for (int i = 0; i < 2_500; i++) {
            audit("alpha", "alpha__echo", "ops", "ok");
        }
        assertThat(api.calls(OPS, query("outcome", "error")).get("calls")).isEmpty();
        int read = log.rowsRead;
        assertThat(api.calls(OPS, query("outcome", "error")).get("calls")).isEmpty();
        assertThat(log.rowsRead).as("nothing read again").isEqualTo(read);
    }

    @Test
    void aBadPageSizeIsRefused() {
        assertThatThrownBy(() -> api.calls(OPS, query("limit", "0"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> api.calls(OPS, query("limit", "501"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> api.calls(OPS, query("before", "x"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void withoutAnEventLogThereAreNoCalls() {
        ConsoleApi unaudited = new ConsoleApi(source, null, latency, fakeReplicas(), now::get);

        ObjectNode calls = unaudited.calls(OPS, query());

        assertThat(calls.get("audited").asBoolean()).isFalse();
        assertThat(calls.get("calls")).isEmpty();
        assertThat(unaudited.me(OPS).get("events").asBoolean()).isFalse();
    }

    @Test
    void latencyIsAnHourOfMinutesOfAVisiblePod() {
        source.pods.add(new ServedView.PodView("alpha", "healthy", OptionalLong.empty(), 0, null, "", 0, 0, null));
        latency.completed("alpha", "echo", 10_000_000L, 0);
        latency.completed("alpha", "echo", 10_000_000L, 0);
        now.addAndGet(Duration.ofMinutes(1).toMillis());
        latency.completed("alpha", "echo", 40_000_000L, 0);

        JsonNode minutes = api.latency(OPS, "alpha").get("minutes");

        assertThat(minutes).hasSize(LatencyWindows.MINUTES);
        assertThat(minutes.get(58).get("calls").asLong()).isEqualTo(2);
        assertThat(minutes.get(59).get("calls").asLong()).isEqualTo(1);
        assertThat(minutes.get(59).get("p95Ms").asDouble()).isBetween(40.0, 48.0);
        assertThat(minutes.get(0).get("p95Ms").isNull()).isTrue();
        assertThat(api.latency(OPS, "hidden")).as("a pod the principal does not see").isNull();
        assertThatThrownBy(() -> api.latency(OPS, null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void replicasCarryTheirHeartbeatAge() {
        JsonNode replicas = api.replicas();

        assertThat(replicas.get("self").asText()).isEqualTo("r1");
        assertThat(replicas.at("/replicas/0/heartbeatAgeMs").asLong()).isEqualTo(1500);
        assertThat(replicas.at("/replicas/0/self").asBoolean()).isTrue();
        assertThat(replicas.at("/replicas/1/id").asText()).isEqualTo("r2");
    }

    @Test
    void meSaysWhoAsksAndWhetherItSeesTheEvents() {
        source.admins = List.of("ops");

        assertThat(api.me(OPS).get("events").asBoolean()).isTrue();
        assertThat(api.me(GUEST).get("events").asBoolean()).isFalse();
        assertThat(api.me(GUEST).get("profiles")).extracting(JsonNode::asText).containsExactly("guest");
    }

    private Replicas fakeReplicas() {
        return new Replicas() {
            @Override
            public String self() {
                return "r1";
            }

            @Override
            public Optional<URI> urlOf(String replicaId) {
                return Optional.empty();
            }

            @Override
            public List<Replica> live() {
                return List.of(new Replica("r1", URI.create("http://10.0.0.1:3000"), now.get() - 1500),
                        new Replica("r2", URI.create("http://10.0.0.2:3000"), now.get() - 4000));
            }
        };
    }

    private void audit(String pod, String tool, String principal, String outcome) {
        int n = log.events.size() + 1;
        ObjectNode payload = JsonRpc.NODES.objectNode().put("call_id", "c" + n).put("principal", principal).put("profile", "all")
                .put("tool", tool).put("pod", pod).put("outcome", outcome).put("duration_ms", 12).put("trace_id", "trace-" + n);
        if ("error".equals(outcome)) {
            payload.put("error_code", -32603);
        } else {
            payload.putNull("error_code");
        }
        EventEnvelope<UnifiedEvent> envelope = EventEnvelope.module("evt-" + n, now.get(), pod, AuditLog.EVENT_TYPE, payload);
        log.events.add(new LoggedEvent(n, "test", now.get(), "{}", envelope));
    }

    /** A row of the log that is not a call record. */
    private void other() {
        int n = log.events.size() + 1;
        EventEnvelope<UnifiedEvent> envelope = EventEnvelope.module("evt-" + n, now.get(), "alpha", "pod.started",
                JsonRpc.NODES.objectNode());
        log.events.add(new LoggedEvent(n, "test", now.get(), "{}", envelope));
    }

    private static Fields query(String... pairs) {
        Fields fields = new Fields();
        for (int i = 0; i < pairs.length; i += 2) {
            fields.add(pairs[i], pairs[i + 1]);
        }
        return fields;
    }

    /** The gateway's pods and tools as the test sets them; {@code hidden} is a tool only {@code ops} may see. */
    private static final class FakeSource implements ConsoleSource {
        final List<ServedView.PodView> pods = new ArrayList<>();
        final List<ServedView.ToolView> tools = new ArrayList<>();
        volatile String hidden;
        volatile List<String> admins = List.of();

        @Override
        public List<ServedView.PodView> pods(Principal principal) {
            return pods;
        }

        @Override
        public List<ServedView.ToolView> tools(Principal principal) {
            return tools;
        }

        @Override
        public boolean seesCall(Principal principal, String outward, String pod) {
            return principal.name().equals("ops") || !outward.equals(hidden);
        }

        @Override
        public List<String> profilesOf(Principal principal) {
            return principal.profiles();
        }

        @Override
        public boolean admin(Principal principal) {
            return admins.contains(principal.name());
        }
    }

    /** An event log in memory that answers queries (the console only queries). */
    private static final class FakeLog implements EventLog {
        final List<LoggedEvent> events = new ArrayList<>();
        final List<EventQuery> queries = new ArrayList<>();
        int rowsRead;

        @Override
        public String instanceId() {
            return "test";
        }

        @Override
        public void append(EventEnvelope<UnifiedEvent> envelope) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void appendMobEvent(MobStructuralEventEnvelope event) {
            throw new UnsupportedOperationException();
        }

        @Override
        public EventPage query(EventQuery query) {
            queries.add(query);
            List<LoggedEvent> out = events.stream().filter(e -> e.seq() > query.afterSeq())
                    .filter(e -> query.filter().matches(e.envelope())).limit(query.limit()).toList();
            rowsRead += out.size();
            return new EventPage(out, out.isEmpty() ? null : out.get(out.size() - 1).seq());
        }

        @Override
        public MobEventPage mobEvents(MobEventQuery query) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Subscription subscribe(EventQuery from, Consumer<? super LoggedEvent> listener) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Subscription subscribeMobEvents(MobEventQuery from, Consumer<? super MobStructuralEventEnvelope> listener) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean flush(Duration timeout) {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
