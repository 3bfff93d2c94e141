package org.metaruntime.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's driver is an optional dependency of meta-eventlog: without it the SQLite factories throw an
 * {@code EventLogException} naming the artifact to add, and create nothing. Loads meta-eventlog in a class loader
 * whose class path is this one without the driver.
 */
class WithoutSqliteDriverTest {

    @TempDir
    Path dir;

    @Test
    void theSqliteFactoriesNameTheMissingDriver() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.contains("sqlite-jdbc")) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            assertThat(loader.loadClass("org.metaruntime.eventlog.internal.Sqlite").getMethod("driverPresent")
                    .invoke(null)).isEqualTo(false);
            Class<?> logs = loader.loadClass(EventLogs.class.getName());
            Method persistentState = logs.getMethod("persistentState", Path.class);
            Path state = dir.resolve("state");
            assertThatThrownBy(() -> invoke(persistentState, state))
                    .satisfies(e -> assertThat(e.getClass().getName()).isEqualTo("org.metaruntime.events.EventLogException"))
                    .hasMessageContaining("org.xerial:sqlite-jdbc");
            Class<?> stores = loader.loadClass(MetadataStores.class.getName());
            assertThatThrownBy(() -> invoke(stores.getMethod("persistentState", Path.class), state))
                    .hasMessageContaining("org.xerial:sqlite-jdbc");
            assertThat(state).doesNotExist();
        }
    }

    private static Object invoke(Method method, Object argument) throws Throwable {
        try {
            return method.invoke(null, argument);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
