/**
 * The {@code files} cluster-state store provider. The store keeps its state as JSON files under
 * {@code <dataDir>/__cluster/}; every write is atomic (temporary file, fsync, rename, directory fsync).
 */
package io.kaas.cluster.files;
