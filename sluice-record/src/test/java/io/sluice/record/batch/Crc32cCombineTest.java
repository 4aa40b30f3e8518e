package io.sluice.record.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.zip.CRC32C;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** {@link Crc32cCombine}: the checksum of A then B from the checksums of A and B equals the checksum of the bytes. */
class Crc32cCombineTest {

    private static int crc(byte[] bytes, int from, int to) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, from, to - from);
        return (int) crc.getValue();
    }

    @Property(tries = 500)
    void shouldEqualTheChecksumOfTheConcatenation(@ForAll @Size(max = 3000) byte[] bytes, @ForAll int cutSeed) {
        int cut = bytes.length == 0 ? 0 : Math.floorMod(cutSeed, bytes.length + 1);
        int combined = Crc32cCombine.combine(crc(bytes, 0, cut), crc(bytes, cut, bytes.length), bytes.length - cut);
        assertEquals(crc(bytes, 0, bytes.length), combined);
    }

    @Test
    void shouldTreatTheEmptyStringAsNeutral() {
        byte[] bytes = "123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        int whole = crc(bytes, 0, bytes.length);
        assertEquals(0xE3069283, whole, "CRC-32C check value");
        assertEquals(whole, Crc32cCombine.combine(0, whole, bytes.length));
        assertEquals(whole, Crc32cCombine.combine(whole, 0, 0));
    }

    @Test
    void shouldCombineLongRunsOfZeros() {
        byte[] zeros = new byte[1 << 20];
        byte[] head = {1, 2, 3};
        byte[] all = new byte[head.length + zeros.length];
        System.arraycopy(head, 0, all, 0, head.length);
        assertEquals(
                crc(all, 0, all.length),
                Crc32cCombine.combine(crc(head, 0, head.length), crc(zeros, 0, zeros.length), zeros.length));
    }

    /**
     * Appending B then C is appending BC, for lengths in every byte position of the length tables and beyond 2^32 bytes
     * (where the factor is computed bit by bit): the table path and the bitwise path must give the same powers.
     */
    @Property(tries = 1000)
    void shouldBeAssociativeForLengthsOfAnySize(
            @ForAll int crcA,
            @ForAll int crcB,
            @ForAll int crcC,
            @ForAll @LongRange(min = 0, max = 1L << 33) long lengthB,
            @ForAll @LongRange(min = 0, max = 1L << 31) long lengthC) {
        int stepwise = Crc32cCombine.combine(Crc32cCombine.combine(crcA, crcB, lengthB), crcC, lengthC);
        int grouped = Crc32cCombine.combine(crcA, Crc32cCombine.combine(crcB, crcC, lengthC), lengthB + lengthC);
        assertEquals(stepwise, grouped);
    }

    /**
     * A checksum continued over a batch-like run the way a range checksum walks it (a few header bytes appended to the
     * running checksum, then the rest from its own checksum) equals the checksum of the bytes; and shifts compose.
     */
    @Property(tries = 500)
    void shouldContinueAChecksumOverAPrefixAndTheRest(
            @ForAll @Size(min = 1, max = 3000) byte[] bytes,
            @ForAll int cutSeed,
            @ForAll int prefixSeed,
            @ForAll @LongRange(min = 0, max = 1L << 33) long m,
            @ForAll @LongRange(min = 0, max = 1L << 31) long n) {
        int cut = Math.floorMod(cutSeed, bytes.length);
        int prefixEnd = cut + Math.floorMod(prefixSeed, bytes.length - cut + 1);
        int throughPrefix = Crc32cCombine.shift(crc(bytes, 0, cut), prefixEnd - cut) ^ crc(bytes, cut, prefixEnd);
        int whole = Crc32cCombine.shift(throughPrefix, bytes.length - prefixEnd) ^ crc(bytes, prefixEnd, bytes.length);
        assertEquals(crc(bytes, 0, bytes.length), whole);
        assertEquals(Crc32cCombine.shift(whole, m + n), Crc32cCombine.shift(Crc32cCombine.shift(whole, m), n));
        assertEquals(whole, Crc32cCombine.shift(whole, 0));
    }

    @Test
    void shouldCombineAcrossEveryLengthByte() {
        byte[] zeros = new byte[(1 << 24) + (1 << 16) + 257];
        byte[] head = {7, 8, 9};
        byte[] all = new byte[head.length + zeros.length];
        System.arraycopy(head, 0, all, 0, head.length);
        assertEquals(
                crc(all, 0, all.length),
                Crc32cCombine.combine(crc(head, 0, head.length), crc(zeros, 0, zeros.length), zeros.length));
    }

    /**
     * Every tabulated power, each of its 16 multiples used: a shift by {@code v·256^d} bytes (one table entry) then by
     * 2^32 bytes (computed bit by bit) equals the shift by their sum (bit by bit), for checksums whose 4-bit groups
     * take every value.
     */
    @Test
    void shouldAgreeWithTheBitwisePathForEveryTableEntry() {
        int[] checksums = {0x01234567, 0x89ABCDEF, 0xFEDCBA98, 0x76543210, 0xFFFFFFFF, 0x80000001};
        for (int d = 0; d < Integer.BYTES; d++) {
            for (long v = 1; v < 256; v++) {
                long bytes = v << (Byte.SIZE * d);
                for (int checksum : checksums) {
                    assertEquals(
                            Crc32cCombine.shift(checksum, bytes + (1L << 32)),
                            Crc32cCombine.shift(Crc32cCombine.shift(checksum, bytes), 1L << 32),
                            "shift by " + bytes + " of " + Integer.toHexString(checksum));
                }
            }
        }
    }

    @Test
    void shouldRefuseANegativeLength() {
        assertThrows(IllegalArgumentException.class, () -> Crc32cCombine.combine(1, 2, -1));
    }
}
