/** The zookeeper store's implementation: not an API. */
package io.kaas.cluster.zookeeper.internal;
