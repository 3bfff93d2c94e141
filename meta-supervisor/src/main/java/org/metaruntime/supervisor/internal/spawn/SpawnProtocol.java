package org.metaruntime.supervisor.internal.spawn;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The line protocol between the JVM and its launcher ({@link SpawnServer}), over the launcher's stdin and stdout.
 * One message a line, words separated by one space; every text a child controls or that may hold any character
 * (argv, environment, working directory, messages) is a word in Base64 of its UTF-8 bytes, so no quoting exists.
 *
 * <pre>
 * launcher → JVM   ready &lt;fifo directory&gt;                     once, first
 * JVM → launcher   spawn &lt;id&gt; &lt;workdir or -&gt; &lt;argc&gt; &lt;arg&gt;… &lt;envc&gt; &lt;name=value&gt;…
 * launcher → JVM   started &lt;id&gt; &lt;pid&gt; &lt;fifo number&gt;           its stdio: &lt;dir&gt;/&lt;n&gt;.in, .out, .err
 * launcher → JVM   failed &lt;id&gt; &lt;reason&gt;
 * JVM → launcher   opened &lt;id&gt;                                the JVM holds its ends: the launcher lets go
 * launcher → JVM   exit &lt;pid&gt; &lt;code&gt;                           after the child was reaped
 * </pre>
 * The launcher ends when its stdin does. Stateless.
 */
final class SpawnProtocol {

    static final String READY = "ready";
    static final String SPAWN = "spawn";
    static final String STARTED = "started";
    static final String FAILED = "failed";
    static final String OPENED = "opened";
    static final String EXIT = "exit";
    /** The word for "no working directory". */
    static final String NONE = "-";

    private SpawnProtocol() {
    }

    static String encode(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    static String decode(String word) {
        return new String(Base64.getDecoder().decode(word), StandardCharsets.UTF_8);
    }

    /** A {@code spawn} request. */
    static String spawn(long id, String workdir, List<String> argv, Map<String, String> env) {
        StringBuilder line = new StringBuilder(256 + 64 * env.size()).append(SPAWN).append(' ').append(id)
                .append(' ').append(workdir == null ? NONE : encode(workdir)).append(' ').append(argv.size());
        for (String arg : argv) {
            line.append(' ').append(encode(arg));
        }
        line.append(' ').append(env.size());
        env.forEach((name, value) -> line.append(' ').append(encode(name + "=" + value)));
        return line.toString();
    }

    /** A decoded {@code spawn} request. */
    record SpawnRequest(long id, String workdir, List<String> argv, List<String> env) {
    }

    /** The request of a {@code spawn} line split into words (the first being {@code spawn}). */
    static SpawnRequest parseSpawn(String[] words) {
        long id = Long.parseLong(words[1]);
        String workdir = NONE.equals(words[2]) ? null : decode(words[2]);
        int at = 3;
        int argc = Integer.parseInt(words[at++]);
        List<String> argv = new ArrayList<>(argc);
        for (int i = 0; i < argc; i++) {
            argv.add(decode(words[at++]));
        }
        int envc = Integer.parseInt(words[at++]);
        List<String> env = new ArrayList<>(envc);
        for (int i = 0; i < envc; i++) {
            env.add(decode(words[at++]));
        }
        return new SpawnRequest(id, workdir, argv, env);
    }
}
