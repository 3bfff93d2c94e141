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
    void isErrorIsToolCallFailed() {
        assertThat(error("{\"isError\":true,\"content\":[{\"type\":\"text\",\"text\":\"bad\"}]}"))
                .isEqualTo(new McpBoundaryError.ToolCallFailed("m", "t", "bad"));
        assertThat(error("{\"isError\":true,\"content\":[]}")).isInstanceOf(McpBoundaryError.ToolCallFailed.class);
    }

    @Test
    void malformedResultsAreToolCallFailed() {
        assertThat(error("[1]")).isInstanceOf(McpBoundaryError.ToolCallFailed.class);
        assertThat(error("{\"content\":\"text\"}")).isInstanceOf(McpBoundaryError.ToolCallFailed.class);
    }
}
