package io.sluice.broker.topic;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable list of topics of a single broker: one small properties file per topic under the
 * broker's metadata directory, replaced atomically and fsynced on every change, so a topic either
 * exists with its id, partition count and overrides, or does not.
 *
 * <p>Thread-safe: reads are lock-free, changes are serialized.
 */
public final class TopicRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(TopicRegistry.class);
    private static final String SUFFIX = ".topic";
    private static final String ID_KEY = "id";
    private static final String PARTITIONS_KEY = "partitions";
    private static final String CONFIG_PREFIX = "config.";

    private final Path directory;
    private final Map<String, TopicInfo> byName = new ConcurrentHashMap<>();
    private final Map<Uuid, TopicInfo> byId = new ConcurrentHashMap<>();

    private TopicRegistry(Path directory) {
        this.directory = directory;
    }

    /** Loads every topic file; an unreadable one is reported and skipped (its logs are then left untouched). */
    public static TopicRegistry load(Path directory, List<String> problems) throws IOException {
        Files.createDirectories(directory);
        TopicRegistry registry = new TopicRegistry(directory);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path file : files) {
                try {
                    TopicInfo topic = parse(file);
                    registry.byName.put(topic.name(), topic);
                    registry.byId.put(topic.id(), topic);
                } catch (IOException | RuntimeException e) {
                    problems.add("could not read topic metadata " + file + ": " + e.getMessage());
                    LOG.error("Could not read topic metadata {}", file, e);
                }
            }
        }
        return registry;
    }

    public Collection<TopicInfo> all() {
        return byName.values();
    }

    public TopicInfo byName(String name) {
        return byName.get(name);
    }

    public TopicInfo byId(Uuid id) {
        return byId.get(id);
    }

    public synchronized void put(TopicInfo topic) throws IOException {
        Properties props = new Properties();
        props.setProperty(ID_KEY, topic.id().toString());
        props.setProperty(PARTITIONS_KEY, Integer.toString(topic.partitionCount()));
        topic.configOverrides().forEach((k, v) -> props.setProperty(CONFIG_PREFIX + k, v));
        Path file = fileOf(topic.name());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            props.store(out, "topic " + topic.name());
        }
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
        byName.put(topic.name(), topic);
        byId.put(topic.id(), topic);
    }

    public synchronized void remove(String name) throws IOException {
        TopicInfo removed = byName.remove(name);
        if (removed != null) {
            byId.remove(removed.id());
        }
        Files.deleteIfExists(fileOf(name));
    }

    private Path fileOf(String name) {
        return directory.resolve(name + SUFFIX);
    }

    private static TopicInfo parse(Path file) throws IOException {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(in);
        }
        String fileName = file.getFileName().toString();
        String name = fileName.substring(0, fileName.length() - SUFFIX.length());
        String id = props.getProperty(ID_KEY);
        String partitions = props.getProperty(PARTITIONS_KEY);
        if (id == null || partitions == null) {
            throw new IOException("missing '" + ID_KEY + "' or '" + PARTITIONS_KEY + "'");
        }
        int partitionCount = Integer.parseInt(partitions.trim());
        if (partitionCount <= 0) {
            throw new IOException("partition count " + partitionCount + " is not positive");
        }
        Map<String, String> overrides = new HashMap<>();
        for (String key : props.stringPropertyNames()) {
            if (key.startsWith(CONFIG_PREFIX)) {
                overrides.put(key.substring(CONFIG_PREFIX.length()), props.getProperty(key));
            }
        }
        return new TopicInfo(name, Uuid.fromString(id.trim()), partitionCount, overrides);
    }
}
