package org.metaruntime.gateway.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MemoryTasksTest {

    private final AtomicLong now = new AtomicLong();
    private final MemoryTasks tasks = new MemoryTasks(Duration.ofSeconds(60), now::get);

    @Test
    void aFinishedTaskIsKeptForTheTimeToLiveThenForgotten() {
        tasks.start("task-1");
        now.addAndGet(Duration.ofHours(2).toNanos());
        assertThat(tasks.get("task-1")).as("a working task never expires").map(TaskState::status).contains("working");

        assertThat(tasks.finish("task-1", "completed", JsonNodeFactory.instance.objectNode().put("ok", true), null)).isTrue();
        now.addAndGet(Duration.ofSeconds(59).toNanos());
        assertThat(tasks.get("task-1")).hasValueSatisfying(t -> {
            assertThat(t.status()).isEqualTo("completed");
            assertThat(t.result().path("ok").asBoolean()).isTrue();
        });
        assertThat(tasks.expire()).isZero();

        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(tasks.get("task-1")).isEmpty();
        assertThat(tasks.expire()).isOne();
        assertThat(tasks.get("unknown")).isEmpty();
    }

    @Test
    void aTaskKeepsItsFirstEnd() {
        tasks.start("task-2");
        assertThat(tasks.finish("task-2", "cancelled", null, null)).isTrue();
        assertThat(tasks.finish("task-2", "completed", JsonNodeFactory.instance.objectNode(), null)).isFalse();
        assertThat(tasks.get("task-2")).map(TaskState::status).contains("cancelled");
        assertThat(tasks.finish("nobody", "completed", null, null)).isFalse();
    }
}
