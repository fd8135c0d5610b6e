package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.ClusterStateException;
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
 * The config overrides of each group in {@code group-configs/<encoded id>.json} (names as
 * {@link GroupFileNames} encodes them), one file per group with overrides, loaded at open and replaced
 * atomically on every change; a group whose last override is removed loses its file.
 */
final class GroupConfigFiles {
    private static final Logger LOG = LoggerFactory.getLogger(GroupConfigFiles.class);
    static final String DIR = "group-configs";
    private static final String JSON = ".json";

    private GroupConfigFiles() {
    }

    static Path file(Path dir, String groupId) {
        return dir.resolve(GroupFileNames.encode(groupId) + JSON);
    }

    /**
     * @return every group's overrides by group id
     * @throws ClusterStateException naming the file if one is unreadable, damaged or holds a group whose
     *                               id does not encode to its file name
     */
    static Map<String, Map<String, String>> loadAll(Path dir) throws IOException {
        List<Path> entries;
        try (Stream<Path> list = Files.list(dir)) {
            entries = list.sorted().collect(Collectors.toList());
        }
        Map<String, Map<String, String>> groups = new HashMap<>();
        for (Path file : entries) {
            String fileName = file.getFileName().toString();
            if (AtomicFiles.isTemp(file)) {
                TopicFiles.warnLeftover(file);
                continue;
            }
            if (!fileName.endsWith(JSON) || !Files.isRegularFile(file)) {
                LOG.atWarn().setMessage("Ignoring {}: not a group-config file").addArgument(file)
                        .addKeyValue("file", file).log();
                continue;
            }
            StateJson.GroupConfigs group;
            try {
                group = StateJson.readGroupConfigs(Files.readAllBytes(file));
            } catch (IOException e) {
                throw new ClusterStateException("Corrupt group-config file " + file + ": " + e.getMessage(), e);
            }
            if (!file(dir, group.groupId()).getFileName().toString().equals(fileName)) {
                throw new ClusterStateException("Group-config file " + file + " holds group '" + group.groupId()
                        + "', whose file would be " + file(dir, group.groupId()).getFileName(), null);
            }
            if (!group.configs().isEmpty()) {
                groups.put(group.groupId(), Map.copyOf(group.configs()));
            }
        }
        return groups;
    }
}
