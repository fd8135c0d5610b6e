package io.kaas.api.storage;

/**
 * The engine cannot serve a partition with the given settings (for example {@code cleanup.policy=compact}
 * on an engine that does not compact): INVALID_CONFIG (40) on the wire, answered to the CreateTopics or
 * AlterConfigs request that asked for them.
 */
public class InvalidConfigException extends StorageException {
    public InvalidConfigException(String message) {
        super(message);
    }
}
