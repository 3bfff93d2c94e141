package org.metaruntime.eventlog.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.metaruntime.events.EventLogException;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * SQLite files as the log and the metadata store use them: WAL journal (readers never block the writer),
 * a 30 s busy timeout for a writer waiting for another. The driver, {@value #DRIVER_ARTIFACT}, is an optional
 * dependency: {@link #dataSource} checks for it before it names one of its classes. Stateless.
 */
public final class Sqlite {

    /** The artifact that holds the SQLite driver. */
    public static final String DRIVER_ARTIFACT = "org.xerial:sqlite-jdbc";
    private static final String DRIVER_CLASS = "org.sqlite.SQLiteDataSource";

    private Sqlite() {
    }

    /** Whether the SQLite driver is on the class path. */
    public static boolean driverPresent() {
        try {
            Class.forName(DRIVER_CLASS, false, Sqlite.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Checks that the SQLite driver is on the class path.
     *
     * @throws EventLogException naming {@value #DRIVER_ARTIFACT} when it is not
     */
    public static void requireDriver() {
        if (!driverPresent()) {
            throw new EventLogException("the SQLite event log and metadata store need " + DRIVER_ARTIFACT + ", which is"
                    + " not on the class path: add it as a dependency, or keep the log in a database of your own"
                    + " (EventLogs.jdbc)", null);
        }
    }

    /**
     * A data source for {@code file}, creating its directory.
     *
     * @param fullSync true to sync the WAL at every commit (durable across power loss); false to sync it only at
     *                 checkpoints (durable across a crash of the process, never corrupt)
     * @throws EventLogException when the driver is not on the class path ({@link #requireDriver()})
     */
    public static DataSource dataSource(Path file, boolean fullSync) {
        requireDriver();
        Path dir = file.toAbsolutePath().getParent();
        try {
            if (dir != null) {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new EventLogException("could not create the directory of " + file + ": " + e.getMessage(), e);
        }
        return Driver.dataSource(file, fullSync);
    }

    /** The only code that names the driver's classes: loaded after {@link #requireDriver()}. */
    private static final class Driver {

        private Driver() {
        }

        static DataSource dataSource(Path file, boolean fullSync) {
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
}
