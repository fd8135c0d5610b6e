package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.ClusterStateException;
import io.kaas.api.cluster.TopicRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Loads {@code topics/*.json} at open, refusing any file that is damaged or inconsistent with the others. */
final class TopicFiles {
    private static final Logger LOG = LoggerFactory.getLogger(TopicFiles.class);
    private static final String JSON = ".json";

    private TopicFiles() {
    }

    /**
     * @return every topic by name
     * @throws ClusterStateException naming the file if a topic file is unreadable, damaged, holds another
     *                               topic's name, or repeats another file's topic id
     */
    static Map<String, TopicRecord> loadAll(Path topicsDir) throws IOException {
        List<Path> entries;
        try (Stream<Path> list = Files.list(topicsDir)) {
            entries = list.sorted().collect(Collectors.toList());
        }
        Map<String, TopicRecord> byName = new HashMap<>();
        Map<UUID, Path> idFiles = new HashMap<>();
        for (Path file : entries) {
            String fileName = file.getFileName().toString();
            if (AtomicFiles.isTemp(file)) {
                warnLeftover(file);
                continue;
            }
            if (!fileName.endsWith(JSON) || !Files.isRegularFile(file)) {
                LOG.atWarn().setMessage("Ignoring {}: not a topic file").addArgument(file).addKeyValue("file", file).log();
                continue;
            }
            TopicRecord topic = load(file);
            String expected = fileName.substring(0, fileName.length() - JSON.length());
            if (!topic.name().equals(expected)) {
                throw new ClusterStateException("Topic file " + file + " holds topic '" + topic.name()
                        + "', expected '" + expected + "'", null);
            }
            Path other = idFiles.putIfAbsent(topic.topicId(), file);
            if (other != null) {
                throw new ClusterStateException("Topic files " + other + " and " + file + " have the same topic id "
                        + KafkaUuids.toText(topic.topicId()), null);
            }
            byName.put(topic.name(), topic);
        }
        return byName;
    }

    static void warnLeftover(Path file) {
        LOG.atWarn().setMessage("Ignoring {}, left over from an interrupted write").addArgument(file)
                .addKeyValue("file", file).log();
    }

    private static TopicRecord load(Path file) throws IOException {
        try {
            return StateJson.readTopic(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ClusterStateException("Corrupt topic file " + file + ": " + e.getMessage(), e);
        }
    }
}
