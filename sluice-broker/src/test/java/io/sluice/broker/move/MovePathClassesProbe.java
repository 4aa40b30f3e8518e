package io.sluice.broker.move;

/**
 * A top-level Sluice class whose static initializer records, in {@link MovePathClassesTest#PROBE_INITIALIZED}, that it
 * ran (a field of its own could not tell: reading it would initialize this class).
 */
final class MovePathClassesProbe {
    static {
        MovePathClassesTest.PROBE_INITIALIZED.set(true);
    }

    private MovePathClassesProbe() {}
}
