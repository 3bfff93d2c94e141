package org.metaruntime.core.testing;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.metaruntime.core.internal.ChildExit;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.StopLadder;

/** The live children of one fake module, so a scripted crash can end them. Thread-safe. */
final class FakeChildren {

    private final Set<Base> live = ConcurrentHashMap.newKeySet();

    void add(Base child) {
        live.add(child);
    }

    int live() {
        return live.size();
    }

    /** Calls {@code action} with each live child. */
    void forEach(java.util.function.Consumer<? super Base> action) {
        List.copyOf(live).forEach(action);
    }

    void crashAll(int exitCode, String stderrTail) {
        for (Base child : List.copyOf(live)) {
            child.end(new ChildExit(OptionalInt.of(exitCode), stderrTail, false));
        }
    }

    /** What every fake child shares: no pid, an exit future, an idempotent stop. */
    abstract class Base implements org.metaruntime.core.internal.ModuleChild {
        private final CompletableFuture<ChildExit> exit = new CompletableFuture<>();
        private volatile String stderrTail = "";

        @Override
        public OptionalLong pid() {
            return OptionalLong.empty();
        }

        @Override
        public String stderrTail() {
            return stderrTail;
        }

        @Override
        public Optional<EventEnvelope<UnifiedEvent>> firstEvent() {
            return Optional.empty();
        }

        @Override
        public CompletableFuture<ChildExit> exit() {
            return exit;
        }

        @Override
        public int stop(StopLadder ladder) {
            end(new ChildExit(OptionalInt.of(0), stderrTail, true));
            return 0;
        }

        void end(ChildExit how) {
            stderrTail = how.stderrTail();
            live.remove(this);
            if (exit.complete(how)) {
                onEnd(how);
            }
        }

        boolean alive() {
            return !exit.isDone();
        }

        void onEnd(ChildExit how) {
        }
    }
}
