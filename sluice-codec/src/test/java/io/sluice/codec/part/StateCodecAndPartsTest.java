package io.sluice.codec.part;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import io.sluice.codec.CodecConfig;
import io.sluice.codec.compress.Compression;
import io.sluice.codec.compress.StateCodec;
import io.sluice.codec.error.ChecksumMismatchException;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.error.TruncatedInputException;
import io.sluice.codec.message.Chunks;
import io.sluice.codec.message.MessageWriter;
import io.sluice.codec.sample.ClusterFixtures;
import io.sluice.codec.sample.ClusterMessages;
import io.sluice.codec.sample.PartitionMap;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StateCodecAndPartsTest {
    private static final PartitionMap STATE = ClusterFixtures.partitionMap(30, 3000, 21);

    private static byte[] uncompressed(PartitionMap m) {
        try (MessageWriter w = new MessageWriter()) {
            return Chunks.write(w, m, 1 << 20, false);
        }
    }

    @Test
    void shouldProduceStandardZlibAndZstdFramesOfTheMessageEncoding() throws IOException {
        byte[] plain = uncompressed(STATE);
        try (StateCodec codec = new StateCodec(ClusterMessages.REGISTRY)) {
            byte[] zlib = codec.compress(STATE, Compression.ZLIB);
            byte[] inflated = new InflaterInputStream(new ByteArrayInputStream(zlib)).readAllBytes();
            assertArrayEquals(plain, inflated, "JDK InflaterInputStream reads the zlib stream");
            byte[] zstd = codec.compress(STATE, Compression.ZSTD);
            assertArrayEquals(plain, Zstd.decompress(zstd, plain.length), "zstd-jni one-shot reads the frame");
            assertTrue(zlib.length < plain.length / 2 && zstd.length < plain.length / 2);
            assertEquals(STATE, codec.decompress(Compression.ZLIB, zlib));
            assertEquals(STATE, codec.decompress(Compression.ZSTD, zstd));
        }
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void shouldSplitAndReassembleWithPartsAtTheLimitAndOneEitherSide(Compression compression) {
        try (StateCodec codec = new StateCodec(ClusterMessages.REGISTRY, CodecConfig.DEFAULT, 512)) {
            byte[] whole = codec.compress(STATE, compression);
            int payloadPerPart = 1000;
            int limit = PartDescriptor.HEADER_LENGTH + payloadPerPart;
            int exactParts = (whole.length + payloadPerPart - 1) / payloadPerPart;
            int exactLimit = PartDescriptor.HEADER_LENGTH
                    + (whole.length / exactParts)
                    + (whole.length % exactParts == 0 ? 0 : 1);
            for (int l : new int[] {
                limit - 1,
                limit,
                limit + 1,
                exactLimit - 1,
                exactLimit,
                exactLimit + 1,
                PartDescriptor.HEADER_LENGTH + whole.length,
                PartDescriptor.HEADER_LENGTH + whole.length - 1,
                PartDescriptor.HEADER_LENGTH + whole.length + 1
            }) {
                PartSplitter splitter = new PartSplitter(l);
                codec.compress(STATE, compression, splitter);
                List<byte[]> parts = splitter.finish(compression);
                int expectedParts =
                        (whole.length + (l - PartDescriptor.HEADER_LENGTH) - 1) / (l - PartDescriptor.HEADER_LENGTH);
                assertEquals(expectedParts, parts.size(), "limit " + l);
                for (byte[] p : parts) {
                    assertTrue(p.length <= l, "part of " + p.length + " over limit " + l);
                }
                List<byte[]> shuffled = new ArrayList<>(parts);
                Collections.shuffle(shuffled, new Random(l));
                AssembledStream s = new PartAssembler(10_000, 1 << 30).assemble(shuffled);
                assertEquals(compression, s.compression());
                assertEquals(whole.length, s.totalLength());
                assertEquals(STATE, codec.decompress(s.compression(), s.payloads()), "limit " + l);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void shouldGiveTheSamePartsWhenOneSplitterIsReusedAfterStreamsLargeSmallAndAbandoned(Compression compression) {
        PartitionMap small = ClusterFixtures.partitionMap(2, 10, 5);
        int limit = 4096;
        try (StateCodec codec = new StateCodec(ClusterMessages.REGISTRY, CodecConfig.DEFAULT, 512)) {
            PartSplitter reused = new PartSplitter(limit);
            for (PartitionMap state : List.of(STATE, small, STATE)) {
                PartSplitter fresh = new PartSplitter(limit);
                codec.compress(state, compression, fresh);
                List<byte[]> expected = fresh.finish(compression);

                reused.write(new byte[] {1, 2, 3}, 0, 3); // a stream that failed midway
                reused.discard();
                codec.compress(state, compression, reused);
                List<byte[]> parts = reused.finish(compression);

                assertEquals(expected.size(), parts.size());
                for (int i = 0; i < parts.size(); i++) {
                    assertArrayEquals(expected.get(i), parts.get(i), "part " + i);
                }
                AssembledStream s = new PartAssembler(10_000, 1 << 30).assemble(parts);
                assertEquals(state, codec.decompress(s.compression(), s.payloads()));
            }
            List<byte[]> empty = reused.finish(compression);
            assertEquals(1, empty.size());
            assertEquals(PartDescriptor.HEADER_LENGTH, empty.get(0).length);
            assertEquals(0, new PartAssembler(1, limit).assemble(empty).totalLength());
        }
    }

    private static List<byte[]> parts(int limit) {
        try (StateCodec codec = new StateCodec(ClusterMessages.REGISTRY)) {
            PartSplitter splitter = new PartSplitter(limit);
            codec.compress(STATE, Compression.ZSTD, splitter);
            return splitter.finish(Compression.ZSTD);
        }
    }

    @Test
    void shouldRejectCorruptMissingDuplicateAndTruncatedParts() {
        List<byte[]> good = parts(4096);
        assertTrue(good.size() >= 3);
        PartAssembler assembler = new PartAssembler(100, 1 << 24);

        List<byte[]> flipped = copy(good);
        flipped.get(1)[PartDescriptor.PAYLOAD_OFFSET + 7] ^= 1;
        ChecksumMismatchException crc =
                assertThrows(ChecksumMismatchException.class, () -> assembler.assemble(flipped));
        assertTrue(crc.getMessage().contains("state part 1"), crc.getMessage());

        List<byte[]> missing = copy(good);
        missing.remove(2);
        assertThrows(TruncatedInputException.class, () -> assembler.assemble(missing));

        List<byte[]> duplicate = copy(good);
        duplicate.set(2, duplicate.get(1));
        MalformedInputException dup = assertThrows(MalformedInputException.class, () -> assembler.assemble(duplicate));
        assertTrue(dup.getMessage().contains("twice"), dup.getMessage());

        List<byte[]> truncated = copy(good);
        truncated.set(0, Arrays.copyOf(truncated.get(0), 10));
        assertThrows(TruncatedInputException.class, () -> assembler.assemble(truncated));

        List<byte[]> shortened = copy(good);
        shortened.set(1, Arrays.copyOf(shortened.get(1), shortened.get(1).length - 1));
        assertThrows(ChecksumMismatchException.class, () -> assembler.assemble(shortened));

        List<byte[]> forgedCount = copy(good);
        java.nio.ByteBuffer.wrap(forgedCount.get(0)).putInt(PartDescriptor.COUNT_OFFSET, Integer.MAX_VALUE);
        assertThrows(LimitExceededException.class, () -> assembler.assemble(forgedCount));

        List<byte[]> badMagic = copy(good);
        badMagic.get(0)[PartDescriptor.MAGIC_OFFSET] = 0;
        assertThrows(MalformedInputException.class, () -> assembler.assemble(badMagic));
    }

    @Test
    void shouldEndGarbageAndMutatedFramesInTypedErrors() {
        Random rnd = new Random(3);
        try (StateCodec codec = new StateCodec(ClusterMessages.REGISTRY, CodecConfig.DEFAULT, 1024)) {
            for (Compression c : Compression.values()) {
                byte[] good = codec.compress(ClusterFixtures.partitionMap(3, 40, 1), c);
                for (int i = 0; i < 400; i++) {
                    byte[] bad = i % 2 == 0 ? Arrays.copyOf(good, rnd.nextInt(good.length)) : good.clone();
                    if (i % 2 == 1) {
                        bad[rnd.nextInt(bad.length)] ^= (byte) (1 + rnd.nextInt(255));
                    }
                    byte[] input = bad;
                    try {
                        codec.decompress(c, input);
                    } catch (CodecException expected) {
                        // typed error: fine
                    }
                }
                byte[] garbage = new byte[300];
                rnd.nextBytes(garbage);
                assertThrows(CodecException.class, () -> codec.decompress(c, garbage));
                byte[] trailing = Arrays.copyOf(good, good.length + 3);
                MalformedInputException e =
                        assertThrows(MalformedInputException.class, () -> codec.decompress(c, trailing));
                assertTrue(e.getMessage().contains("follow"), e.getMessage());
            }
        }
    }

    @Test
    void shouldStopInflatingAtTheConfiguredCap() {
        byte[] zlib;
        try (StateCodec codec = new StateCodec(ClusterMessages.REGISTRY)) {
            zlib = codec.compress(STATE, Compression.ZLIB);
        }
        try (StateCodec capped = new StateCodec(
                ClusterMessages.REGISTRY, CodecConfig.DEFAULT.withMaxUncompressedFieldBytes(50_000), 4096)) {
            assertThrows(LimitExceededException.class, () -> capped.decompress(Compression.ZLIB, zlib));
        }
    }

    private static List<byte[]> copy(List<byte[]> parts) {
        List<byte[]> out = new ArrayList<>();
        for (byte[] p : parts) {
            out.add(p.clone());
        }
        return out;
    }
}
