package io.sluice.it.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 6's churn scenario: three Java consumers (each in its own JVM) share a 12-partition topic while a producer
 * runs; one leaves, one is SIGKILLed, one joins; once with eager and once with cooperative rebalancing. After each rebalance every partition is owned by exactly one live
 * member, and since members commit only after processing, every acknowledged record was processed by someone.
 */
class ConsumerGroupChurnTest {
    private static final String TOPIC = "churn";
    private static final int PARTITIONS = 12;
    private static final Duration STABLE_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = GroupIt.startBroker(tempDir);
        GroupIt.createTopic(broker.bootstrap(), TOPIC, PARTITIONS);
    }

    /** Eager (range) and incremental (cooperative-sticky) rebalancing, as the Java client drives them. */
    static Stream<Arguments> assignors() {
        return Stream.of(
                Arguments.of("eager", RangeAssignor.class.getName()),
                Arguments.of("cooperative", CooperativeStickyAssignor.class.getName()));
    }

    @AfterAll
    static void stopBroker() {
        GroupIt.stopAndKeepLog(broker, ConsumerGroupChurnTest.class);
    }

    /** Produces until stopped, remembering every acknowledged offset per partition. */
    private static final class BackgroundProducer implements AutoCloseable {
        final Map<Integer, Set<Long>> acked = new ConcurrentHashMap<>();
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicReference<Exception> failure = new AtomicReference<>();
        final Thread thread;

        BackgroundProducer(String bootstrap) {
            thread = new Thread(
                    () -> {
                        try (KafkaProducer<String, String> producer = GroupIt.producer(bootstrap)) {
                            long i = 0;
                            while (running.get()) {
                                int partition = (int) (i % PARTITIONS);
                                // A failed send reaches the callback, which keeps it for the test to assert.
                                var unused = producer.send(
                                        new ProducerRecord<>(TOPIC, partition, "k" + i, "v" + i), (metadata, e) -> {
                                            if (e != null) {
                                                failure.compareAndSet(null, e);
                                            } else {
                                                acked.computeIfAbsent(
                                                                metadata.partition(),
                                                                p -> ConcurrentHashMap.newKeySet())
                                                        .add(metadata.offset());
                                            }
                                        });
                                i++;
                                if (i % 50 == 0) {
                                    Thread.sleep(20);
                                }
                            }
                            producer.flush();
                        } catch (Exception e) {
                            failure.compareAndSet(null, e);
                        }
                    },
                    "background-producer");
            thread.start();
        }

        @Override
        public void close() {
            stop();
        }

        /** Stops producing and waits until every send is acknowledged or failed. */
        void stop() {
            running.set(false);
            try {
                thread.join(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String describe(List<GroupMemberProcess> members) {
        return members.stream().map(m -> m.describe() + " owns " + m.owned()).collect(Collectors.joining("\n"));
    }

    /** Waits until the live members, all in one generation, own disjoint sets covering every partition. */
    private static void awaitExactOwnership(List<GroupMemberProcess> live, String step) throws InterruptedException {
        Poll.until(
                step + ": exact ownership",
                STABLE_TIMEOUT,
                () -> ownershipProblem(live),
                Objects::isNull,
                () -> describe(live) + "\nbroker: " + broker.outputTail());
    }

    private static String ownershipProblem(List<GroupMemberProcess> live) {
        Set<Integer> generations = new HashSet<>();
        Set<Integer> seen = new HashSet<>();
        for (GroupMemberProcess member : live) {
            if (!member.isAlive()) {
                return member.name() + " died: " + member.describe();
            }
            GroupMemberProcess.Owned owned = member.owned();
            if (owned == null) {
                return member.name() + " has no assignment yet";
            }
            generations.add(owned.generation());
            for (int p : owned.partitions()) {
                if (!seen.add(p)) {
                    return "partition " + p + " is owned twice";
                }
            }
        }
        if (generations.size() != 1) {
            return "members are in generations " + generations;
        }
        if (seen.size() != PARTITIONS) {
            return "only partitions " + seen + " are owned";
        }
        return null;
    }

    private static void awaitAllProcessed(BackgroundProducer producer, List<GroupMemberProcess> everyone)
            throws InterruptedException {
        Supplier<String> missing = () -> {
            for (Map.Entry<Integer, Set<Long>> e : producer.acked.entrySet()) {
                Set<Long> processed = new HashSet<>();
                everyone.forEach(m -> processed.addAll(m.processed(e.getKey())));
                for (long offset : e.getValue()) {
                    if (!processed.contains(offset)) {
                        return "partition " + e.getKey() + " offset " + offset + " was never processed";
                    }
                }
            }
            return null;
        };
        Poll.until(
                "every acknowledged record processed",
                DRAIN_TIMEOUT,
                missing::get,
                Objects::isNull,
                () -> "records skipped:\n" + describe(everyone));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("assignors")
    void shouldKeepEveryPartitionOwnedOnceAndSkipNothingThroughLeaveCrashAndJoin(String mode, String assignor)
            throws Exception {
        String group = "churn-" + mode;
        Path logs = tempDir.resolve("members-" + mode);
        java.nio.file.Files.createDirectories(logs);
        String bootstrap = broker.bootstrap();
        List<GroupMemberProcess> everyone = new ArrayList<>();
        try (BackgroundProducer producer = new BackgroundProducer(bootstrap)) {
            GroupMemberProcess a = GroupMemberProcess.start("a", bootstrap, TOPIC, group, assignor, logs);
            GroupMemberProcess b = GroupMemberProcess.start("b", bootstrap, TOPIC, group, assignor, logs);
            GroupMemberProcess c = GroupMemberProcess.start("c", bootstrap, TOPIC, group, assignor, logs);
            everyone.addAll(List.of(a, b, c));
            awaitExactOwnership(List.of(a, b, c), "three members");

            a.leave();
            awaitExactOwnership(List.of(b, c), "after a left");

            b.crash();
            awaitExactOwnership(List.of(c), "after b crashed");

            GroupMemberProcess d = GroupMemberProcess.start("d", bootstrap, TOPIC, group, assignor, logs);
            everyone.add(d);
            awaitExactOwnership(List.of(c, d), "after d joined");

            // Records go on being produced until the newest member has processed some in the final assignment.
            Poll.until(
                    "d processes records",
                    DRAIN_TIMEOUT,
                    () -> IntStream.range(0, PARTITIONS)
                            .map(p -> d.processed(p).size())
                            .sum(),
                    n -> n > 0,
                    () -> describe(everyone));
            producer.stop();
            assertNull(producer.failure.get(), "the producer failed");
            awaitAllProcessed(producer, everyone);
            assertEquals(PARTITIONS, producer.acked.size(), "every partition received records");
            c.leave();
            d.leave();
        } finally {
            for (GroupMemberProcess member : everyone) {
                member.close();
            }
        }
    }
}
