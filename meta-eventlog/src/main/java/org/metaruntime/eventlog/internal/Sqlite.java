package org.metaruntime.eventlog.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.metaruntime.events.EventLogException;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * SQLite files as the log and the metadata store use them: WAL journal (readers never block the writer),
 * a 30 s busy timeout for a writer waiting for another.
 */
public final class Sqlite {

    private Sqlite() {
    }

    /**
     * A data source for {@code file}, creating its directory.
     *
     * @param fullSync true to sync the WAL at every commit (durable across power loss); false to sync it only at
     *                 checkpoints (durable across a crash of the process, never corrupt)
     */
    public static SQLiteDataSource dataSource(Path file, boolean fullSync) {
        Path dir = file.toAbsolutePath().getParent();
        try {
            if (dir != null) {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new EventLogException("could not create the directory of " + file + ": " + e.getMessage(), e);
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(fullSync ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(30_000);
        config.setCacheSize(-32_768); // KiB: the indexes of a few million rows stay in the page cache
        SQLiteDataSource dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
        return dataSource;
    }
}
