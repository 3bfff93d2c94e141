// hash: an MCP stdio server in one Java source file (JDK only), run with `java HashPod.java`.
// It answers initialize, ping, tools/list and tools/call, one JSON message per line, UTF-8.
//
//   sha256 {text}   the lowercase hex SHA-256 of the text's UTF-8 bytes
//   length {text}   {"chars": UTF-16 units, "codePoints": ..., "bytes": UTF-8 bytes}
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class HashPod {

    static final String TOOLS = "[{\"name\":\"sha256\",\"description\":\"SHA-256 of a text (hex)\","
            + "\"inputSchema\":{\"type\":\"object\",\"required\":[\"text\"],\"properties\":{\"text\":{\"type\":\"string\"}}}},"
            + "{\"name\":\"length\",\"description\":\"Lengths of a text\","
            + "\"inputSchema\":{\"type\":\"object\",\"required\":[\"text\"],\"properties\":{\"text\":{\"type\":\"string\"}}}}]";

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) {
                continue;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> request = (Map<String, Object>) new Json(line).value();
            if (!request.containsKey("id")) {
                continue; // notification
            }
            String id = Json.write(request.get("id"));
            String result;
            try {
                result = answer((String) request.get("method"), request.get("params"));
            } catch (IllegalArgumentException e) {
                out.println("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":-32601,\"message\":"
                        + Json.write(e.getMessage()) + "}}");
                continue;
            }
            out.println("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}");
        }
    }

    @SuppressWarnings("unchecked")
    static String answer(String method, Object params) throws Exception {
        Map<String, Object> p = params instanceof Map ? (Map<String, Object>) params : Map.of();
        switch (method) {
            case "initialize":
                return "{\"protocolVersion\":" + Json.write(p.getOrDefault("protocolVersion", "2025-06-18"))
                        + ",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"hash\",\"version\":\"1.0.0\"}}";
            case "ping":
                return "{}";
            case "tools/list":
                return "{\"tools\":" + TOOLS + "}";
            case "tools/call":
                Map<String, Object> arguments = (Map<String, Object>) p.getOrDefault("arguments", Map.of());
                Object text = arguments.get("text");
                if (!(text instanceof String)) {
                    return "{\"content\":[{\"type\":\"text\",\"text\":\"text must be a string\"}],\"isError\":true}";
                }
                String s = (String) text;
                if ("sha256".equals(p.get("name"))) {
                    StringBuilder hex = new StringBuilder();
                    for (byte b : MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8))) {
                        hex.append(String.format("%02x", b));
                    }
                    return "{\"content\":[{\"type\":\"text\",\"text\":\"" + hex + "\"}]}";
                }
                if ("length".equals(p.get("name"))) {
                    String counts = "{\"chars\":" + s.length() + ",\"codePoints\":" + s.codePointCount(0, s.length())
                            + ",\"bytes\":" + s.getBytes(StandardCharsets.UTF_8).length + "}";
                    return "{\"content\":[{\"type\":\"text\",\"text\":" + Json.write(counts) + "}],\"structuredContent\":" + counts + "}";
                }
                return "{\"content\":[{\"type\":\"text\",\"text\":" + Json.write("unknown tool " + p.get("name")) + "}],\"isError\":true}";
            default:
                throw new IllegalArgumentException("method not found: " + method);
        }
    }

    /** A minimal JSON reader and writer (objects, arrays, strings, numbers, booleans, null). */
    static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object value() {
            skip();
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> map = new LinkedHashMap<>();
                i++;
                skip();
                if (s.charAt(i) == '}') { i++; return map; }
                while (true) {
                    skip();
                    String key = (String) value();
                    skip();
                    i++; // ':'
                    map.put(key, value());
                    skip();
                    if (s.charAt(i++) == '}') return map;
                }
            }
            if (c == '[') {
                List<Object> list = new ArrayList<>();
                i++;
                skip();
                if (s.charAt(i) == ']') { i++; return list; }
                while (true) {
                    list.add(value());
                    skip();
                    if (s.charAt(i++) == ']') return list;
                }
            }
            if (c == '"') {
                StringBuilder b = new StringBuilder();
                for (i++; s.charAt(i) != '"'; i++) {
                    char ch = s.charAt(i);
                    if (ch == '\\') {
                        char e = s.charAt(++i);
                        switch (e) {
                            case 'n': b.append('\n'); break;
                            case 't': b.append('\t'); break;
                            case 'r': b.append('\r'); break;
                            case 'b': b.append('\b'); break;
                            case 'f': b.append('\f'); break;
                            case 'u': b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16)); i += 4; break;
                            default: b.append(e);
                        }
                    } else {
                        b.append(ch);
                    }
                }
                i++;
                return b.toString();
            }
            int start = i;
            while (i < s.length() && ",}] \t\r\n".indexOf(s.charAt(i)) < 0) i++;
            String word = s.substring(start, i);
            switch (word) {
                case "true": return Boolean.TRUE;
                case "false": return Boolean.FALSE;
                case "null": return null;
                default: return word.contains(".") || word.contains("e") || word.contains("E")
                        ? (Object) Double.valueOf(word) : (Object) Long.valueOf(word);
            }
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        static String write(Object v) {
            if (v == null) return "null";
            if (v instanceof String) {
                StringBuilder b = new StringBuilder("\"");
                for (char c : ((String) v).toCharArray()) {
                    if (c == '"' || c == '\\') b.append('\\').append(c);
                    else if (c == '\n') b.append("\\n");
                    else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
                return b.append('"').toString();
            }
            return String.valueOf(v);
        }
    }
}
