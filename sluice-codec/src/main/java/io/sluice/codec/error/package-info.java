/**
 * Typed errors of sluice-codec. Every error on bad input extends
 * {@link io.sluice.codec.error.MalformedInputException} and names the field or part and the
 * values seen; callers catch {@link io.sluice.codec.error.CodecException} to reject one message
 * without affecting anything else.
 */
package io.sluice.codec.error;
