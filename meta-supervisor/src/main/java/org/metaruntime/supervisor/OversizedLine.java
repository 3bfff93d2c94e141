package org.metaruntime.supervisor;

import java.util.Objects;

/**
 * A stdout line that was longer than the line limit and was skipped: its length and its first bytes, so that a
 * protocol layer can tell which request the line answered (for JSON-RPC, an {@code "id"} near the start) and
 * fail that request at once. Immutable and thread-safe.
 *
 * <pre>{@code
 * ProcessListener listener = new ProcessListener() {
 *     public void onLine(String line) { ... }
 *     public void onOversizedLine(OversizedLine line) {
 *         findRequestId(line.head()).ifPresent(id -> failCall(id, line.limit()));
 *     }
 * };
 * }</pre>
 *
 * @param limit  the line limit in bytes ({@link ProcessSpec#maxLineBytes()})
 * @param length the line's length in bytes, without its {@code \n}; more than {@code limit}
 * @param head   the line's first bytes (at most {@link #HEAD_BYTES}), decoded as UTF-8 (a character cut at the
 *               end, or malformed UTF-8, becomes U+FFFD)
 */
public record OversizedLine(int limit, long length, String head) {

    /** How many of the line's first bytes {@link #head()} holds at most. */
    public static final int HEAD_BYTES = 256;

    /** Validates the record. */
    public OversizedLine {
        Objects.requireNonNull(head, "head");
        if (limit < 1 || length <= limit) {
            throw new IllegalArgumentException("an oversized line is longer than its limit: length " + length
                    + ", limit " + limit);
        }
    }
}
