/**
 * sluice-codec: how brokers talk to each other and to ZooKeeper, with little allocation and no whole-message copies.
 *
 * <ul>
 *   <li>{@link io.sluice.codec.message} — resumable {@link io.sluice.codec.message.MessageWriter} /
 *       {@link io.sluice.codec.message.MessageReader} over caller-supplied fixed-size buffers (fields encoded by
 *       {@link io.sluice.codec.message.FieldWriter} / {@link io.sluice.codec.message.FieldReader}), registered
 *       versioned message types;</li>
 *   <li>{@link io.sluice.codec.compress} — streaming compression of large state
 *       ({@link io.sluice.codec.compress.StateCodec}) through reusable zlib/zstd stream compressors;</li>
 *   <li>{@link io.sluice.codec.part} — splitting a compressed stream into parts below ZooKeeper's jute.maxbuffer and
 *       verified reassembly;</li>
 *   <li>{@link io.sluice.codec.endpoint} — byte endpoints with a cached hash.</li>
 * </ul>
 * Tunables live in {@link io.sluice.codec.CodecConfig}; every error on bad input is a
 * {@link io.sluice.codec.error.CodecException}. This module imports nothing else of Sluice and defines no message of
 * its own: the cluster's records are sluice-cluster's ({@code io.sluice.cluster.state.wire}).
 */
package io.sluice.codec;
