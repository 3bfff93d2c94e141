package org.metaruntime.core;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.TextNode;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.metaruntime.core.testing.FakeMcpModule;

/**
 * {@link McpModuleContract} against a {@link FakeMcpModule} with the tools of the real fixture, written as a host
 * would write them.
 */
class FakeMcpModuleContractTest extends McpModuleContract {

    private FakeMcpModule fake;

    @Override
    UnifiedRuntime.Builder serve(UnifiedRuntime.Builder builder) {
        AtomicReference<FakeMcpModule> self = new AtomicReference<>();
        fake = FakeMcpModule.builder(ID)
                .tool("echo_arguments", args -> args)
                .tool("error", args -> {
                    throw new IllegalStateException(args.path("message").asText("tool failed on purpose"));
                })
                .tool("slow", args -> {
                    Thread.sleep(args.path("ms").asLong(60_000));
                    return MAPPER.createObjectNode().put("tool", "slow");
                })
                .tool("crash", args -> {
                    self.get().crash(args.path("code").asInt(3), "fatal: crashed on purpose\n");
                    return null;
                })
                .tool("progress", (args, call) -> {
                    int steps = args.path("steps").asInt(3);
                    String label = args.path("label").asText(null);
                    for (int i = 1; i <= steps; i++) {
                        call.progress(i, (double) steps, (label != null ? label + " step " : "step ") + i);
                    }
                    return TextNode.valueOf("done " + steps);
                })
                .tool("notify", (args, call) -> {
                    call.notify("notifications/message",
                            MAPPER.createObjectNode().put("level", "info").put("data", args.path("text").asText("hello")));
                    return TextNode.valueOf("notified");
                })
                .build();
        self.set(fake);
        return builder.fakeModule(fake);
    }

    @Override
    void awaitReceived(int calls) {
        await().atMost(20, TimeUnit.SECONDS).until(() -> fake.callCount() >= calls);
    }
}
