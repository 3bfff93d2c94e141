package org.metaruntime.mcp.testpeers;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * An MCP server built with the MCP Java SDK's server API over its stdio transport, run as a child JVM by the
 * tests. Tools: {@code echo {text}}, {@code add {a, b}} (structured content), {@code fail} ({@code isError}),
 * {@code sleep {ms}}, {@code progress {steps}} (a progress notification per step when the request has a token).
 * Resource {@code java://greeting}; prompt {@code greet {name}}. Exits when its stdin closes. Argument: an optional
 * pid file.
 */
public final class JavaSdkServer {

    private JavaSdkServer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            Files.writeString(Path.of(args[0]), Long.toString(ProcessHandle.current().pid()));
        }
        CountDownLatch eof = new CountDownLatch(1);
        InputStream stdin = new FilterInputStream(System.in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n < 0) {
                    eof.countDown();
                }
                return n;
            }

            @Override
            public int read() throws IOException {
                int n = super.read();
                if (n < 0) {
                    eof.countDown();
                }
                return n;
            }
        };
        JacksonMcpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
        StdioServerTransportProvider transport = new StdioServerTransportProvider(mapper, stdin, System.out);
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo("java-sdk-peer", "1.0")
                .jsonMapper(mapper)
                .immediateExecution(true)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).resources(false, false).prompts(false)
                        .build())
                .resources(new McpServerFeatures.SyncResourceSpecification(
                        McpSchema.Resource.builder().uri("java://greeting").name("greeting").mimeType("text/plain").build(),
                        (exchange, request) -> new McpSchema.ReadResourceResult(List.of(
                                new McpSchema.TextResourceContents(request.uri(), "text/plain", "hello from java")))))
                .prompts(new McpServerFeatures.SyncPromptSpecification(
                        new McpSchema.Prompt("greet", "greets someone",
                                List.of(new McpSchema.PromptArgument("name", "who", true))),
                        (exchange, request) -> new McpSchema.GetPromptResult("a greeting", List.of(new McpSchema.PromptMessage(
                                McpSchema.Role.USER, new McpSchema.TextContent("Say hello to " + request.arguments().get("name")))))))
                .tools(tool("echo", (request) -> CallToolResult.builder()
                                .addTextContent(String.valueOf(request.arguments().get("text"))).build()),
                        tool("add", (request) -> {
                            long a = ((Number) request.arguments().get("a")).longValue();
                            long b = ((Number) request.arguments().get("b")).longValue();
                            return CallToolResult.builder().addTextContent(Long.toString(a + b))
                                    .structuredContent(Map.of("sum", a + b)).build();
                        }),
                        tool("fail", (request) -> CallToolResult.builder()
                                .addTextContent("failed on purpose").isError(true).build()),
                        SyncToolSpecification.builder()
                                .tool(McpSchema.Tool.builder("progress", Map.of("type", "object")).build())
                                .callHandler((exchange, request) -> {
                                    int steps = ((Number) request.arguments().get("steps")).intValue();
                                    Object token = request.meta() == null ? null : request.meta().get("progressToken");
                                    for (int i = 1; i <= steps && token != null; i++) {
                                        exchange.progressNotification(new McpSchema.ProgressNotification(token, i,
                                                (double) steps, "step " + i));
                                    }
                                    return CallToolResult.builder().addTextContent("done " + steps).build();
                                }).build(),
                        tool("sleep", (request) -> {
                            try {
                                Thread.sleep(((Number) request.arguments().get("ms")).longValue());
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return CallToolResult.builder().addTextContent("slept").build();
                        }))
                .build();
        eof.await();
        server.closeGracefully();
        System.exit(0);
    }

    private static SyncToolSpecification tool(String name,
            java.util.function.Function<McpSchema.CallToolRequest, CallToolResult> handler) {
        return SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder(name, Map.of("type", "object")).build())
                .callHandler((exchange, request) -> handler.apply(request))
                .build();
    }
}
