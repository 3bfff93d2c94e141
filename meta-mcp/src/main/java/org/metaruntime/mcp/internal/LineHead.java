package org.metaruntime.mcp.internal;

/**
 * Reads what the first bytes of a JSON-RPC line say about it, without parsing the whole line: whether the object has
 * a top-level {@code "method"} (a request or notification, not an answer), and its top-level {@code "id"} when it
 * appears in those bytes. Keys inside nested values are ignored. Stateless.
 */
public final class LineHead {

    /** What the head tells: {@code id} the top-level id if read (else null), {@code hasMethod} a top-level method. */
    public record Facts(String id, boolean hasMethod) {
    }

    private LineHead() {
    }

    /** The facts of {@code head}, the first bytes of one line as text. */
    public static Facts read(String head) {
        int depth = 0;
        String id = null;
        boolean hasMethod = false;
        int i = 0;
        int n = head.length();
        while (i < n) {
            char c = head.charAt(i);
            if (c == '"') {
                int end = stringEnd(head, i);
                if (end < 0) {
                    break;
                }
                String text = head.substring(i + 1, end);
                int after = skipSpace(head, end + 1);
                boolean isKey = after < n && head.charAt(after) == ':';
                if (depth == 1 && isKey) {
                    if (text.equals("method")) {
                        hasMethod = true;
                    } else if (text.equals("id")) {
                        id = value(head, skipSpace(head, after + 1));
                    }
                }
                i = end + 1;
            } else {
                if (c == '{' || c == '[') {
                    depth++;
                } else if (c == '}' || c == ']') {
                    depth--;
                }
                i++;
            }
        }
        return new Facts(id, hasMethod);
    }

    /** The index of the quote closing the string opening at {@code start}, or -1 when the head ends first. */
    private static int stringEnd(String s, int start) {
        for (int i = start + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i;
            }
        }
        return -1;
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** A string or integer id starting at {@code i}, complete in the head; else null. */
    private static String value(String s, int i) {
        if (i >= s.length()) {
            return null;
        }
        if (s.charAt(i) == '"') {
            int end = stringEnd(s, i);
            return end < 0 || s.substring(i + 1, end).indexOf('\\') >= 0 ? null : s.substring(i + 1, end);
        }
        int j = i;
        while (j < s.length() && (Character.isDigit(s.charAt(j)) || s.charAt(j) == '-')) {
            j++;
        }
        return j > i && j < s.length() ? s.substring(i, j) : null;
    }
}
