/**
 * The kaas broker core: configuration, lifecycle, the Netty server and the request handlers.
 * Backends (storage engines, cluster-state stores) are found through {@code io.kaas.plugins} by
 * service binding; run with {@code -m io.kaas.broker/io.kaas.broker.Main}.
 */
module io.kaas.broker {
    requires transitive io.kaas.api;
    requires io.kaas.wire;
    requires io.kaas.plugins;
    requires io.kaas.records;
    requires io.kaas.security;
    /* BrokerConfig.groupCoordinator() hands out the coordinator's typed settings. */
    requires transitive io.kaas.coordinator;
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.codec;
    requires io.netty.transport.classes.epoll;
    /* The admin endpoint (admin.listener): Netty's HTTP codec, Micrometer's Prometheus registry. */
    requires io.netty.codec.http;
    requires micrometer.core;
    requires micrometer.registry.prometheus;
    requires java.management;
    /* The console's JSON API (io.kaas.broker.console). */
    requires com.fasterxml.jackson.databind;
    requires org.slf4j;
    requires ch.qos.logback.classic;
    requires ch.qos.logback.core;
    requires jdk.unsupported;

    exports io.kaas.broker;
    exports io.kaas.broker.config;

    uses io.kaas.api.storage.StorageEngineProvider;
    uses io.kaas.api.cluster.ClusterStateStoreProvider;
    uses io.kaas.api.auth.AuthorizerProvider;

    provides ch.qos.logback.classic.spi.Configurator with io.kaas.broker.logging.ConsoleLogging;
}
