/**
 * Splitting a compressed stream into parts no larger than a limit ({@link io.sluice.codec.part.PartSplitter}) and
 * verified reassembly ({@link io.sluice.codec.part.PartAssembler}); the layout is drawn in
 * {@link io.sluice.codec.part.PartDescriptor}.
 */
package io.sluice.codec.part;
