package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;
import org.metaruntime.mcp.internal.ToolResults;

class ToolResultsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode payload(String result) throws Exception {
        return ToolResults.toPayload("m", "t", JSON.readTree(result));
    }

    private static McpBoundaryError error(String result) {
        return catchThrowableOfType(McpBoundaryException.class, () -> payload(result)).error();
    }

    @Test
    void structuredContentWins() throws Exception {
        assertThat(payload("{\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"structuredContent\":{\"a\":1}}"))
                .isEqualTo(JSON.readTree("{\"a\":1}"));
    }

    @Test
    void textIsParsedAsJsonWhenItParses() throws Exception {
        assertThat(payload("{\"content\":[{\"type\":\"text\",\"text\":\" [1, 2] \"}]}")).isEqualTo(JSON.readTree("[1,2]"));
        assertThat(payload("{\"content\":[{\"type\":\"text\",\"text\":\"true\"}]}")).isEqualTo(JSON.readTree("true"));
        assertThat(payload("{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"a\\\":\"},{\"type\":\"text\",\"text\":\"2}\"}]}"))
                .isEqualTo(JSON.readTree("{\"a\":2}"));
    }

    @Test
    void otherTextIsAJsonString() throws Exception {
        assertThat(payload("{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}]}")).isEqualTo(TextNode.valueOf("hello"));
        assertThat(payload("{\"content\":[{\"type\":\"text\",\"text\":\"1 2\"}]}")).isEqualTo(TextNode.valueOf("1 2"));
        assertThat(payload("{\"content\":[{\"type\":\"text\",\"text\":\"nope\"}]}")).isEqualTo(TextNode.valueOf("nope"));
        assertThat(payload("{\"content\":[]}")).isEqualTo(TextNode.valueOf(""));
    }

    @Test
    void nonTextContentIsKeptWhole() throws Exception {
        String content = "[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\","
                + "\"annotations\":{\"priority\":1}}]";
        assertThat(payload("{\"content\":" + content + "}")).isEqualTo(JSON.readTree(content));
    }

    @Test
    void isErrorIsToolReturnedErrorWithTheWholeResult() {
        McpBoundaryError bad = error("{\"isError\":true,\"content\":[{\"type\":\"text\",\"text\":\"bad\"}]}");
        assertThat(((McpBoundaryError.ToolReturnedError) bad).text()).isEqualTo("bad");
        assertThat(bad.message()).isEqualTo("tool 't' of module 'm' reported an error: bad");
        McpBoundaryError empty = error("{\"isError\":true,\"content\":[]}");
        assertThat(((McpBoundaryError.ToolReturnedError) empty).result().content()).isEmpty();
    }

    @Test
    void numbersInTextKeepTheirExactValue() throws Exception {
        assertThat(payload("{\"content\":[{\"type\":\"text\",\"text\":\"1e5\"}]}").decimalValue())
                .isEqualByComparingTo("1e5");
        assertThat(payload("{\"content\":[{\"type\":\"text\",\"text\":\"0.10\"}]}").toString()).isEqualTo("0.10");
        assertThat(payload("{\"content\":[{\"type\":\"text\",\"text\":\"12345678901234567890.123456789\"}]}")
                .decimalValue()).isEqualByComparingTo("12345678901234567890.123456789");
    }

    @Test
    void malformedResultsAreToolCallFailed() {
        assertThat(error("[1]")).isInstanceOf(McpBoundaryError.ToolCallFailed.class);
        assertThat(error("{\"content\":\"text\"}")).isInstanceOf(McpBoundaryError.ToolCallFailed.class);
    }
}
