package io.sluice.broker.move;

import io.sluice.codec.error.CodecException;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.nio.ByteBuffer;

/**
 * Encodes and decodes the partition-move messages with the resumable codec; every decode failure becomes a
 * {@link MoveProtocolException} naming what was read. Not thread-safe; one per connection or thread.
 */
final class MoveCodec {
    private static final int INITIAL_BYTES = 256;

    private final MessageWriter writer = new MessageWriter();
    private final MessageReader reader = new MessageReader(MoveMessages.REGISTRY);

    /** The encoding of {@code message} in a new heap buffer, flipped for reading. */
    ByteBuffer encode(Message message) {
        ByteBuffer out = ByteBuffer.allocate(INITIAL_BYTES);
        writer.reset();
        writer.setBuffer(out);
        while (!writer.write(message)) {
            ByteBuffer bigger = ByteBuffer.allocate(out.capacity() * 2);
            out.flip();
            bigger.put(out);
            out = bigger;
            writer.setBuffer(out);
        }
        return out.flip();
    }

    /**
     * Decodes exactly one message of {@code type} from every remaining byte of {@code bytes}.
     *
     * @throws MoveProtocolException naming {@code what} when the bytes are truncated, trailing, malformed or of
     *                               another type
     */
    <T extends Message> T decode(ByteBuffer bytes, Class<T> type, String what) {
        int length = bytes.remaining();
        Message message;
        reader.reset();
        try {
            reader.setBuffer(bytes);
            message = reader.read();
        } catch (CodecException e) {
            reader.reset();
            throw new MoveProtocolException(what, "is malformed: " + e.getMessage(), e);
        }
        if (message == null) {
            reader.reset();
            throw new MoveProtocolException(what, "is truncated: " + length + " bytes end inside the message");
        }
        if (bytes.hasRemaining()) {
            throw new MoveProtocolException(what, "has " + bytes.remaining() + " trailing bytes after " + message);
        }
        if (!type.isInstance(message)) {
            throw new MoveProtocolException(
                    what,
                    "is a " + MoveMessages.REGISTRY.name(message.typeId()) + ", expected " + type.getSimpleName());
        }
        return type.cast(message);
    }
}
