package io.kaas.broker.config;

/** Kafka's config value types, named as DescribeConfigs reports them ({@code ConfigDef.Type}). */
public enum ConfigType {
    BOOLEAN, STRING, INT, SHORT, LONG, DOUBLE, LIST, CLASS, PASSWORD
}
