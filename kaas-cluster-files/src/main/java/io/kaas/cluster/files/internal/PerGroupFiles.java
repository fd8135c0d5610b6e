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
 * A directory of one JSON file per group, named as {@link GroupFileNames} encodes the group id: the committed
 * offsets ({@link GroupFiles}) and the config overrides ({@link GroupConfigFiles}) are each kept so. Loading skips
 * leftover temporary files (with a warning) and foreign entries, and refuses a damaged file or one whose group id
 * does not encode to its name, naming the file.
 */
final class PerGroupFiles {
    private static final Logger LOG = LoggerFactory.getLogger(PerGroupFiles.class);
    private static final String JSON = ".json";

    /** What one file holds: its group id and its content, or a null content if it holds nothing to keep. */
    record Loaded<V>(String groupId, V content) {
    }

    /** Decodes one file's bytes. */
    @FunctionalInterface
    interface Reader<V> {
        Loaded<V> read(byte[] json) throws IOException;
    }

    private PerGroupFiles() {
    }

    static Path file(Path dir, String groupId) {
        return dir.resolve(GroupFileNames.encode(groupId) + JSON);
    }

    /**
     * @param kind what the files hold, lower case, for messages ("group", "group-config")
     * @return every group's content by group id, groups without content left out
     * @throws ClusterStateException naming the file if one is unreadable, damaged or holds a group whose
     *                               id does not encode to its file name
     */
    static <V> Map<String, V> loadAll(Path dir, String kind, Reader<V> reader) throws IOException {
        List<Path> entries;
        try (Stream<Path> list = Files.list(dir)) {
            entries = list.sorted().collect(Collectors.toList());
        }
        String capitalized = Character.toUpperCase(kind.charAt(0)) + kind.substring(1);
        Map<String, V> groups = new HashMap<>();
        for (Path file : entries) {
            String fileName = file.getFileName().toString();
            if (AtomicFiles.isTemp(file)) {
                TopicFiles.warnLeftover(file);
                continue;
            }
            if (!fileName.endsWith(JSON) || !Files.isRegularFile(file)) {
                LOG.atWarn().setMessage("Ignoring {}: not a {} file").addArgument(file).addArgument(kind)
                        .addKeyValue("file", file).log();
                continue;
            }
            Loaded<V> group;
            try {
                group = reader.read(Files.readAllBytes(file));
            } catch (IOException e) {
                throw new ClusterStateException("Corrupt " + kind + " file " + file + ": " + e.getMessage(), e);
            }
            if (!file(dir, group.groupId()).getFileName().toString().equals(fileName)) {
                throw new ClusterStateException(capitalized + " file " + file + " holds group '" + group.groupId()
                        + "', whose file would be " + file(dir, group.groupId()).getFileName(), null);
            }
            if (group.content() != null) {
                groups.put(group.groupId(), group.content());
            }
        }
        return groups;
    }
}
