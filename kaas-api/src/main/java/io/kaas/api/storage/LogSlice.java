package io.kaas.api.storage;

/**
 * A run of whole record batches handed back by a read: either a region of a file the broker can send
 * with zero copy, or a buffer. The broker never modifies the bytes.
 */
public sealed interface LogSlice permits FileSlice, BufferSlice {
    /** Number of bytes in the slice. */
    int sizeInBytes();
}
