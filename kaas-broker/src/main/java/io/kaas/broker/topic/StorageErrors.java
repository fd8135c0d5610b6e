package io.kaas.broker.topic;

import io.kaas.api.cluster.TopicExistsException;
import io.kaas.api.cluster.UnknownTopicException;
import io.kaas.api.record.CorruptBatchException;
import io.kaas.api.storage.InvalidConfigException;
import io.kaas.api.storage.InvalidProducerEpochException;
import io.kaas.api.storage.InvalidRecordException;
import io.kaas.api.storage.InvalidTxnStateException;
import io.kaas.api.storage.KafkaStorageException;
import io.kaas.api.storage.OffsetOutOfRangeException;
import io.kaas.api.storage.OutOfOrderSequenceException;
import io.kaas.api.storage.RecordTooLargeException;
import io.kaas.api.storage.TransactionCoordinatorFencedException;
import io.kaas.api.storage.UnsupportedFeatureException;
import io.kaas.wire.protocol.Errors;
import io.kaas.broker.topic.TopicException;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Maps the exceptions of the storage and cluster SPIs to the Kafka error code each one documents. */
public final class StorageErrors {
    private StorageErrors() {
    }

    /** The Kafka error code for {@code t} (unwrapping completion wrappers); UNKNOWN_SERVER_ERROR if unmapped. */
    public static short code(Throwable t) {
        Throwable e = unwrap(t);
        if (e instanceof TopicException te) {
            return te.errorCode();
        }
        if (e instanceof OffsetOutOfRangeException) {
            return Errors.OFFSET_OUT_OF_RANGE;
        }
        if (e instanceof CorruptBatchException) {
            return Errors.CORRUPT_MESSAGE;
        }
        if (e instanceof RecordTooLargeException) {
            return Errors.MESSAGE_TOO_LARGE;
        }
        if (e instanceof KafkaStorageException) {
            return Errors.KAFKA_STORAGE_ERROR;
        }
        if (e instanceof OutOfOrderSequenceException) {
            return Errors.OUT_OF_ORDER_SEQUENCE_NUMBER;
        }
        if (e instanceof InvalidProducerEpochException) {
            return Errors.INVALID_PRODUCER_EPOCH;
        }
        if (e instanceof TransactionCoordinatorFencedException) {
            return Errors.TRANSACTION_COORDINATOR_FENCED;
        }
        if (e instanceof InvalidTxnStateException) {
            return Errors.INVALID_TXN_STATE;
        }
        if (e instanceof InvalidRecordException) {
            return Errors.INVALID_RECORD;
        }
        if (e instanceof InvalidConfigException) {
            return Errors.INVALID_CONFIG;
        }
        if (e instanceof UnsupportedFeatureException) {
            return Errors.UNSUPPORTED_VERSION;
        }
        if (e instanceof java.io.UncheckedIOException || e instanceof java.io.IOException) {
            return Errors.KAFKA_STORAGE_ERROR;
        }
        if (e instanceof UnknownTopicException) {
            return Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        if (e instanceof TopicExistsException) {
            return Errors.TOPIC_ALREADY_EXISTS;
        }
        return Errors.UNKNOWN_SERVER_ERROR;
    }

    /** The message to put in a response's error message field for {@code t}. */
    public static String message(Throwable t) {
        Throwable e = unwrap(t);
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** The records an engine refused the batch for (KIP-467 record_errors), none if {@code t} names none. */
    public static List<InvalidRecordException.RecordError> recordErrors(Throwable t) {
        return unwrap(t) instanceof InvalidRecordException e ? e.recordErrors() : List.of();
    }

    public static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
