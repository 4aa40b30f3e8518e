package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFixtures.LEADER_EPOCH;
import static io.sluice.broker.move.MoveFixtures.PARTITION;
import static io.sluice.broker.move.MoveFixtures.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.move.MoveFixtures.Source;
import io.sluice.broker.network.ApiRegistry;
import io.sluice.broker.network.MoveSourceHandler;
import io.sluice.codec.message.Message;
import io.sluice.log.PartitionLog;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every parser the move adds ends bad input in a typed error naming the field, never a large allocation. */
class MoveParserGarbageTest {
    @TempDir
    Path root;

    private final MoveCodec codec = new MoveCodec();

    private static MoveSegmentList listing() {
        MoveSegmentList list = new MoveSegmentList();
        list.transferId = 42;
        list.logStartOffset = 10;
        list.boundaryOffset = 500;
        list.segmentBaseOffsets = new long[] {10, 200, 350};
        list.segmentLastOffsets = new long[] {199, 349, 499};
        list.segmentSizes = new int[] {8000, 7000, 6000};
        list.epochs = new int[] {0, 3};
        list.epochStartOffsets = new long[] {10, 300};
        list.producerSnapshotOffset = 500;
        list.producerSnapshotSize = 120;
        return list;
    }

    private static List<Message> samples() {
        MoveChunkHeader header = new MoveChunkHeader();
        header.transferId = 42;
        header.fileOffset = 200;
        header.position = 4096;
        header.length = 4096;
        header.crc32c = 0x1234_5678;
        MoveChunkHeader error = new MoveChunkHeader();
        error.errorCode = 70;
        error.errorMessage = "no transfer 42 here";
        return List.of(
                new MoveOpenRequest(42, TOPIC, PARTITION, LEADER_EPOCH),
                listing(),
                new MoveChunkRequest().set(42, MoveMessages.FILE_SEGMENT, 200, 4096, 4096),
                header,
                error,
                new MoveCloseRequest(42, true),
                new MoveCloseResponse());
    }

    @Test
    void shouldNameTruncationAndTrailingBytesOfEveryMessage() {
        for (Message sample : samples()) {
            ByteBuffer whole = codec.encode(sample);
            for (int length = 0; length < whole.remaining(); length++) {
                ByteBuffer prefix = whole.duplicate().limit(length);
                MoveProtocolException e = assertThrows(
                        MoveProtocolException.class,
                        () -> codec.decode(prefix, sample.getClass(), "sample"),
                        sample + " cut at " + length);
                assertEquals("sample", e.field());
            }
            ByteBuffer longer = ByteBuffer.allocate(whole.remaining() + 1)
                    .put(whole.duplicate())
                    .put((byte) 7)
                    .flip();
            MoveProtocolException trailing =
                    assertThrows(MoveProtocolException.class, () -> codec.decode(longer, sample.getClass(), "sample"));
            assertTrue(trailing.getMessage().contains("1 trailing bytes"), trailing.getMessage());
            assertEquals(
                    sample.getClass(),
                    codec.decode(whole.duplicate(), sample.getClass(), "sample").getClass());
        }
    }

    @Test
    void shouldEndRandomGarbageInTypedErrors() {
        SplittableRandom random = new SplittableRandom(20261125L);
        List<Message> samples = samples();
        for (int i = 0; i < 50_000; i++) {
            byte[] bytes;
            if (i % 2 == 0) {
                bytes = new byte[random.nextInt(120)];
                for (int b = 0; b < bytes.length; b++) {
                    bytes[b] = (byte) random.nextInt(256);
                }
            } else {
                // mutate a valid encoding: garbage that gets further into the fields
                ByteBuffer valid = codec.encode(samples.get(random.nextInt(samples.size())));
                bytes = new byte[valid.remaining()];
                valid.get(bytes);
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                }
            }
            try {
                Message decoded = codec.decode(ByteBuffer.wrap(bytes), Message.class, "garbage");
                validateIfItCan(decoded);
            } catch (MoveProtocolException expected) {
                assertFalse(expected.field().isEmpty());
            }
        }
    }

    private static void validateIfItCan(Message decoded) {
        if (decoded instanceof MoveSegmentList list) {
            list.validate();
        } else if (decoded instanceof MoveOpenRequest open) {
            open.validate();
        } else if (decoded instanceof MoveChunkRequest chunk) {
            chunk.validate();
        } else if (decoded instanceof MoveChunkHeader header) {
            header.validateAgainst(new MoveChunkRequest().set(42, MoveMessages.FILE_SEGMENT, 200, 4096, 4096));
        }
    }

    @Test
    void shouldRefuseForgedArrayLengthWithoutAllocatingIt() {
        ByteBuffer forged = ByteBuffer.allocate(32);
        putUvarint(forged, MoveMessages.SEGMENT_LIST + 1L);
        putUvarint(forged, 0); // version
        forged.putShort((short) 0); // errorCode
        putUvarint(forged, 0); // errorMessage: null
        putUvarint(forged, 0); // transferId
        putUvarint(forged, 0); // logStartOffset
        putUvarint(forged, 0); // boundaryOffset
        putUvarint(forged, (1L << 31) + 1); // segmentBaseOffsets: 2^31 elements claimed
        putUvarint(forged, 2); // one element present
        forged.flip();
        MoveProtocolException e =
                assertThrows(MoveProtocolException.class, () -> codec.decode(forged, MoveSegmentList.class, "listing"));
        assertTrue(e.getMessage().contains("long array length"), e.getMessage());
    }

    private static void putUvarint(ByteBuffer buffer, long value) {
        while ((value & ~0x7FL) != 0) {
            buffer.put((byte) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        buffer.put((byte) value);
    }

    @Test
    void shouldNameTheInconsistentFieldOfASegmentList() {
        MoveSegmentList sizes = listing();
        sizes.segmentSizes = new int[] {1, 2};
        assertEquals(
                "MoveSegmentList.segmentLastOffsets/segmentSizes",
                assertThrows(MoveProtocolException.class, sizes::validate).field());
        MoveSegmentList overlapping = listing();
        overlapping.segmentBaseOffsets[1] = 150;
        assertEquals(
                "MoveSegmentList.segments[1]",
                assertThrows(MoveProtocolException.class, overlapping::validate).field());
        MoveSegmentList epochs = listing();
        epochs.epochs = new int[] {3, 1};
        assertEquals(
                "MoveSegmentList.epochs[1]",
                assertThrows(MoveProtocolException.class, epochs::validate).field());
        MoveSegmentList snapshot = listing();
        snapshot.producerSnapshotSize = Long.MAX_VALUE;
        assertEquals(
                "MoveSegmentList.producerSnapshot",
                assertThrows(MoveProtocolException.class, snapshot::validate).field());
        MoveChunkHeader tooLong = new MoveChunkHeader();
        tooLong.transferId = 42;
        tooLong.fileOffset = 200;
        tooLong.position = 4096;
        tooLong.length = 1 << 30;
        assertEquals(
                "MoveChunkHeader.length",
                assertThrows(
                                MoveProtocolException.class,
                                () -> tooLong.validateAgainst(
                                        new MoveChunkRequest().set(42, MoveMessages.FILE_SEGMENT, 200, 4096, 4096)))
                        .field());
    }

    @Test
    void shouldCheckResponseFrameLengthsBeforeAllocating() {
        assertEquals(
                "move response headerLength",
                assertThrows(MoveProtocolException.class, () -> MoveConnection.checkResponseLengths(100, -1))
                        .field());
        assertEquals(
                "move response headerLength",
                assertThrows(
                                MoveProtocolException.class,
                                () -> MoveConnection.checkResponseLengths(Integer.MAX_VALUE, Integer.MAX_VALUE))
                        .field());
        assertEquals(
                "move response size",
                assertThrows(MoveProtocolException.class, () -> MoveConnection.checkResponseLengths(10, 100))
                        .field());
        MoveConnection.checkResponseLengths(8 + 100 + 4096, 100);
    }

    @Test
    void shouldRefuseEveryDamagedManifest() throws IOException {
        Path file = root.resolve("manifest");
        StagingManifest.write(file, listing(), codec);
        byte[] valid = Files.readAllBytes(file);
        assertEquals(500, StagingManifest.read(file, codec).boundaryOffset);
        for (int length = 0; length < valid.length; length++) {
            Files.write(file, java.util.Arrays.copyOf(valid, length));
            MoveProtocolException e =
                    assertThrows(MoveProtocolException.class, () -> StagingManifest.read(file, codec));
            assertTrue(e.field().startsWith("manifest"), e.field());
        }
        for (int at = 0; at < valid.length; at++) {
            byte[] flipped = valid.clone();
            flipped[at] ^= 0x40;
            Files.write(file, flipped);
            MoveProtocolException e =
                    assertThrows(MoveProtocolException.class, () -> StagingManifest.read(file, codec), "byte " + at);
            assertTrue(e.field().startsWith("manifest"), e.field());
        }
        byte[] forged = valid.clone();
        ByteBuffer.wrap(forged).putInt(StagingManifestDescriptor.LENGTH_OFFSET, Integer.MAX_VALUE);
        Files.write(file, forged);
        assertEquals(
                "manifest.length",
                assertThrows(MoveProtocolException.class, () -> StagingManifest.read(file, codec))
                        .field());
    }

    @Test
    void shouldCloseTheConnectionOnAGarbageFrameAndKeepServing() throws Exception {
        try (PartitionLog source = MoveFixtures.sourceLog(root.resolve("source").resolve(TOPIC + "-" + PARTITION));
                Source server = Source.start(source);
                PartitionLog target =
                        MoveFixtures.openLog(root.resolve("target").resolve(TOPIC + "-" + PARTITION))) {
            byte[][] frames = {
                frame(MoveFrameDescriptor.VERSION, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F
                }),
                frame((short) 9, codecBytes(new MoveCloseRequest(1, false))),
                frame(MoveFrameDescriptor.VERSION, codecBytes(new MoveCloseResponse())),
                frame(MoveFrameDescriptor.VERSION, new byte[0]),
            };
            for (byte[] bad : frames) {
                try (Socket socket = new Socket(
                        server.address().getAddress(), server.address().getPort())) {
                    new DataOutputStream(socket.getOutputStream()).write(bad);
                    DataInputStream in = new DataInputStream(socket.getInputStream());
                    assertThrows(EOFException.class, in::readInt, "the connection is closed, nothing answered");
                }
            }
            assertFalse(new ApiRegistry()
                            .registerPrivate(MoveFrameDescriptor.API_KEY, new MoveSourceHandler(server.source))
                            .advertisedVersions()
                            .stream()
                            .anyMatch(v -> v.apiKey() == MoveFrameDescriptor.API_KEY));
            new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED)
                    .bootstrap(
                            target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, new TransferProgress());
            assertTrue(target.logEndOffset() > 0);
        }
    }

    private byte[] codecBytes(Message message) {
        ByteBuffer bytes = codec.encode(message);
        byte[] array = new byte[bytes.remaining()];
        bytes.get(array);
        return array;
    }

    private static byte[] frame(short version, byte[] message) {
        ByteBuffer frame = ByteBuffer.allocate(MoveFrameDescriptor.REQUEST_MESSAGE_OFFSET + message.length);
        frame.putInt(MoveFrameDescriptor.REQUEST_MESSAGE_OFFSET - MoveFrameDescriptor.SIZE_LENGTH + message.length)
                .putShort(MoveFrameDescriptor.API_KEY)
                .putShort(version)
                .putInt(1)
                .put(message);
        return frame.array();
    }
}
