package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.TopicExistsException;
import io.kaas.api.cluster.TopicRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileClusterStoreConcurrencyTest {
    private static final int THREADS = 16;

    @TempDir
    Path dir;

    @Test
    void concurrentCreatesOfOneNameHaveExactlyOneWinner() throws Exception {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            List<Boolean> outcomes = runConcurrently(i -> () -> {
                try {
                    store.createTopic(new TopicRecord("orders", UUID.randomUUID(), i + 1, Map.of()));
                    return true;
                } catch (TopicExistsException e) {
                    return false;
                }
            });
            assertThat(outcomes).containsOnlyOnce(true);
            assertThat(store.topics()).hasSize(1);
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.topics()).hasSize(1);
        }
    }

    @Test
    void concurrentProducerIdBlocksNeverOverlap() throws Exception {
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            List<Long> starts = runConcurrently(i -> () -> store.allocateProducerIdBlock(100));
            assertThat(starts).doesNotHaveDuplicates().allMatch(s -> s % 100 == 0);
            assertThat(starts.stream().mapToLong(Long::longValue).max().orElseThrow()).isEqualTo(100L * (THREADS - 1));
        }
        try (FileClusterStore store = FileClusterStore.open(dir, 1)) {
            assertThat(store.allocateProducerIdBlock(100)).isEqualTo(100L * THREADS);
        }
    }

    private interface TaskFactory<T> {
        Callable<T> task(int i) throws IOException;
    }

    private static <T> List<T> runConcurrently(TaskFactory<T> factory) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                Callable<T> task = factory.task(i);
                futures.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(30, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
