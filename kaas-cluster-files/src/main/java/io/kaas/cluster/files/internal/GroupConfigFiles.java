package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.ClusterStateException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The config overrides of each group in {@code group-configs/<encoded id>.json} (names as
 * {@link GroupFileNames} encodes them), one file per group with overrides, loaded at open and replaced
 * atomically on every change; a group whose last override is removed loses its file.
 */
final class GroupConfigFiles {
    static final String DIR = "group-configs";

    private GroupConfigFiles() {
    }

    static Path file(Path dir, String groupId) {
        return PerGroupFiles.file(dir, groupId);
    }

    /**
     * @return every group's overrides by group id
     * @throws ClusterStateException naming the file if one is unreadable, damaged or holds a group whose
     *                               id does not encode to its file name
     */
    static Map<String, Map<String, String>> loadAll(Path dir) throws IOException {
        return PerGroupFiles.loadAll(dir, "group-config", json -> {
            StateJson.GroupConfigs group = StateJson.readGroupConfigs(json);
            return new PerGroupFiles.Loaded<>(group.groupId(),
                    group.configs().isEmpty() ? null : Map.copyOf(group.configs()));
        });
    }
}
