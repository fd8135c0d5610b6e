package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.CommittedOffset;
import io.kaas.api.cluster.TopicPartitionRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The committed offsets of each group in {@code groups/<encoded id>.json}, one file per group, loaded
 * at open and replaced atomically on every change.
 */
final class GroupFiles {
    private static final Logger LOG = LoggerFactory.getLogger(GroupFiles.class);
    private static final String JSON = ".json";

    private GroupFiles() {
    }

    static Path file(Path groupsDir, String groupId) {
        return groupsDir.resolve(GroupFileNames.encode(groupId) + JSON);
    }

    /**
     * @return every group's offsets by group id
     * @throws ClusterStateException naming the file if one is unreadable, damaged or holds a group whose
     *                               id does not encode to its file name
     */
    static Map<String, Map<TopicPartitionRef, CommittedOffset>> loadAll(Path groupsDir) throws IOException {
        List<Path> entries;
        try (Stream<Path> list = Files.list(groupsDir)) {
            entries = list.sorted().collect(Collectors.toList());
        }
        Map<String, Map<TopicPartitionRef, CommittedOffset>> groups = new HashMap<>();
        for (Path file : entries) {
            String fileName = file.getFileName().toString();
            if (AtomicFiles.isTemp(file)) {
                TopicFiles.warnLeftover(file);
                continue;
            }
            if (!fileName.endsWith(JSON) || !Files.isRegularFile(file)) {
                LOG.atWarn().setMessage("Ignoring {}: not a group file").addArgument(file).addKeyValue("file", file).log();
                continue;
            }
            StateJson.GroupOffsets group;
            try {
                group = StateJson.readGroupOffsets(Files.readAllBytes(file));
            } catch (IOException e) {
                throw new ClusterStateException("Corrupt group file " + file + ": " + e.getMessage(), e);
            }
            if (!file(groupsDir, group.groupId()).getFileName().toString().equals(fileName)) {
                throw new ClusterStateException("Group file " + file + " holds group '" + group.groupId()
                        + "', whose file would be " + file(groupsDir, group.groupId()).getFileName(), null);
            }
            if (!group.offsets().isEmpty()) {
                groups.put(group.groupId(), group.offsets());
            }
        }
        return groups;
    }
}
