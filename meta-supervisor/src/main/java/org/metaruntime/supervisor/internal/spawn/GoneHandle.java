package org.metaruntime.supervisor.internal.spawn;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The handle of a launched child that had already been reaped when the JVM asked for its handle (a child that
 * exits at once): it is gone, has no descendants and takes no signal. Immutable.
 */
record GoneHandle(long pid) implements ProcessHandle {

    private static final Info NO_INFO = new Info() {
        @Override
        public Optional<String> command() {
            return Optional.empty();
        }

        @Override
        public Optional<String> commandLine() {
            return Optional.empty();
        }

        @Override
        public Optional<String[]> arguments() {
            return Optional.empty();
        }

        @Override
        public Optional<Instant> startInstant() {
            return Optional.empty();
        }

        @Override
        public Optional<Duration> totalCpuDuration() {
            return Optional.empty();
        }

        @Override
        public Optional<String> user() {
            return Optional.empty();
        }
    };

    @Override
    public Optional<ProcessHandle> parent() {
        return Optional.empty();
    }

    @Override
    public Stream<ProcessHandle> children() {
        return Stream.empty();
    }

    @Override
    public Stream<ProcessHandle> descendants() {
        return Stream.empty();
    }

    @Override
    public Info info() {
        return NO_INFO;
    }

    @Override
    public CompletableFuture<ProcessHandle> onExit() {
        return CompletableFuture.completedFuture(this);
    }

    @Override
    public boolean supportsNormalTermination() {
        return true;
    }

    @Override
    public boolean destroy() {
        return false;
    }

    @Override
    public boolean destroyForcibly() {
        return false;
    }

    @Override
    public boolean isAlive() {
        return false;
    }

    @Override
    public int compareTo(ProcessHandle other) {
        return Long.compare(pid, other.pid());
    }
}
