package io.sluice.cli.rebalance;

import io.sluice.cli.CommandFailedException;
import io.sluice.cluster.assign.RebalancePlanner.PartitionReplicas;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeLogDirsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * Each partition's size, the largest copy the brokers that answered DescribeLogDirs report, and the brokers that did
 * not answer within the timeout (with why). Immutable once read.
 *
 * @param bytes  partition to the size of its largest copy reported
 * @param silent the brokers that did not answer, by id, with the error
 */
record ReplicaSizes(Map<TopicPartition, Long> bytes, Map<Integer, String> silent) {

    /** Asks each of {@code brokers} for its log directories, giving each {@code timeout} to answer. */
    static ReplicaSizes read(Admin admin, Collection<Integer> brokers, Duration timeout) throws InterruptedException {
        Map<TopicPartition, Long> bytes = new HashMap<>();
        Map<Integer, String> silent = new TreeMap<>();
        if (brokers.isEmpty()) {
            return new ReplicaSizes(bytes, silent);
        }
        Map<Integer, KafkaFuture<Map<String, LogDirDescription>>> answers = admin.describeLogDirs(
                        brokers, new DescribeLogDirsOptions().timeoutMs(RebalanceInputs.millis(timeout)))
                .descriptions();
        for (Map.Entry<Integer, KafkaFuture<Map<String, LogDirDescription>>> answer : answers.entrySet()) {
            try {
                for (LogDirDescription dir : answer.getValue().get().values()) {
                    for (Map.Entry<TopicPartition, ReplicaInfo> e :
                            dir.replicaInfos().entrySet()) {
                        bytes.merge(e.getKey(), e.getValue().size(), Math::max);
                    }
                }
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                silent.put(answer.getKey(), cause.getClass().getSimpleName() + ": " + cause.getMessage());
            }
        }
        return new ReplicaSizes(bytes, silent);
    }

    /**
     * A note saying the sizes of the silent brokers were taken from other copies, when every silent broker is one of
     * {@code removing} and every partition it holds has a copy on a broker that answered.
     *
     * @throws CommandFailedException otherwise, naming the brokers and what to do
     */
    String requireOnlyRemovedSilent(Set<Integer> removing, List<PartitionReplicas> partitions, Duration timeout) {
        String who = "broker(s) " + silent.keySet() + " did not answer DescribeLogDirs within " + timeout.toSeconds()
                + " s (" + String.join("; ", new TreeSet<>(silent.values())) + ")";
        List<Integer> needed =
                silent.keySet().stream().filter(id -> !removing.contains(id)).toList();
        if (!needed.isEmpty()) {
            throw new CommandFailedException(who + ": the plan needs the size of every copy on the brokers it keeps,"
                    + " and a move onto a broker that does not answer would not complete. Check broker(s) " + needed
                    + " (hung, paused or overloaded?), give them longer with --broker-timeout-seconds, or, to"
                    + " empty them, run with --remove-broker");
        }
        List<String> onlyThere = new ArrayList<>();
        for (PartitionReplicas p : partitions) {
            boolean held = false;
            boolean elsewhere = false;
            for (int id : p.replicas()) {
                if (silent.containsKey(id)) {
                    held = true;
                } else {
                    elsewhere = true;
                }
            }
            if (held && !elsewhere) {
                onlyThere.add(p.topic() + "-" + p.partition());
            }
        }
        if (!onlyThere.isEmpty()) {
            throw new CommandFailedException(who + ": " + onlyThere
                    + " have no copy on another broker, so their size is unknown and their moves could copy from no"
                    + " other broker. Bring the broker(s) back to health, or stop them (a broker that is down is"
                    + " planned around) and run again");
        }
        return String.format(
                Locale.ROOT,
                "%s: they are being removed, and their partitions were sized by their copies on other brokers",
                who);
    }
}
