package io.kaas.broker.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ProducerOrderTest {

    @Test
    void aLaterStepOfTheSameProducerWaitsForTheEarlierOne() {
        ProducerOrder order = new ProducerOrder();
        List<String> ran = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> firstVerification = new CompletableFuture<>();
        order.run(7L, () -> firstVerification.thenRun(() -> ran.add("first")));
        order.run(7L, () -> {
            ran.add("second");
            return CompletableFuture.completedFuture(null);
        });
        assertThat(ran).as("the second request waits while the first is being verified").isEmpty();
        firstVerification.complete(null);
        assertThat(ran).containsExactly("first", "second");
        assertThat(order.pending()).isZero();
    }

    @Test
    void anotherProducerDoesNotWait() {
        ProducerOrder order = new ProducerOrder();
        List<String> ran = new CopyOnWriteArrayList<>();
        order.run(7L, CompletableFuture::new); // never finishes
        order.run(8L, () -> {
            ran.add("other producer");
            return CompletableFuture.completedFuture(null);
        });
        assertThat(ran).containsExactly("other producer");
    }

    @Test
    void aFailedOrThrowingStepDoesNotBlockTheNextOne() {
        ProducerOrder order = new ProducerOrder();
        List<String> ran = new CopyOnWriteArrayList<>();
        order.run(7L, () -> CompletableFuture.failedFuture(new IllegalStateException("verification failed")));
        order.run(7L, () -> {
            throw new IllegalStateException("boom");
        });
        order.run(7L, () -> {
            ran.add("third");
            return CompletableFuture.completedFuture(null);
        });
        assertThat(ran).containsExactly("third");
        assertThat(order.pending()).isZero();
    }
}
