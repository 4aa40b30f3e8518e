package io.sluice.broker.move;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** {@link MovePathClasses}: its list loads on this JVM, preloading links without initializing, and ends. */
class MovePathClassesTest {
    /** Set by {@link Initialized}'s static initializer: whether something initialized that class. */
    static final AtomicBoolean INITIALIZED = new AtomicBoolean();
    /** Set by {@link MovePathClassesProbe}'s static initializer. */
    static final AtomicBoolean PROBE_INITIALIZED = new AtomicBoolean();

    static final class Initialized {
        static {
            INITIALIZED.set(true);
        }
    }

    @Test
    void everyListedClassLoadsOnThisJvmAndIsListedOnce() throws Exception {
        List<String> names = MovePathClasses.names();
        assertTrue(names.size() > 100, names.size() + " names");
        assertEquals(names.size(), new HashSet<>(names).size(), "a name is listed twice");
        assertTrue(names.contains(MoveTransferClient.class.getName()));
        assertTrue(names.contains(StagedWrites.class.getName()));

        MovePathClasses.Preloaded done = MovePathClasses.preload(names, MovePathClassesTest.class.getClassLoader());

        assertEquals(List.of(), done.missing(), "listed classes this JVM cannot load (renamed or removed?)");
        assertEquals(names.size(), done.linked());
    }

    @Test
    void preloadingInitializesTopLevelSluiceClassesAndOnlyLinksNestedOnes() {
        MovePathClasses.Preloaded done = MovePathClasses.preload(
                List.of(Initialized.class.getName(), MovePathClassesProbe.class.getName()),
                MovePathClassesTest.class.getClassLoader());

        assertEquals(2, done.linked());
        assertFalse(INITIALIZED.get(), "the preload ran a nested class's static initializer");
        assertTrue(PROBE_INITIALIZED.get(), "the preload left a top-level class uninitialized");
        new Initialized();
        assertTrue(INITIALIZED.get());
    }

    @Test
    void onlyTopLevelSluiceClassesAreInitialized() {
        assertTrue(MovePathClasses.initializes("io.sluice.broker.move.StagedWrites"));
        assertFalse(MovePathClasses.initializes("io.sluice.broker.move.ChunkFaultHook$1"));
        assertFalse(MovePathClasses.initializes("org.apache.kafka.common.record.MemoryRecords"));
        assertFalse(MovePathClasses.initializes("java.util.TreeMap"));
    }

    @Test
    void aNameThisJvmLacksIsSkippedAndReported() {
        List<String> names = List.of(
                "io.sluice.broker.move.NoSuchClass", MoveChunkRequest.class.getName(), "not a class name at all");

        MovePathClasses.Preloaded done = MovePathClasses.preload(names, MovePathClassesTest.class.getClassLoader());

        assertEquals(1, done.linked());
        assertEquals(List.of("io.sluice.broker.move.NoSuchClass", "not a class name at all"), done.missing());
    }

    @Test
    void theBackgroundThreadIsADaemonThatEnds() throws Exception {
        Thread thread = MovePathClasses.preloadInBackground();

        assertTrue(thread.isDaemon());
        thread.join(60_000);
        assertFalse(thread.isAlive());
    }
}
