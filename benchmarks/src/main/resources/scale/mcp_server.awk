# A small MCP stdio server for the scale harness and ScaleTest: one mawk process, about 1 MiB of RSS.
# JSON-RPC 2.0, one compact message per line (what meta-mcp sends). Methods: initialize (answers with the
# client's protocol version), tools/list (one tool, "echo"), tools/call "echo" (returns its flat arguments
# object as structured content), ping; notifications get no answer; anything else a -32601 error.
# Run: mawk -W interactive -f mcp_server.awk  (unbuffered output, line-buffered input)

function field(line, pattern,    s) {
    if (!match(line, pattern)) return ""
    s = substr(line, RSTART, RLENGTH)
    sub(/^"[a-zA-Z]+" *: */, "", s)
    return s
}

function reply(id, result) {
    printf "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n", id, result
}

{
    id = field($0, "\"id\" *: *(\"[^\"]*\"|-?[0-9]+)")
    method = field($0, "\"method\" *: *\"[^\"]*\"")
    gsub(/"/, "", method)
    if (id == "") next
    if (method == "initialize") {
        version = field($0, "\"protocolVersion\" *: *\"[^\"]*\"")
        if (version == "") version = "\"2025-06-18\""
        reply(id, "{\"protocolVersion\":" version ",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"scale-awk\",\"version\":\"1.0\"}}")
    } else if (method == "tools/list") {
        reply(id, "{\"tools\":[{\"name\":\"echo\",\"description\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}]}")
    } else if (method == "tools/call") {
        name = field($0, "\"name\" *: *\"[^\"]*\"")
        if (name != "\"echo\"") {
            printf "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32602,\"message\":\"unknown tool\"}}\n", id
            next
        }
        args = field($0, "\"arguments\" *: *\\{[^{}]*\\}")
        if (args == "") args = "{}"
        text = args
        gsub(/\\/, "\\\\", text)
        gsub(/"/, "\\\"", text)
        reply(id, "{\"content\":[{\"type\":\"text\",\"text\":\"" text "\"}],\"structuredContent\":" args "}")
    } else if (method == "ping") {
        reply(id, "{}")
    } else {
        printf "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,\"message\":\"no method\"}}\n", id
    }
}
