package io.sluice.cluster.controller;

import io.sluice.cluster.state.CorruptStateException;
import java.nio.ByteBuffer;

/**
 * Layout of the {@code /controller_epoch} znode (big-endian). Its znode version, not its content, is what every
 * controller write checks; the content tells operators and brokers who the controller is.
 *
 * <pre>
 *  0       2         3         7              11
 *  +-------+---------+---------+--------------+
 *  | magic | version |  epoch  | controllerId |
 *  |   2   |    1    |    4    |      4       |
 *  +-------+---------+---------+--------------+
 * </pre>
 *
 * Stateless.
 */
public final class ControllerEpochDescriptor {
    public static final short MAGIC = (short) 0x4345; // "CE"
    public static final byte VERSION = 0;
    public static final int MAGIC_OFFSET = 0;
    public static final int MAGIC_LENGTH = 2;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
    public static final int VERSION_LENGTH = 1;
    public static final int EPOCH_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
    public static final int EPOCH_LENGTH = 4;
    public static final int CONTROLLER_ID_OFFSET = EPOCH_OFFSET + EPOCH_LENGTH;
    public static final int CONTROLLER_ID_LENGTH = 4;
    public static final int LENGTH = CONTROLLER_ID_OFFSET + CONTROLLER_ID_LENGTH;

    /** Controller id recorded before any controller was elected. */
    public static final int NO_CONTROLLER = -1;

    private ControllerEpochDescriptor() {}

    public static byte[] encode(int epoch, int controllerId) {
        ByteBuffer b = ByteBuffer.allocate(LENGTH);
        b.putShort(MAGIC_OFFSET, MAGIC);
        b.put(VERSION_OFFSET, VERSION);
        b.putInt(EPOCH_OFFSET, epoch);
        b.putInt(CONTROLLER_ID_OFFSET, controllerId);
        return b.array();
    }

    /** Epoch recorded in {@code bytes}; malformed content raises {@link CorruptStateException}. */
    public static int epoch(byte[] bytes) {
        return check(bytes).getInt(EPOCH_OFFSET);
    }

    public static int controllerId(byte[] bytes) {
        return check(bytes).getInt(CONTROLLER_ID_OFFSET);
    }

    private static ByteBuffer check(byte[] bytes) {
        if (bytes == null || bytes.length != LENGTH) {
            throw new CorruptStateException(
                    "/controller_epoch: " + (bytes == null ? 0 : bytes.length) + " bytes, expected " + LENGTH);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.getShort(MAGIC_OFFSET) != MAGIC || b.get(VERSION_OFFSET) != VERSION) {
            throw new CorruptStateException("/controller_epoch: magic 0x"
                    + Integer.toHexString(b.getShort(MAGIC_OFFSET) & 0xFFFF) + " version " + b.get(VERSION_OFFSET)
                    + ", expected 0x" + Integer.toHexString(MAGIC) + " version " + VERSION);
        }
        return b;
    }
}
