package io.kaas.broker.topic;

import io.kaas.broker.config.ConfigType;

/**
 * A config value as DescribeConfigs and CreateTopics report it.
 *
 * @param name          the config name
 * @param value         the effective value (null if unset or sensitive)
 * @param source        where the value comes from
 * @param type          its type
 * @param readOnly      whether it cannot be altered
 * @param sensitive     whether the value is hidden
 * @param documentation its description, or null
 */
public record DescribedConfig(String name, String value, ConfigSource source, ConfigType type,
                              boolean readOnly, boolean sensitive, String documentation) {
}
