package org.metaruntime.gateway.internal.cluster;

import java.util.Map;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The PostgreSQL database of {@code --state jdbc:postgresql://...}: a data source whose connects, logins and reads are
 * bounded in time (a database that cannot be reached fails a request within seconds rather than hanging it), with
 * the password of {@code PGPASSWORD} (and the user of {@code PGUSER}) when the URL names none.
 */
public final class StateDatabase {

    /** The prefix of a PostgreSQL JDBC URL. */
    public static final String URL_PREFIX = "jdbc:postgresql:";
    /** Seconds a new connection may take to connect, and to log in. */
    static final int CONNECT_SECONDS = 3;
    /** Seconds a read on a connection may wait for the server. */
    static final int SOCKET_SECONDS = 10;

    private StateDatabase() {
    }

    /** Whether {@code state} names a PostgreSQL database rather than a directory. */
    public static boolean isUrl(String state) {
        return state != null && state.startsWith(URL_PREFIX);
    }

    /**
     * The data source of {@code url}; {@code env} supplies {@code PGPASSWORD} and {@code PGUSER} for what the URL does
     * not give.
     *
     * @throws IllegalArgumentException when {@code url} is not a PostgreSQL JDBC URL the driver accepts
     */
    public static DataSource dataSource(String url, Map<String, String> env) {
        if (!isUrl(url)) {
            throw new IllegalArgumentException("not a jdbc:postgresql:// URL");
        }
        PGSimpleDataSource ds = new PGSimpleDataSource();
        try {
            ds.setUrl(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a valid jdbc:postgresql:// URL", e);
        }
        if (ds.getPassword() == null && env.get("PGPASSWORD") != null) {
            ds.setPassword(env.get("PGPASSWORD"));
        }
        if (ds.getUser() == null && env.get("PGUSER") != null && !env.get("PGUSER").isBlank()) {
            ds.setUser(env.get("PGUSER"));
        }
        if (!url.contains("connectTimeout=")) {
            ds.setConnectTimeout(CONNECT_SECONDS);
        }
        if (!url.contains("loginTimeout=")) {
            ds.setLoginTimeout(CONNECT_SECONDS);
        }
        if (!url.contains("socketTimeout=")) {
            ds.setSocketTimeout(SOCKET_SECONDS);
        }
        if (!url.contains("ApplicationName=")) {
            ds.setApplicationName("meta-gateway");
        }
        return ds;
    }

    /** {@code url} without its password parameter, for messages. */
    public static String redacted(String url) {
        return url.replaceAll("(?i)([?&]password=)[^&]*", "$1***").replaceAll("//[^/@]*:[^/@]*@", "//***@");
    }
}
