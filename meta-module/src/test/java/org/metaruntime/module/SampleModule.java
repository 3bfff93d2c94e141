package org.metaruntime.module;

import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/** The module the tests run as a child JVM: one tool per behaviour under test. */
public final class SampleModule {

    private SampleModule() {
    }

    public static void main(String[] args) {
        int parties = Integer.parseInt(System.getProperty("sample.parties", "64"));
        CyclicBarrier barrier = new CyclicBarrier(parties);
        ModuleServer.builder("sample")
                .tool(Tool.of("word_count", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}")
                        .withOutputSchema("{\"type\":\"object\",\"properties\":{\"words\":{\"type\":\"integer\"}}}"),
                        a -> Map.of("words", a.path("text").asText().strip().split("\\s+").length))
                .tool("reverse", "{\"type\":\"object\"}", a -> {
                    String text = a.path("text").asText();
                    System.err.println("reversing " + text); // a log line in the platform charset's stream
                    return new StringBuilder(text).reverse().toString();
                })
                // answers only once `parties` calls are running at the same time
                .tool("gather", "{\"type\":\"object\"}", a -> {
                    barrier.await(60, TimeUnit.SECONDS);
                    return "gathered " + a.path("n").asInt();
                })
                .tool("slow", "{\"type\":\"object\"}", a -> {
                    Thread.sleep(a.path("ms").asLong());
                    return "slept " + a.path("ms").asLong();
                })
                .tool("block", "{\"type\":\"object\"}", a -> {
                    Thread.sleep(Long.MAX_VALUE);
                    return "never";
                })
                .tool("noisy", "{\"type\":\"object\"}", a -> {
                    System.out.println("a stray line on stdout");
                    return "quiet";
                })
                .tool("refuse", "{\"type\":\"object\"}", a -> {
                    throw new ToolException("no, thank you");
                })
                .tool("explode", "{\"type\":\"object\"}", a -> {
                    throw new IllegalStateException("boom");
                })
                .build()
                .serve();
    }
}
