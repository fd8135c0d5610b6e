package io.kaas.broker.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.storage.InvalidConfigException;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.storage.InvalidTxnStateException;
import io.kaas.api.storage.TransactionCoordinatorFencedException;
import io.kaas.api.storage.UnsupportedFeatureException;
import io.kaas.wire.protocol.Errors;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class StorageErrorsTest {
    @Test
    void anEngineRefusingASettingIsInvalidConfigEvenThroughAFuture() {
        InvalidConfigException refused = new InvalidConfigException("the engine does not compact");
        assertThat(StorageErrors.code(refused)).isEqualTo(Errors.INVALID_CONFIG);
        assertThat(StorageErrors.code(new CompletionException(refused))).isEqualTo(Errors.INVALID_CONFIG);
        assertThat(StorageErrors.message(new CompletionException(refused))).isEqualTo("the engine does not compact");
        assertThat(StorageErrors.code(new UnsupportedFeatureException("no"))).isEqualTo(Errors.UNSUPPORTED_VERSION);
    }

    @Test
    void markerAndTransactionRefusalsMapToKafkasCodes() {
        assertThat(StorageErrors.code(new CompletionException(new TransactionCoordinatorFencedException("zombie"))))
                .as("TRANSACTION_COORDINATOR_FENCED").isEqualTo((short) 52);
        assertThat(StorageErrors.code(new InvalidTxnStateException("expected a transactional write")))
                .isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(StorageErrors.code(new InvalidProducerEpochException("fenced"))).isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
    }
}
