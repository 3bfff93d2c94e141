package org.metaruntime.gateway.internal.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class StdioTransportTest {

    private static final Dispatcher ECHO = Dispatcher.builder()
            .inline("echo", request -> CompletableFuture.completedFuture(request.params()))
            .build();

    /** The input {@code text}, handed out at most {@code step} bytes per read. */
    private static InputStream trickling(String text, int step) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, step));
            }
        };
    }

    private static List<String> serve(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StdioTransport transport = new StdioTransport(in, out);
        transport.run(ECHO, new ClientSession("s", transport));
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static String echo(int id, String text) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"echo\",\"params\":{\"text\":\"" + text + "\"}}";
    }

    @Test
    void linesWholeInOneReadOrSplitAcrossReadsAreAnsweredInOrder() throws IOException {
        String input = echo(1, "one") + "\n" + echo(2, "two") + "\r\n\n  \n" + echo(3, "thr\u00e9e");
        for (int step : new int[] {1, 7, 64 * 1024}) {
            List<String> lines = serve(trickling(input, step));
            assertThat(lines).as("read %d bytes at a time", step).hasSize(3);
            JsonNode third = JsonRpc.MAPPER.readTree(lines.get(2));
            assertThat(JsonRpc.MAPPER.readTree(lines.get(0)).at("/result/text").asText()).isEqualTo("one");
            assertThat(JsonRpc.MAPPER.readTree(lines.get(1)).get("id").asInt()).isEqualTo(2);
            assertThat(third.at("/result/text").asText()).isEqualTo("thr\u00e9e");
        }
    }

    @Test
    void textBeyondTheBasicPlaneIsWrittenAsIsNeverEscaped() throws IOException {
        List<String> lines = serve(trickling(echo(4, "\u4e16\u754c \ud83c\udf89") + "\n", 64 * 1024));
        assertThat(lines).singleElement().satisfies(line -> {
            assertThat(line).contains("\u4e16\u754c \ud83c\udf89").doesNotContain("\\u");
            assertThat(JsonRpc.MAPPER.readTree(line).at("/result/text").asText()).isEqualTo("\u4e16\u754c \ud83c\udf89");
        });
    }
}
