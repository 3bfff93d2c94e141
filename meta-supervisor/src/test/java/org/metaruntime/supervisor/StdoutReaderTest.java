package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.internal.ProcessLauncher;
import org.metaruntime.supervisor.internal.StdoutReader;
import org.metaruntime.testing.LeakCheck;

/** The stdout reading part alone, on the test's thread, over a real child's stdout. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StdoutReaderTest {

    @TempDir
    Path tmp;
    private Process process;
    private final RecordingListener listener = new RecordingListener();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void destroyWhatIsLeft() {
        if (process != null) {
            process.destroyForcibly();
        }
    }

    private void read(ProcessSpec spec) throws IOException {
        process = ProcessLauncher.launch(spec).process();
        process.getOutputStream().close();
        process.getErrorStream().close();
        StdoutReader reader = new StdoutReader(process.getInputStream(), spec.maxLineBytes(), listener);
        reader.run();
        assertThat(reader.done()).isDone();
    }

    @Test
    void deliversEachLineThenStdoutClosed() throws IOException {
        read(new Fixtures(tmp).spec("crlf", "crlf").build());

        assertThat(listener.events).containsExactly("line:first", "line:second", "line:", "closed");
    }

    @Test
    void skipsALineOverTheLimitAndReportsIt() throws IOException {
        read(new Fixtures(tmp).spec("big", "big_line", "1", "{\"id\":3,").maxLineBytes(1000).build());

        assertThat(listener.events).containsExactly("tooLong:1000", "oversized:" + (8 + 1024 * 1024), "line:after",
                "closed");
        assertThat(listener.oversized.get(0).head()).startsWith("{\"id\":3,xx");
    }

    @Test
    void aReadFailureIsReportedBeforeStdoutClosed() throws IOException {
        process = ProcessLauncher.launch(new Fixtures(tmp).spec("sleepy", "sleep_long").build()).process();
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("pipe broke");
            }
        };
        StdoutReader reader = new StdoutReader(failing, 100, listener);

        reader.run();

        assertThat(listener.events).containsExactly("error:java.io.IOException: pipe broke", "closed");
        assertThat(reader.done()).isDone();
    }
}
