package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The committed offsets of each group in {@code groups/<encoded id>.json}, one file per group, loaded
 * at open and replaced atomically on every change.
 */
final class GroupFiles {

    private GroupFiles() {
    }

    static Path file(Path groupsDir, String groupId) {
        return PerGroupFiles.file(groupsDir, groupId);
    }

    /**
     * @return every group's offsets by group id
     * @throws ClusterStateException naming the file if one is unreadable, damaged or holds a group whose
     *                               id does not encode to its file name
     */
    static Map<String, Map<TopicPartitionRef, CommittedOffset>> loadAll(Path groupsDir) throws IOException {
        return PerGroupFiles.loadAll(groupsDir, "group", json -> {
            StateJson.GroupOffsets group = StateJson.readGroupOffsets(json);
            return new PerGroupFiles.Loaded<>(group.groupId(), group.offsets().isEmpty() ? null : group.offsets());
        });
    }
}
