package io.sluice.record.batch;

/**
 * Combines CRC-32C values: from the checksums of two byte strings A and B and the length of B, the checksum of A
 * followed by B, without reading either. With it a record batch's checksum as a whole byte string follows from its
 * header bytes and the CRC-32C it stores for the rest ({@link RecordBatchDescriptor}), so a range of whole batches can
 * be checksummed from the batch headers alone.
 *
 * <p>The arithmetic is the standard one for CRCs with pre- and post-inversion (as CRC-32C has): appending |B| bytes to
 * A multiplies A's checksum by x^(8·|B|) modulo the (bit-reflected) polynomial, and the inversions cancel, so
 * {@code crc(AB) = crc(A)·x^(8|B|) mod P  xor  crc(B)}. Powers x^(8·v·256^d) are tabulated once for every byte value v
 * and byte position d of a 32-bit length, so shifting by n bytes is one multiplication by a table entry per non-zero
 * byte of n (two for any length below 64 KiB); longer lengths multiply powers x^(2^k), one per set bit. Each table
 * entry is kept as its 16 multiples by the 4-bit polynomials, so multiplying a checksum by it takes eight steps of
 * four bits (a table look-up each) instead of 32 steps of one bit.
 *
 * <p>Stateless after class initialisation; thread-safe.
 */
public final class Crc32cCombine {
    /** CRC-32C's polynomial (Castagnoli, 0x1EDC6F41), bit-reflected as the checksum is computed. */
    private static final int POLYNOMIAL_REFLECTED = 0x82F63B78;
    /** x^0 in the reflected representation: the highest bit stands for the lowest power. */
    private static final int X_POWER_0 = 0x80000000;
    /** x^(2^k) mod P for k = 0..63. */
    private static final int[] X_POWER_2K = new int[64];
    /** Bytes of a length that {@link #BYTE_DIGIT_FACTOR_MULTIPLES} covers. */
    private static final int LENGTH_DIGITS = Integer.BYTES;
    /** Bits of a checksum that one step of {@link #multiplyByDigitFactor} takes. */
    private static final int NIBBLE_BITS = 4;

    private static final int NIBBLE_MASK = (1 << NIBBLE_BITS) - 1;
    /**
     * The factor x^(8·v·256^d) mod P for byte value v at byte position d of a length, times each 4-bit polynomial n
     * (bit 3 of n stands for x^0, bit 0 for x^3, as in the reflected representation): at index
     * {@code ((d·256 + v) << 4) + n}. Sixteen entries (64 bytes) per factor.
     */
    private static final int[] BYTE_DIGIT_FACTOR_MULTIPLES = new int[(LENGTH_DIGITS << Byte.SIZE) << NIBBLE_BITS];
    /**
     * m·x^4 mod P for m below 16: what multiplying by x^4 makes of the four lowest bits (x^28..x^31), which pass x^31;
     * the other bits only move down four places.
     */
    private static final int[] NIBBLE_CARRY = new int[1 << NIBBLE_BITS];

    /*
     * Built by the first move of a JVM, on its critical path and before the JIT has compiled anything: so every
     * factor is the previous one of its row times the row's step, multiplied with the row's own table (eight steps),
     * and its multiples are shifts and XORs; about a thousand multiplications instead of sixteen thousand bit by bit.
     */
    static {
        X_POWER_2K[0] = X_POWER_0 >>> 1; // x^1
        for (int k = 1; k < X_POWER_2K.length; k++) {
            X_POWER_2K[k] = multiplyModP(X_POWER_2K[k - 1], X_POWER_2K[k - 1]);
        }
        for (int m = 0; m < NIBBLE_CARRY.length; m++) {
            NIBBLE_CARRY[m] = timesX(timesX(timesX(timesX(m))));
        }
        for (int d = 0; d < LENGTH_DIGITS; d++) {
            int row = d << Byte.SIZE;
            tabulateMultiples(row, X_POWER_0);
            // the step of row d: x^(8·256^d) = x^(2^(3 + 8d))
            tabulateMultiples(row + 1, X_POWER_2K[3 + Byte.SIZE * d]);
            for (int v = 2; v < 1 << Byte.SIZE; v++) {
                tabulateMultiples(row + v, multiplyByDigitFactor(row + 1, factorOf(row + v - 1)));
            }
        }
    }

    /**
     * Fills the 16 multiples of {@code factor} at entry {@code index}: x^0..x^3 times it (bit 3 of a group stands for
     * x^0), and their sums; written out, as the interpreter runs it.
     */
    private static void tabulateMultiples(int index, int factor) {
        int x0 = factor;
        int x1 = timesX(x0);
        int x2 = timesX(x1);
        int x3 = timesX(x2);
        int[] multiples = BYTE_DIGIT_FACTOR_MULTIPLES;
        int base = index << NIBBLE_BITS;
        multiples[base + 0b0001] = x3;
        multiples[base + 0b0010] = x2;
        multiples[base + 0b0011] = x2 ^ x3;
        multiples[base + 0b0100] = x1;
        multiples[base + 0b0101] = x1 ^ x3;
        multiples[base + 0b0110] = x1 ^ x2;
        multiples[base + 0b0111] = x1 ^ x2 ^ x3;
        multiples[base + 0b1000] = x0;
        multiples[base + 0b1001] = x0 ^ x3;
        multiples[base + 0b1010] = x0 ^ x2;
        multiples[base + 0b1011] = x0 ^ x2 ^ x3;
        multiples[base + 0b1100] = x0 ^ x1;
        multiples[base + 0b1101] = x0 ^ x1 ^ x3;
        multiples[base + 0b1110] = x0 ^ x1 ^ x2;
        multiples[base + 0b1111] = x0 ^ x1 ^ x2 ^ x3;
    }

    /** The tabulated factor at entry {@code index} itself (its multiple by x^0). */
    private static int factorOf(int index) {
        return BYTE_DIGIT_FACTOR_MULTIPLES[(index << NIBBLE_BITS) + 0b1000];
    }

    private Crc32cCombine() {}

    /**
     * The CRC-32C of A followed by B.
     *
     * @param crcA    CRC-32C of A (as {@link java.util.zip.CRC32C#getValue()} gives it, cast to int)
     * @param crcB    CRC-32C of B
     * @param lengthB bytes in B, {@code >= 0}
     */
    public static int combine(int crcA, int crcB, long lengthB) {
        if (lengthB < 0) {
            throw new IllegalArgumentException("lengthB " + lengthB + " is negative");
        }
        return shift(crcA, lengthB) ^ crcB;
    }

    /**
     * {@code crc}·x^(8·bytes) mod P: what appending {@code bytes} bytes makes of a checksum before the appended bytes'
     * own checksum is added ({@code combine(a, b, n) == shift(a, n) ^ b}). Below 2^32 bytes: one multiplication per
     * non-zero byte of {@code bytes}, by the tabulated factor of that byte.
     *
     * @param bytes {@code >= 0}
     */
    public static int shift(int crc, long bytes) {
        if (bytes >>> (Byte.SIZE * LENGTH_DIGITS) != 0) {
            return multiplyModP(xPowerOfBits(bytes << 3), crc);
        }
        int shifted = crc;
        for (int d = 0, rest = (int) bytes; rest != 0; d++, rest >>>= Byte.SIZE) {
            int digit = rest & 0xFF;
            if (digit != 0) {
                shifted = multiplyByDigitFactor((d << Byte.SIZE) + digit, shifted);
            }
        }
        return shifted;
    }

    /**
     * {@code value} times the tabulated factor {@code factor} ({@link #BYTE_DIGIT_FACTOR_MULTIPLES}), by Horner's rule
     * over the 4-bit groups of {@code value} from its highest powers (lowest bits) down: times x^4, plus the factor's
     * multiple of the next group.
     */
    private static int multiplyByDigitFactor(int factor, int value) {
        int base = factor << NIBBLE_BITS;
        int product = BYTE_DIGIT_FACTOR_MULTIPLES[base + (value & NIBBLE_MASK)];
        for (int at = NIBBLE_BITS; at < Integer.SIZE; at += NIBBLE_BITS) {
            product = (product >>> NIBBLE_BITS)
                    ^ NIBBLE_CARRY[product & NIBBLE_MASK]
                    ^ BYTE_DIGIT_FACTOR_MULTIPLES[base + ((value >>> at) & NIBBLE_MASK)];
        }
        return product;
    }

    /** v·x mod P: one place towards the higher powers, x^31's carry reduced. */
    private static int timesX(int v) {
        return (v >>> 1) ^ (POLYNOMIAL_REFLECTED & -(v & 1));
    }

    /** x^bits mod P, one multiplication per set bit of {@code bits}. */
    private static int xPowerOfBits(long bits) {
        int product = X_POWER_0;
        long rest = bits;
        for (int k = 0; rest != 0; k++, rest >>>= 1) {
            if ((rest & 1) != 0) {
                product = multiplyModP(X_POWER_2K[k], product);
            }
        }
        return product;
    }

    /**
     * a·b mod P in the reflected representation: carry-less multiplication reduced bit by bit, without branches (the
     * bits of a table factor are as good as random, so a branch per bit would be mispredicted half the time).
     */
    private static int multiplyModP(int a, int b) {
        int product = 0;
        int multiplicand = b;
        for (int i = 0; i < Integer.SIZE; i++) {
            product ^= multiplicand & ((a << i) >> (Integer.SIZE - 1)); // all ones when bit 31 - i of a is set
            multiplicand = timesX(multiplicand);
        }
        return product;
    }
}
