package org.metaruntime.supervisor;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Records everything a process reports, in order. */
final class RecordingListener implements ProcessListener {

    final List<String> lines = new CopyOnWriteArrayList<>();
    final List<Integer> tooLong = new CopyOnWriteArrayList<>();
    final List<OversizedLine> oversized = new CopyOnWriteArrayList<>();
    final List<IOException> errors = new CopyOnWriteArrayList<>();
    /** Every call, in order: "line:<text>", "tooLong:<limit>", "oversized:<length>", "closed", "exit:<code>". */
    final List<String> events = new CopyOnWriteArrayList<>();
    final CompletableFuture<Void> stdoutClosed = new CompletableFuture<>();
    final CompletableFuture<ProcessExit> exit = new CompletableFuture<>();
    final AtomicInteger exitCalls = new AtomicInteger();

    @Override
    public void onLine(String line) {
        lines.add(line);
        events.add("line:" + line);
    }

    @Override
    public void onLineTooLong(int limit) {
        tooLong.add(limit);
        events.add("tooLong:" + limit);
    }

    @Override
    public void onOversizedLine(OversizedLine line) {
        oversized.add(line);
        events.add("oversized:" + line.length());
    }

    @Override
    public void onStdoutClosed() {
        events.add("closed");
        stdoutClosed.complete(null);
    }

    @Override
    public void onStdoutError(IOException e) {
        errors.add(e);
        events.add("error:" + e);
    }

    @Override
    public void onExit(ProcessExit processExit) {
        exitCalls.incrementAndGet();
        events.add("exit:" + processExit.exitCode());
        exit.complete(processExit);
    }
}
