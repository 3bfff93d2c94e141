package org.metaruntime.gateway.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TaskIdsTest {

    @Test
    void aClusterTaskIdNamesItsReplicaAndASingleProcessOneNone() {
        String id = TaskIds.owned("r-0123456789ab", "fixture+t:1");
        assertThat(id).isEqualTo("r-0123456789ab:fixture+t:1");
        assertThat(TaskIds.owner(id)).contains("r-0123456789ab");
        assertThat(TaskIds.local(id)).isEqualTo("fixture+t:1");
        assertThat(TaskIds.owned(null, "fixture+t1")).isEqualTo("fixture+t1");
        assertThat(TaskIds.owner("fixture+t1")).isEmpty();
        assertThat(TaskIds.owner("fixture+r-0123456789ab:x")).isEmpty();
        assertThat(TaskIds.local("fixture+t1")).isEqualTo("fixture+t1");
        assertThat(TaskIds.owner(null)).isEmpty();
    }
}
