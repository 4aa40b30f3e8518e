package io.sluice.broker.api;

import io.sluice.broker.move.MoveTargets;
import io.sluice.broker.move.TransferProgress;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicManager;
import io.sluice.log.LogManager;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.DescribeLogDirsRequestData.DescribableLogDirTopic;
import org.apache.kafka.common.message.DescribeLogDirsResponseData;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsPartition;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsResult;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsTopic;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * DescribeLogDirs ({@code kafka-log-dirs.sh}, and the room check before a partition move): for each of this broker's
 * log directories its total and usable bytes (v4) and the partitions it holds with their size and offset lag
 * (Kafka's: the high watermark minus the log end, never below 0). Every hosted partition when the topic list is null,
 * else the partitions named; a replica being filled by a partition move counts the segment bytes verified in its
 * staging so far, so the move's progress shows. Sluice has no future replicas (no moves between directories), so none
 * is flagged. A
 * directory whose file store cannot be read answers KAFKA_STORAGE_ERROR for that directory only.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class DescribeLogDirsHandler implements ApiHandler<DescribeLogDirsRequestData> {
    /** Kafka's value for a size the broker cannot tell (v4's total and usable bytes). */
    private static final long UNKNOWN_BYTES = -1;

    private final LogManager logs;
    private final TopicManager topics;
    private final MoveTargets moves;

    public DescribeLogDirsHandler(LogManager logs, TopicManager topics, MoveTargets moves) {
        this.logs = logs;
        this.topics = topics;
        this.moves = moves;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, DescribeLogDirsRequestData request) {
        Map<String, Set<Integer>> wanted = wanted(request);
        Map<Path, Map<String, DescribeLogDirsTopic>> byDir = new LinkedHashMap<>();
        for (Path dir : logs.logDirs()) {
            byDir.put(dir, new LinkedHashMap<>());
        }
        for (Partition p : topics.hostedPartitions()) {
            String topic = p.topic().name();
            if (wanted != null && !wanted.getOrDefault(topic, Set.of()).contains(p.index())) {
                continue;
            }
            Map<String, DescribeLogDirsTopic> dirTopics = byDir.get(logs.logDirOf(topic, p.index()));
            if (dirTopics == null) {
                continue;
            }
            long lag = Math.max(0, p.highWatermark() - p.log().logEndOffset());
            TransferProgress move = moves.progress(topic, p.index());
            // a move's verified staged bytes are the replica's size until they are installed into the (until then
            // empty) log; once installed they are in the log's size, so the larger of the two counts them once
            long size = move == null ? p.log().sizeInBytes() : Math.max(p.log().sizeInBytes(), move.bytesVerified());
            dirTopics
                    .computeIfAbsent(topic, t -> new DescribeLogDirsTopic().setName(t))
                    .partitions()
                    .add(new DescribeLogDirsPartition()
                            .setPartitionIndex(p.index())
                            .setPartitionSize(size)
                            .setOffsetLag(lag)
                            .setIsFutureKey(false));
        }
        DescribeLogDirsResponseData response = new DescribeLogDirsResponseData().setErrorCode(Errors.NONE.code());
        for (Map.Entry<Path, Map<String, DescribeLogDirsTopic>> e : byDir.entrySet()) {
            response.results().add(describe(e.getKey(), e.getValue()));
        }
        return CompletableFuture.completedFuture(response);
    }

    private static DescribeLogDirsResult describe(Path dir, Map<String, DescribeLogDirsTopic> topics) {
        DescribeLogDirsResult result = new DescribeLogDirsResult()
                .setLogDir(dir.toAbsolutePath().toString())
                .setTopics(List.copyOf(topics.values()));
        try {
            FileStore store = Files.getFileStore(dir);
            return result.setErrorCode(Errors.NONE.code())
                    .setTotalBytes(store.getTotalSpace())
                    .setUsableBytes(store.getUsableSpace());
        } catch (IOException e) {
            return result.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code())
                    .setTotalBytes(UNKNOWN_BYTES)
                    .setUsableBytes(UNKNOWN_BYTES);
        }
    }

    /** Topic → partitions named, or null for every partition. */
    private static Map<String, Set<Integer>> wanted(DescribeLogDirsRequestData request) {
        if (request.topics() == null) {
            return null;
        }
        Map<String, Set<Integer>> wanted = new HashMap<>();
        for (DescribableLogDirTopic t : request.topics()) {
            wanted.computeIfAbsent(t.topic(), k -> new HashSet<>()).addAll(t.partitions());
        }
        return wanted;
    }
}
