/** Implementation of the file cluster-state store. Not exported. */
package io.kaas.cluster.files.internal;
