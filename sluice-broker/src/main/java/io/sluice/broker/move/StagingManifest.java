package io.sluice.broker.move;

import static io.sluice.broker.move.StagingManifestDescriptor.CRC_OFFSET;
import static io.sluice.broker.move.StagingManifestDescriptor.LENGTH_OFFSET;
import static io.sluice.broker.move.StagingManifestDescriptor.MAX_MESSAGE_BYTES;
import static io.sluice.broker.move.StagingManifestDescriptor.MESSAGE_OFFSET;

import io.sluice.log.checkpoint.AtomicFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/** Writes and reads a staging directory's manifest (see {@link StagingManifestDescriptor}). Stateless; thread-safe. */
final class StagingManifest {
    private StagingManifest() {}

    static void write(Path file, MoveSegmentList listing, MoveCodec codec) throws IOException {
        ByteBuffer message = codec.encode(listing);
        int length = message.remaining();
        CRC32C crc = new CRC32C();
        crc.update(message.duplicate());
        ByteBuffer bytes = ByteBuffer.allocate(MESSAGE_OFFSET + length);
        bytes.putInt(LENGTH_OFFSET, length)
                .putInt(CRC_OFFSET, (int) crc.getValue())
                .position(MESSAGE_OFFSET);
        bytes.put(message).flip();
        AtomicFile.write(file, bytes);
    }

    /**
     * Reads a manifest, checking its length against the file and the cap before allocating, then its CRC.
     *
     * @throws MoveProtocolException naming the field that is wrong
     */
    static MoveSegmentList read(Path file, MoveCodec codec) throws IOException {
        long fileSize = Files.size(file);
        if (fileSize < MESSAGE_OFFSET) {
            throw new MoveProtocolException("manifest", "of " + fileSize + " bytes is shorter than its header");
        }
        ByteBuffer head = ByteBuffer.allocate(MESSAGE_OFFSET);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            readFully(channel, head, 0);
            int length = head.getInt(LENGTH_OFFSET);
            if (length < 0 || length > MAX_MESSAGE_BYTES || length != fileSize - MESSAGE_OFFSET) {
                throw new MoveProtocolException(
                        "manifest.length",
                        length + " does not fit a file of " + fileSize + " bytes (cap " + MAX_MESSAGE_BYTES + ")");
            }
            ByteBuffer message = ByteBuffer.allocate(length);
            readFully(channel, message, MESSAGE_OFFSET);
            message.flip();
            CRC32C crc = new CRC32C();
            crc.update(message.duplicate());
            int stored = head.getInt(CRC_OFFSET);
            if ((int) crc.getValue() != stored) {
                throw new MoveProtocolException(
                        "manifest.crc32c",
                        Integer.toHexString(stored) + " does not match " + Integer.toHexString((int) crc.getValue()));
            }
            MoveSegmentList listing = codec.decode(message, MoveSegmentList.class, "manifest.message");
            listing.validate();
            return listing;
        }
    }

    private static void readFully(FileChannel channel, ByteBuffer target, long position) throws IOException {
        while (target.hasRemaining()) {
            if (channel.read(target, position + target.position()) < 0) {
                throw new MoveProtocolException("manifest", "ends after " + (position + target.position()) + " bytes");
            }
        }
    }
}
