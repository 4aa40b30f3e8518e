package io.sluice.codec.part;

import io.sluice.codec.compress.Compression;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A verified compressed stream: the payload of every part in order, as views of the parts (no copy).
 * Immutable holder of read-only views; safe to share once built.
 *
 * @param compression format of the stream
 * @param payloads    payload slices in stream order
 * @param totalLength sum of the payload lengths
 */
public record AssembledStream(Compression compression, List<ByteBuffer> payloads, int totalLength) {}
