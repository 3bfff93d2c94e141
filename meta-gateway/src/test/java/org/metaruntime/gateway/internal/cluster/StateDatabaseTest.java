package org.metaruntime.gateway.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

class StateDatabaseTest {

    @Test
    void thePasswordAndUserComeFromTheEnvironmentWhenTheUrlGivesNone() {
        PGSimpleDataSource ds = (PGSimpleDataSource) StateDatabase.dataSource("jdbc:postgresql://db:5432/meta",
                Map.of("PGPASSWORD", "s3cret", "PGUSER", "gw"));
        assertThat(ds.getPassword()).isEqualTo("s3cret");
        assertThat(ds.getUser()).isEqualTo("gw");
        assertThat(ds.getConnectTimeout()).isEqualTo(StateDatabase.CONNECT_SECONDS);
        assertThat(ds.getSocketTimeout()).isEqualTo(StateDatabase.SOCKET_SECONDS);
        PGSimpleDataSource own = (PGSimpleDataSource) StateDatabase.dataSource(
                "jdbc:postgresql://db/meta?user=u&password=p&connectTimeout=7", Map.of("PGPASSWORD", "s3cret"));
        assertThat(own.getPassword()).isEqualTo("p");
        assertThat(own.getConnectTimeout()).isEqualTo(7);
    }

    @Test
    void urlsAreRecognizedAndRedacted() {
        assertThat(StateDatabase.isUrl("jdbc:postgresql://db/meta")).isTrue();
        assertThat(StateDatabase.isUrl("/var/lib/meta")).isFalse();
        assertThat(StateDatabase.redacted("jdbc:postgresql://db/meta?user=u&password=secret&ssl=true"))
                .isEqualTo("jdbc:postgresql://db/meta?user=u&password=***&ssl=true");
        assertThat(StateDatabase.redacted("jdbc:postgresql://u:secret@db/meta")).doesNotContain("secret");
        assertThatThrownBy(() -> StateDatabase.dataSource("jdbc:mysql://db", Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
