package io.sluice.cluster.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.controller.ClusterController;
import io.sluice.cluster.node.ClusterFixture;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.SnapshotManifest;
import io.sluice.cluster.zk.ZkPaths;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.drivers.TracerDriver;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.DefaultTracerDriver;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StateReader}'s reads asked together against a real ZooKeeper: the head and the delta list read together
 * equal the two read apart and leave a watch on each; with no state written yet they leave the watch for its
 * creation; the delta after a follower's position comes with the list and is not asked again; deltas read in
 * windows equal deltas read one by one, in any order of asking and past a window's end, a
 * deleted one reading as gone; a snapshot whose manifest declares parts that do not exist is refused by name.
 */
class StateReaderTest {
    @TempDir
    Path dir;

    /** Collects the watch events it is handed. Thread-safe. */
    private static final class Events implements CuratorWatcher {
        final BlockingQueue<WatchedEvent> seen = new ArrayBlockingQueue<>(64);

        @Override
        public void process(WatchedEvent event) {
            seen.add(event);
        }

        WatchedEvent next() throws InterruptedException {
            WatchedEvent event = seen.poll(60, TimeUnit.SECONDS);
            assertNotNull(event, "no watch fired within 60 s");
            return event;
        }

        /** Waits for an event of {@code type} on {@code path}, passing over others. */
        void awaitEvent(Watcher.Event.EventType type, String path) throws InterruptedException {
            WatchedEvent event;
            do {
                event = next();
            } while (event.getType() != type || !path.equals(event.getPath()));
        }
    }

    private static ClusterController controller(ClusterFixture cluster) throws Exception {
        ClusterFixture.Broker b1 = cluster.broker(1, "", true);
        return ClusterFixture.awaitController(List.of(b1)).node().controller();
    }

    /** A controller whose state holds topic t0 of {@code partitions} partitions, folded into a snapshot. */
    private static ClusterController snapshotted(ClusterFixture cluster, int partitions) throws Exception {
        ClusterController controller = controller(cluster);
        controller.createTopic("t0", partitions, 1, Map.of()).get(60, TimeUnit.SECONDS);
        controller.writeSnapshotNow().get(60, TimeUnit.SECONDS);
        return controller;
    }

    @Test
    void shouldReadTheHeadAndTheDeltaListTogetherAsApartAndWatchBoth() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            ClusterController controller = snapshotted(cluster, 1);
            controller.createTopic("t1", 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
            try (StateReader reader = new StateReader(cluster.client(), cluster.config)) {
                Events events = new Events();
                StateReader.HeadAndDeltas together = reader.readHeadAndDeltas(events);
                assertEquals(reader.readHead(null), together.head());
                assertArrayEquals(reader.listDeltas(null), together.deltas());
                assertTrue(together.deltas().length > 0, "the change after the snapshot is a delta");

                controller.createTopic("t2", 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
                WatchedEvent added = events.next();
                assertEquals(Watcher.Event.EventType.NodeChildrenChanged, added.getType());
                assertEquals(ZkPaths.STATE, added.getPath());

                reader.readHeadAndDeltas(events);
                SnapshotManifest before = reader.readHead(null);
                controller.writeSnapshotNow().get(60, TimeUnit.SECONDS);
                events.awaitEvent(Watcher.Event.EventType.NodeDataChanged, ZkPaths.STATE_HEAD);
                assertTrue(reader.readHead(null).snapshotId() > before.snapshotId());
            }
        }
    }

    @Test
    void shouldAnswerTheNextDeltaFromTheReadAheadAndAskForAnyOtherAsBefore() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            ClusterController controller = controller(cluster);
            controller.createTopic("t0", 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
            try (StateReader reader = new StateReader(cluster.client(), cluster.config);
                    StateReader oneByOne = new StateReader(cluster.client(), cluster.config)) {
                Events events = new Events();
                long[] before =
                        reader.readHeadAndDeltas(events, Long.MAX_VALUE / 2).deltas();
                long last = before[before.length - 1];
                assertEquals(0, reader.deltasReadAhead(), "no delta has that seq");

                controller.createTopic("t1", 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
                StateReader.HeadAndDeltas after = reader.readHeadAndDeltas(events, last + 1);
                long[] seqs = after.deltas();
                int first = Arrays.binarySearch(seqs, last + 1);
                assertTrue(
                        first >= 0, "the next delta takes the next seq: " + Arrays.toString(seqs) + " after " + last);
                StateReader.DeltaReads reads = reader.deltaReads(seqs);
                for (int i = first; i < seqs.length; i++) {
                    DeltaRecord read = reads.read(i);
                    DeltaRecord alone = oneByOne.readDelta(seqs[i]);
                    assertEquals(alone.prevSeq, read.prevSeq, "delta " + seqs[i]);
                    assertEquals(alone.controllerEpoch, read.controllerEpoch, "delta " + seqs[i]);
                }
                assertEquals(1, reader.deltasReadAhead(), "the first new delta came with the list");
                DeltaRecord again = reader.deltaReads(seqs).read(first);
                assertEquals(oneByOne.readDelta(last + 1).prevSeq, again.prevSeq, "asked of ZooKeeper once used");
                assertEquals(1, reader.deltasReadAhead());
            }
        }
    }

    @Test
    void shouldReadDeltasWithoutASnapshotInOneRoundAndWatchForTheHead() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            ClusterController controller = controller(cluster);
            controller.createTopic("t0", 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
            CuratorFramework client = cluster.client();
            List<String> waitedFor = new CopyOnWriteArrayList<>();
            Thread reading = Thread.currentThread();
            client.getZookeeperClient().setTracerDriver(new TracerDriver() {
                @Override
                public void addTrace(String name, long time, TimeUnit unit) {
                    if (Thread.currentThread() == reading) {
                        waitedFor.add(name);
                    }
                }

                @Override
                public void addCount(String name, int increment) {}
            });
            try (StateReader reader = new StateReader(client, cluster.config)) {
                Events events = new Events();
                StateReader.HeadAndDeltas read = reader.readHeadAndDeltas(events, 1);
                assertNull(read.head(), "no snapshot was written");
                assertTrue(read.deltas().length > 0);
                assertEquals(
                        List.of(),
                        waitedFor.stream()
                                .filter(n -> n.endsWith("-Foreground"))
                                .toList(),
                        "a missing head is not read again");

                controller.writeSnapshotNow().get(60, TimeUnit.SECONDS);
                events.awaitEvent(Watcher.Event.EventType.NodeCreated, ZkPaths.STATE_HEAD);
                assertNotNull(reader.readHeadAndDeltas(events).head());
            } finally {
                client.getZookeeperClient().setTracerDriver(new DefaultTracerDriver());
            }
        }
    }

    @Test
    void shouldReadNothingAndWatchForTheStateBeforeAnyIsWritten() throws Exception {
        try (TestingServer server = ZkTesting.server(dir);
                CuratorFramework client = ZkTesting.client(server.getConnectString());
                StateReader reader = new StateReader(client, ZkTesting.config())) {
            Events events = new Events();
            StateReader.HeadAndDeltas nothing = reader.readHeadAndDeltas(events);
            assertNull(nothing.head());
            assertEquals(0, nothing.deltas().length);

            client.create().creatingParentsIfNeeded().forPath(ZkPaths.STATE);
            WatchedEvent created = events.next();
            assertEquals(Watcher.Event.EventType.NodeCreated, created.getType());
            assertEquals(ZkPaths.STATE, created.getPath());
        }
    }

    @Test
    void shouldReadDeltasInWindowsAsOneByOneInAnyOrderAndAGoneOneAsNull() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            ClusterController controller = controller(cluster);
            for (int t = 0; t < 40; t++) { // more than one window of reads asked together
                controller.createTopic("t" + t, 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
            }
            CuratorFramework client = cluster.client();
            try (StateReader reader = new StateReader(client, cluster.config);
                    StateReader oneByOne = new StateReader(client, cluster.config)) {
                long[] seqs = reader.listDeltas(null);
                assertTrue(seqs.length >= 40, "deltas listed: " + seqs.length);
                long gone = seqs[seqs.length - 3];
                client.delete().forPath(ZkPaths.STATE + "/" + ZkPaths.deltaName(gone));

                StateReader.DeltaReads reads = reader.deltaReads(seqs);
                int[] order = new int[seqs.length];
                for (int i = 0; i < seqs.length; i++) { // the second half first, then the first half
                    order[i] = (i + seqs.length / 2) % seqs.length;
                }
                for (int i : order) {
                    DeltaRecord together = reads.read(i);
                    DeltaRecord alone = oneByOne.readDelta(seqs[i]);
                    if (seqs[i] == gone) {
                        assertNull(together, "delta " + gone + " was deleted");
                        assertNull(alone);
                    } else {
                        assertNotNull(together, "delta " + seqs[i]);
                        assertEquals(alone.prevSeq, together.prevSeq, "delta " + seqs[i]);
                        assertEquals(alone.controllerEpoch, together.controllerEpoch, "delta " + seqs[i]);
                    }
                }
                assertEquals(oneByOne.bytesRead(), reader.bytesRead(), "the same bytes read either way");
                assertThrows(IndexOutOfBoundsException.class, () -> reads.read(seqs.length));
            }
        }
    }

    @Test
    void shouldRefuseASnapshotWhoseManifestDeclaresPartsThatDoNotExist() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            ClusterController controller = snapshotted(cluster, 3);
            try (StateReader reader = new StateReader(cluster.client(), cluster.config)) {
                SnapshotManifest head = reader.readHead(null);
                assertTrue(reader.readSnapshot(head).sameContent(controller.state()));
                SnapshotManifest forged = new SnapshotManifest(
                        head.snapshotId(),
                        head.controllerEpoch(),
                        head.lastDeltaSeq(),
                        Integer.MAX_VALUE,
                        head.totalLength(),
                        head.streamCrc(),
                        head.compression());
                CorruptStateException refused =
                        assertThrows(CorruptStateException.class, () -> reader.readSnapshot(forged));
                String missing = ZkPaths.snapshotPart(head.snapshotId(), head.partCount());
                assertTrue(
                        refused.getMessage().contains(missing + ": missing, manifest declares " + Integer.MAX_VALUE),
                        refused.getMessage());
            }
        }
    }
}
