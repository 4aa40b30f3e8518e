/**
 * Streaming compression. {@link io.sluice.codec.compress.StateCodec} serializes a message graph straight through a
 * compressor (the compressor's input chunk coalesces field writes; one native pass per chunk) into any
 * {@link io.sluice.codec.compress.ByteSink}, e.g. a {@link io.sluice.codec.part.PartSplitter}, producing a standard
 * zlib stream or zstd frame, and reads it back in bounded chunks:
 * <pre>{@code
 * try (StateCodec codec = new StateCodec(StateMessages.REGISTRY)) {     // or keep one per controller thread
 *     PartSplitter parts = new PartSplitter(juteMaxBuffer - znodeOverhead);
 *     codec.compress(snapshotRecord, Compression.ZSTD, parts);
 *     List<byte[]> znodes = parts.finish(Compression.ZSTD);
 *     ...
 *     AssembledStream s = new PartAssembler(maxParts, maxBytes).assemble(znodesRead);
 *     SnapshotRecord back = (SnapshotRecord) codec.decompress(s.compression(), s.payloads());
 * }
 * }</pre>
 * Native state (Deflater, Inflater, zstd contexts) is ended by {@code close()}, never left to the Cleaner.
 */
package io.sluice.codec.compress;
