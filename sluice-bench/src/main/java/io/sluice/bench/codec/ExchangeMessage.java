package io.sluice.bench.codec;

import io.sluice.cluster.state.wire.StateMessages;
import io.sluice.cluster.state.wire.TopicRecord;
import io.sluice.codec.compress.Compression;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageRegistry;
import io.sluice.codec.message.MessageWriter;

/**
 * An exchange-style message with two compressed partition maps (the shape of Ignite's partition-exchange messages in
 * the seed's benchmark; each map is sluice-cluster's live {@link TopicRecord}: replicas, leader, epochs and ISR of
 * every partition of a topic), written either through Sluice's compressed fields ({@link CompressedFieldWriter}) or,
 * for the baseline, through {@link NaiveCompressedField} (the seed's "master" way). Mutable; not thread-safe: it holds
 * the compressed-field writer or reader of the thread that writes or reads it.
 */
public final class ExchangeMessage implements Message {
    public static final int TYPE_ID = 901;

    private final CompressedFieldWriter fieldWriter;
    private final CompressedFieldReader fieldReader;

    public int exchangeId;
    public TopicRecord local = new TopicRecord();
    public TopicRecord remote = new TopicRecord();
    /** Baseline only: write compressed bytes produced per field by {@link NaiveCompressedField}. */
    public boolean naive;

    private byte[] naiveLocal;
    private byte[] naiveRemote;

    /** A message to write, its compressed fields through {@code fieldWriter} (null for the baseline only). */
    public ExchangeMessage(CompressedFieldWriter fieldWriter) {
        this(fieldWriter, null);
    }

    private ExchangeMessage(CompressedFieldWriter fieldWriter, CompressedFieldReader fieldReader) {
        this.fieldWriter = fieldWriter;
        this.fieldReader = fieldReader;
    }

    /**
     * The registry of exchange messages (and sluice-cluster's records) whose compressed fields are read through
     * {@code fieldReader}, itself a reader of {@code StateMessages.REGISTRY}.
     */
    public static MessageRegistry registry(CompressedFieldReader fieldReader) {
        return MessageRegistry.builder()
                .registerAll(StateMessages.REGISTRY)
                .register(TYPE_ID, "ExchangeMessage", 0, () -> new ExchangeMessage(null, fieldReader))
                .build();
    }

    @Override
    public int typeId() {
        return TYPE_ID;
    }

    /** Forgets the baseline's compressed bytes, so the next write compresses again (as every send does). */
    public void startWrite() {
        naiveLocal = null;
        naiveRemote = null;
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean writeTo(MessageWriter w) {
        switch (w.state()) {
            case 0:
                if (!w.writeInt(exchangeId)) {
                    return false;
                }
                w.incrementState();
            case 1:
                if (naive) {
                    if (naiveLocal == null) {
                        naiveLocal = NaiveCompressedField.compress(local);
                    }
                    if (!w.writeByteArray(naiveLocal)) {
                        return false;
                    }
                } else if (!fieldWriter.write(w, local, Compression.ZLIB)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (naive) {
                    if (naiveRemote == null) {
                        naiveRemote = NaiveCompressedField.compress(remote);
                    }
                    if (!w.writeByteArray(naiveRemote)) {
                        return false;
                    }
                } else if (!fieldWriter.write(w, remote, Compression.ZLIB)) {
                    return false;
                }
                w.incrementState();
            default:
                return true;
        }
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean readFrom(MessageReader r) {
        switch (r.state()) {
            case 0:
                exchangeId = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 1:
                TopicRecord a = fieldReader.read(r, TopicRecord.class);
                if (!r.isLastRead()) {
                    return false;
                }
                local = a;
                r.incrementState();
            case 2:
                TopicRecord b = fieldReader.read(r, TopicRecord.class);
                if (!r.isLastRead()) {
                    return false;
                }
                remote = b;
                r.incrementState();
            default:
                return true;
        }
    }
}
