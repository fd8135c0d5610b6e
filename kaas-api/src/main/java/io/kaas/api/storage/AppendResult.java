package io.kaas.api.storage;

/**
 * The outcome of a successful append.
 *
 * @param baseOffset     offset assigned to the first record of the first batch
 * @param lastOffset     offset of the last record of the last batch
 * @param logAppendTime  the broker time stamped on the batches, or -1 for CreateTime topics
 * @param logStartOffset the log start offset after the append
 */
public record AppendResult(long baseOffset, long lastOffset, long logAppendTime, long logStartOffset) {
}
