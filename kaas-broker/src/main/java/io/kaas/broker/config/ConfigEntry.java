package io.kaas.broker.config;

/**
 * One broker config as DescribeConfigs reports it on the broker resource.
 *
 * @param name          the Kafka config name
 * @param value         the effective value as a string (null for an unset key without default,
 *                      and for sensitive keys)
 * @param isDefault     true when the value is the default (not set in the file or overrides)
 * @param sensitive     true for passwords: the value is never reported
 * @param type          Kafka's {@code ConfigType} name, e.g. {@code INT}, {@code LIST}
 * @param documentation one-sentence description
 */
public record ConfigEntry(String name, String value, boolean isDefault, boolean sensitive, String type,
                          String documentation) {
}
