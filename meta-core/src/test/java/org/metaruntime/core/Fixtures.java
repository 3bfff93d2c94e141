package org.metaruntime.core;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.metaruntime.testing.ProcessLeaks;
import org.metaruntime.testing.Python;

/** The real fixture programs of the tests, and the check that none of their processes is left behind. */
final class Fixtures {

    private Fixtures() {
    }

    /** The real python interpreter (see {@link Python#executable()}). */
    static String python() {
        return Python.executable();
    }

    static Path script(String name) {
        try {
            return Path.of(Fixtures.class.getResource("/fixtures/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Long> pids(Path pidfile) {
        return ProcessLeaks.pidsIn(pidfile);
    }

    /** Every pid written to {@code pidfile} is gone (shortly: a killed orphan is reaped by init). */
    static void assertAllGone(Path pidfile) {
        ProcessLeaks.assertAllGone(pids(pidfile));
    }
}
