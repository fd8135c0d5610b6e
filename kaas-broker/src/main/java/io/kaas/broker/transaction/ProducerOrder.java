package io.kaas.broker.transaction;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Keeps one producer's transactional Produce requests in the order they arrived while each waits for its
 * verification by the transaction coordinator. A connection's requests reach the handler in order, but a
 * verification completes asynchronously (an implicit add may write the transaction's state, or be retried while
 * the last transaction's markers are written), so without this a later in-flight request of the producer could be
 * appended before an earlier one and break its sequences (OUT_OF_ORDER_SEQUENCE_NUMBER), where Kafka, which
 * handles one request per connection at a time, appends them in request order. Thread-safe.
 */
public final class ProducerOrder {
    private final ConcurrentHashMap<Long, CompletableFuture<Void>> tails = new ConcurrentHashMap<>();

    /**
     * Runs {@code step} once every step submitted earlier for {@code producerId} has finished. A step's future
     * completes once it has handed its batches to the engine (appends are applied in call order), not when they are
     * durable, so fsyncs still overlap.
     */
    public void run(long producerId, Supplier<CompletableFuture<?>> step) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        CompletableFuture<Void> previous = tails.put(producerId, done);
        CompletableFuture<Void> start = previous == null ? CompletableFuture.completedFuture(null) : previous;
        start.whenComplete((ignored, alsoIgnored) -> {
            CompletableFuture<?> finished;
            try {
                finished = step.get();
            } catch (RuntimeException | Error e) {
                finished = CompletableFuture.failedFuture(e);
            }
            finished.whenComplete((r, e) -> {
                tails.remove(producerId, done);
                done.complete(null);
            });
        });
    }

    /** The producers with a step waiting or running (for tests). */
    int pending() {
        return tails.size();
    }
}
