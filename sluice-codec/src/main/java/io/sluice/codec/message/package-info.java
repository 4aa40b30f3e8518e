/**
 * Resumable, allocation-free-per-field message encoding.
 *
 * <h2>Writing</h2>
 * <pre>{@code
 * MessageWriter w = new MessageWriter();            // one per network thread, reused
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
 * <h2>Classes</h2>
 * {@code FieldWriter} and {@code FieldReader} encode and decode one field at a time (primitives, arrays, strings,
 * endpoints), resuming inside a field cut by a buffer end; {@code MessageWriter} and {@code MessageReader} extend
 * them with whole messages, nesting, lists and maps. Large state is compressed as a whole stream by
 * {@code io.sluice.codec.compress.StateCodec}, not field by field.
 * <h2>Wire format</h2>
 * See {@code WireFormat}: varints for ints/longs/lengths, big-endian fixed fields, length+1 prefixes with 0 for null.
 */
package io.sluice.codec.message;
