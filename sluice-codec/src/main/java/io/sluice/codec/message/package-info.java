/**
 * Resumable, allocation-free-per-field message encoding.
 *
 * <h2>Writing</h2>
 * <pre>{@code
 * MessageWriter w = new MessageWriter();            // one per network thread, reused; close() at shutdown
 * w.setBuffer(socketBuffer);                        // fixed size, heap or direct
 * while (!w.write(message)) {                       // false: buffer full, progress kept inside w
 *     flush(socketBuffer); socketBuffer.clear();
 *     w.setBuffer(socketBuffer);                    // resumes at the exact byte, even mid-string or mid-list
 * }
 * }</pre>
 * <h2>Reading</h2>
 * <pre>{@code
 * MessageReader r = new MessageReader(registry);       // e.g. sluice-cluster's StateMessages.REGISTRY
 * r.setBuffer(received);                            // any split of the bytes
 * Message m = r.read();                             // null: every byte consumed, more needed
 * }</pre>
 * <h2>Defining a message</h2>
 * Implement {@link io.sluice.codec.message.Message} with a fall-through switch over {@code writer.state()}, each
 * field {@code case n: if (!w.writeX(v)) return w.stopAt(n);} (see the codec tests' sample {@code PartitionState}; the
 * older {@code incrementState()} after each field also works, at one more store per field), or extend {@link io.sluice.codec.message.FieldMessage} for flat
 * messages; register the type id, name, newest readable version and factory in a
 * {@link io.sluice.codec.message.MessageRegistry}. New fields are appended in a new schema version and read only
 * when {@code reader.version()} has them, so a newer broker reads an older broker's messages; newer versions than
 * registered and unknown type ids are typed errors.
 * <h2>Compressed fields</h2>
 * {@code writer.writeCompressed(nested, Compression.ZSTD)} streams the nested message through one reused nested
 * writer and compressor into one reused heap scratch (kept up to {@code scratchRetainBytes}, trimmed above, or on
 * {@code trimScratch()}); no direct buffer is allocated per field. {@code reader.readCompressed()} collects the
 * compressed bytes (bounded by the cap and the bytes present) and inflates them in bounded chunks against the
 * declared size.
 * <h2>Wire format</h2>
 * See {@code WireFormat}: varints for ints/longs/lengths, big-endian fixed fields, length+1 prefixes with 0 for null.
 */
package io.sluice.codec.message;
