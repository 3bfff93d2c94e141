package org.metaruntime.gateway.internal.cluster;

import java.security.SecureRandom;
import java.util.HexFormat;

/** New replica ids: {@code r-} and 12 random hex digits, unique across restarts. */
public final class ReplicaIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private ReplicaIds() {
    }

    /** A new replica id. */
    public static String next() {
        byte[] bytes = new byte[6];
        RANDOM.nextBytes(bytes);
        return "r-" + HexFormat.of().formatHex(bytes);
    }
}
