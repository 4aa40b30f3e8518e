package io.sluice.cluster.state.wire;

import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.CorruptStateException;
import io.sluice.codec.CodecConfig;
import io.sluice.codec.compress.Compression;
import io.sluice.codec.compress.GrowableBytes;
import io.sluice.codec.compress.StateCodec;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import io.sluice.codec.part.AssembledStream;
import io.sluice.codec.part.PartAssembler;
import io.sluice.codec.part.PartSplitter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Turns cluster-state records into znode bytes and back. Snapshots and deltas are streamed through sluice-codec's
 * {@link StateCodec} straight into a {@link PartSplitter} (no uncompressed copy; each part carries its own CRC-32C);
 * a broker registration is a plain uncompressed {@link BrokerRecord}. Every decoding failure is a
 * {@link CorruptStateException} naming what was read.
 *
 * <p>Owns one StateCodec (native compressors, ended by {@link #close()}). Not thread-safe; one per controller or
 * follower.
 */
public final class StateSerializer implements AutoCloseable {
    /** Coalescing chunk between the message writer and the compressor. */
    private static final int CHUNK_BYTES = 16 << 10;

    private static final int BROKER_RECORD_CHUNK = 512;

    private final Compression compression;
    private final StateCodec codec;
    private final PartAssembler snapshotAssembler;
    private final PartAssembler deltaAssembler;
    /** Cuts every encoded snapshot and delta into parts; its scratch (at most one part) is kept between them. */
    private final PartSplitter splitter;

    /**
     * @param partBytes     largest part written, header included
     * @param maxParts      most parts a snapshot may declare when read
     * @param maxStateBytes most compressed bytes a snapshot may declare when read
     */
    public StateSerializer(Compression compression, int partBytes, int maxParts, int maxStateBytes) {
        this.compression = compression;
        this.codec = new StateCodec(StateMessages.REGISTRY, CodecConfig.DEFAULT, CHUNK_BYTES);
        this.snapshotAssembler = new PartAssembler(maxParts, maxStateBytes);
        this.deltaAssembler = new PartAssembler(1, partBytes);
        this.splitter = new PartSplitter(partBytes);
    }

    /** A compressed snapshot, cut into parts of at most {@code partBytes}. */
    public EncodedSnapshot encodeSnapshot(SnapshotRecord snapshot) {
        long uncompressed = compress(snapshot);
        return new EncodedSnapshot(splitter.finish(compression), uncompressed);
    }

    /**
     * A compressed delta as one znode's bytes, or {@code null} when it does not fit one part (the caller then
     * publishes it through a snapshot).
     */
    public byte[] encodeDelta(DeltaRecord delta) {
        compress(delta);
        List<byte[]> parts = splitter.finish(compression);
        return parts.size() == 1 ? parts.get(0) : null;
    }

    /** Streams {@code message} into {@link #splitter}; a failure leaves it empty for the next one. */
    private long compress(Message message) {
        try {
            return codec.compress(message, compression, splitter);
        } catch (RuntimeException e) {
            splitter.discard();
            throw e;
        }
    }

    /** Decodes the snapshot {@code manifest} describes from its parts (in any order). */
    public SnapshotRecord decodeSnapshot(SnapshotManifest manifest, List<byte[]> parts) {
        String what = "snapshot " + manifest.snapshotId();
        try {
            AssembledStream stream = snapshotAssembler.assemble(parts);
            if (stream.payloads().size() != manifest.partCount()
                    || stream.totalLength() != manifest.totalLength()
                    || stream.compression() != manifest.compression()) {
                throw new CorruptStateException(
                        what + ": parts hold " + stream.payloads().size() + " parts, "
                                + stream.totalLength() + " bytes, " + stream.compression() + "; manifest says "
                                + manifest.partCount() + " parts, " + manifest.totalLength() + " bytes, "
                                + manifest.compression());
            }
            if (crcOf(stream) != manifest.streamCrc()) {
                throw new CorruptStateException(what + ": stream checksum differs from the manifest's 0x"
                        + Integer.toHexString(manifest.streamCrc()));
            }
            Message m = codec.decompress(stream.compression(), stream.payloads());
            SnapshotRecord s = expect(m, SnapshotRecord.class, what);
            validate(s, what);
            return s;
        } catch (CodecException | ClassCastException e) {
            throw new CorruptStateException(what + ": " + e.getMessage(), e);
        }
    }

    /** Decodes one delta znode. */
    public DeltaRecord decodeDelta(long seq, byte[] bytes) {
        String what = "delta " + seq;
        try {
            AssembledStream stream = deltaAssembler.assemble(List.of(bytes == null ? new byte[0] : bytes));
            DeltaRecord d = expect(codec.decompress(stream.compression(), stream.payloads()), DeltaRecord.class, what);
            validate(d, what);
            return d;
        } catch (CodecException | ClassCastException e) {
            throw new CorruptStateException(what + ": " + e.getMessage(), e);
        }
    }

    /** The bytes of a broker's registration znode. */
    public static byte[] encodeBroker(BrokerInfo info) {
        BrokerRecord r = BrokerRecord.of(info);
        GrowableBytes out = new GrowableBytes("broker record", BROKER_RECORD_CHUNK, 1 << 20);
        try (MessageWriter w = new MessageWriter()) {
            ByteBuffer chunk = ByteBuffer.allocate(BROKER_RECORD_CHUNK);
            boolean done;
            do {
                chunk.clear();
                w.setBuffer(chunk);
                done = w.write(r);
                chunk.flip();
                out.write(chunk);
            } while (!done);
        }
        return out.toByteArray();
    }

    /** Decodes a broker's registration znode. */
    public static BrokerInfo decodeBroker(String path, byte[] bytes) {
        try (MessageReader reader = new MessageReader(StateMessages.REGISTRY)) {
            ByteBuffer b = ByteBuffer.wrap(bytes == null ? new byte[0] : bytes);
            reader.setBuffer(b);
            Message m = reader.read();
            if (m == null) {
                throw new CorruptStateException(path + ": broker record truncated after " + b.position() + " bytes");
            }
            if (b.hasRemaining()) {
                throw new CorruptStateException(path + ": " + b.remaining() + " bytes follow the broker record");
            }
            BrokerRecord r = expect(m, BrokerRecord.class, path);
            return r.toInfo();
        } catch (CodecException | IllegalArgumentException e) {
            throw new CorruptStateException(path + ": " + e.getMessage(), e);
        }
    }

    private static int crcOf(AssembledStream stream) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        for (ByteBuffer b : stream.payloads()) {
            crc.update(b.duplicate());
        }
        return (int) crc.getValue();
    }

    private static <T extends Message> T expect(Message m, Class<T> type, String what) {
        if (!type.isInstance(m)) {
            throw new CorruptStateException(what + ": holds a " + StateMessages.REGISTRY.name(m.typeId())
                    + ", expected " + type.getSimpleName());
        }
        return type.cast(m);
    }

    private static void validate(SnapshotRecord s, String what) {
        requireElements(s.brokers, BrokerRecord.class, what + " brokers");
        requireElements(s.topics, TopicRecord.class, what + " topics");
    }

    private static void validate(DeltaRecord d, String what) {
        requireElements(d.joined, BrokerRecord.class, what + " joined");
        requireElements(d.createdTopics, TopicRecord.class, what + " createdTopics");
        requireElements(d.partitionChanges, PartitionChangeRecord.class, what + " partitionChanges");
        requireElements(d.addedPartitions, PartitionChangeRecord.class, what + " addedPartitions");
        if (d.left == null
                || d.deletedTopics == null
                || d.deletedTopics.stream().anyMatch(java.util.Objects::isNull)) {
            throw new CorruptStateException(what + ": null left or deletedTopics");
        }
    }

    private static void requireElements(List<?> list, Class<?> type, String what) {
        if (list == null) {
            throw new CorruptStateException(what + ": null list");
        }
        for (Object o : list) {
            if (!type.isInstance(o)) {
                throw new CorruptStateException(what + ": element "
                        + (o == null ? "null" : o.getClass().getSimpleName()) + ", expected " + type.getSimpleName());
            }
        }
    }

    @Override
    public void close() {
        codec.close();
    }

    /**
     * An encoded snapshot. Immutable holder.
     *
     * @param parts             part bytes, index order
     * @param uncompressedBytes size of the serialized state before compression
     */
    public record EncodedSnapshot(List<byte[]> parts, long uncompressedBytes) {
        public int compressedBytes() {
            int n = 0;
            for (byte[] p : parts) {
                n += p.length;
            }
            return n;
        }
    }
}
