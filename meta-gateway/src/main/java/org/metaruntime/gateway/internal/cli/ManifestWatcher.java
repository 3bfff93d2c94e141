package org.metaruntime.gateway.internal.cli;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --watch}: watches the manifest folders (and the folder of the Claude Desktop config) and reloads once
 * manifests ({@code *.yaml}, {@code *.yml}) or the config have been quiet for {@link #QUIET} after a change: created,
 * modified, deleted or renamed. {@link #close()} stops watching. Thread-safe.
 */
final class ManifestWatcher implements AutoCloseable {

    /** How long changes must be quiet before the reload. */
    static final Duration QUIET = Duration.ofMillis(500);

    private static final Logger log = LoggerFactory.getLogger(ManifestWatcher.class);

    private final WatchService watch;
    private final Set<Path> folders = new LinkedHashSet<>();
    private final Path config;
    private final Scheduler scheduler;
    private final Debounce debounce;
    private final Thread thread;

    private ManifestWatcher(List<Path> manifestFolders, Path config, Runnable reload) throws IOException {
        this.config = config == null ? null : config.toAbsolutePath().normalize();
        this.watch = FileSystems.getDefault().newWatchService();
        this.scheduler = Scheduler.daemon();
        this.debounce = new Debounce(scheduler, QUIET, reload);
        try {
            for (Path folder : manifestFolders) {
                Path absolute = folder.toAbsolutePath().normalize();
                folders.add(absolute);
                register(absolute);
            }
            if (this.config != null && this.config.getParent() != null) {
                register(this.config.getParent());
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        this.thread = DaemonThreads.thread("meta-gateway-watch", this::run);
    }

    /** Watches {@code manifestFolders} and {@code config} (may be null) and calls {@code reload} after changes. */
    static ManifestWatcher start(List<Path> manifestFolders, Path config, Runnable reload) throws IOException {
        ManifestWatcher watcher = new ManifestWatcher(manifestFolders, config, reload);
        watcher.thread.start();
        log.info("watching {} folder(s) for manifest changes", watcher.folders.size() + (config == null ? 0 : 1));
        return watcher;
    }

    private void register(Path folder) throws IOException {
        folder.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                StandardWatchEventKinds.ENTRY_DELETE);
    }

    private void run() {
        try {
            while (true) {
                WatchKey key = watch.take();
                Path folder = (Path) key.watchable();
                boolean relevant = false;
                for (WatchEvent<?> event : key.pollEvents()) {
                    relevant |= event.kind() == StandardWatchEventKinds.OVERFLOW
                            || relevant(folder, folder.resolve((Path) event.context()));
                }
                if (relevant) {
                    debounce.trigger();
                }
                if (!key.reset()) {
                    log.warn("{} can no longer be watched (it was removed?)", folder);
                }
            }
        } catch (ClosedWatchServiceException | InterruptedException stopped) {
            log.debug("stopped watching the manifests");
        }
    }

    private boolean relevant(Path folder, Path file) {
        String name = file.getFileName().toString();
        return folders.contains(folder) && (name.endsWith(".yaml") || name.endsWith(".yml")) || file.equals(config);
    }

    @Override
    public void close() {
        try {
            watch.close();
        } catch (IOException e) {
            log.debug("closing the watch service: {}", e.toString());
        }
        scheduler.close();
    }
}
