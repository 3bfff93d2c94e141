package org.metaruntime.testing;

import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * An SLF4J binding for tests that keeps what the code under test logs, so a test can check what a user would read
 * in the log (which lines, at which level, with or without a stack). It also prints INFO and above to stderr as
 * slf4j-simple does. A module's tests turn it on with the system property
 * {@code slf4j.provider=org.metaruntime.testing.CapturedLogs$Provider} (in the surefire configuration of its pom);
 * it is never on by default, and child JVMs started from the tests keep their own binding. The most recent
 * {@value #CAPACITY} entries are kept. Thread-safe.
 *
 * <pre>{@code
 * assertThat(CapturedLogs.installed()).isTrue();
 * CapturedLogs.clear();
 * runtime.routeModuleCall(request, timeout);
 * assertThat(CapturedLogs.matching(e -> e.level() == Level.WARN)).extracting(CapturedLogs.Entry::message)
 *         .noneMatch(line -> line.contains("BoundaryFailure"));
 * }</pre>
 */
public final class CapturedLogs {

    /** How many entries are kept (the oldest are dropped first). */
    public static final int CAPACITY = 20_000;

    private static final Deque<Entry> ENTRIES = new ArrayDeque<>();

    private CapturedLogs() {
    }

    /**
     * One logged line.
     *
     * @param logger  the logger's name
     * @param level   the level
     * @param message the message with its arguments filled in
     * @param error   the throwable logged with it (its stack would be printed), or {@code null}
     * @param thread  the name of the logging thread
     */
    public record Entry(String logger, Level level, String message, Throwable error, String thread) {

        /** The line as a plain binding would print it, with the throwable's class and message when there is one. */
        public String rendered() {
            return level + " " + logger + " - " + message + (error == null ? "" : System.lineSeparator() + error);
        }
    }

    /** Whether this binding is the one SLF4J uses in this JVM. */
    public static boolean installed() {
        return org.slf4j.LoggerFactory.getILoggerFactory() instanceof Factory;
    }

    /** Every entry kept, oldest first. */
    public static List<Entry> all() {
        synchronized (ENTRIES) {
            return List.copyOf(ENTRIES);
        }
    }

    /** The entries kept that match {@code filter}, oldest first. */
    public static List<Entry> matching(Predicate<? super Entry> filter) {
        List<Entry> found = new ArrayList<>();
        for (Entry entry : all()) {
            if (filter.test(entry)) {
                found.add(entry);
            }
        }
        return found;
    }

    /** Forgets every entry. */
    public static void clear() {
        synchronized (ENTRIES) {
            ENTRIES.clear();
        }
    }

    static void add(Entry entry) {
        synchronized (ENTRIES) {
            if (ENTRIES.size() == CAPACITY) {
                ENTRIES.removeFirst();
            }
            ENTRIES.addLast(entry);
        }
        if (entry.level().toInt() >= Level.INFO.toInt()) {
            StringBuilder line = new StringBuilder("[").append(entry.thread()).append("] ").append(entry.level())
                    .append(' ').append(entry.logger()).append(" - ").append(entry.message());
            synchronized (System.err) {
                System.err.println(line);
                if (entry.error() != null) {
                    entry.error().printStackTrace(System.err);
                }
            }
        }
    }

    /** The SLF4J service provider of this binding; name it in the service file to turn the binding on. */
    public static final class Provider implements SLF4JServiceProvider {
        private final Factory factory = new Factory();
        private final IMarkerFactory markers = new BasicMarkerFactory();
        private final MDCAdapter mdc = new NOPMDCAdapter();

        @Override
        public ILoggerFactory getLoggerFactory() {
            return factory;
        }

        @Override
        public IMarkerFactory getMarkerFactory() {
            return markers;
        }

        @Override
        public MDCAdapter getMDCAdapter() {
            return mdc;
        }

        @Override
        public String getRequestedApiVersion() {
            return "2.0.99";
        }

        @Override
        public void initialize() {
        }
    }

    private static final class Factory implements ILoggerFactory {
        @Override
        public org.slf4j.Logger getLogger(String name) {
            return new CapturingLogger(name);
        }
    }

    private static final class CapturingLogger extends AbstractLogger {
        private static final long serialVersionUID = 1L;

        CapturingLogger(String name) {
            this.name = name;
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments,
                                                   Throwable error) {
            String message = MessageFormatter.basicArrayFormat(pattern, arguments);
            add(new Entry(name, level, message, error, Thread.currentThread().getName()));
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public boolean isTraceEnabled(Marker marker) {
            return false;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isDebugEnabled(Marker marker) {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled(Marker marker) {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled(Marker marker) {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled(Marker marker) {
            return true;
        }
    }
}
