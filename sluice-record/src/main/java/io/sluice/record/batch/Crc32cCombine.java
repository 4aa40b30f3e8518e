package io.sluice.record.batch;

/**
 * Combines CRC-32C values: from the checksums of two byte strings A and B and the length of B, the checksum of A
 * followed by B, without reading either. With it a record batch's checksum as a whole byte string follows from its
 * header bytes and the CRC-32C it stores for the rest ({@link RecordBatchDescriptor}), so a range of whole batches can
 * be checksummed from the batch headers alone.
 *
 * <p>The arithmetic is the standard one for CRCs with pre- and post-inversion (as CRC-32C has): appending |B| bytes to
 * A multiplies A's checksum by x^(8·|B|) modulo the (bit-reflected) polynomial, and the inversions cancel, so
 * {@code crc(AB) = crc(A)·x^(8|B|) mod P  xor  crc(B)}. Powers x^(2^k) are tabulated once; x^(8n) is then a product
 * of at most 64 table entries (one per set bit of 8n).
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

    static {
        X_POWER_2K[0] = X_POWER_0 >>> 1; // x^1
        for (int k = 1; k < X_POWER_2K.length; k++) {
            X_POWER_2K[k] = multiplyModP(X_POWER_2K[k - 1], X_POWER_2K[k - 1]);
        }
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
        return multiplyModP(xPowerOfBytes(lengthB), crcA) ^ crcB;
    }

    /** x^(8·bytes) mod P: the factor by which appending {@code bytes} bytes multiplies a checksum. */
    private static int xPowerOfBytes(long bytes) {
        long bits = bytes << 3;
        int product = X_POWER_0;
        for (int k = 0; bits != 0; k++, bits >>>= 1) {
            if ((bits & 1) != 0) {
                product = multiplyModP(X_POWER_2K[k], product);
            }
        }
        return product;
    }

    /** a·b mod P in the reflected representation (carry-less multiplication, reduced bit by bit). */
    private static int multiplyModP(int a, int b) {
        int product = 0;
        int bit = X_POWER_0;
        int multiplicand = b;
        while (bit != 0) {
            if ((a & bit) != 0) {
                product ^= multiplicand;
                if ((a & (bit - 1)) == 0) {
                    break;
                }
            }
            bit >>>= 1;
            multiplicand = (multiplicand & 1) != 0 ? (multiplicand >>> 1) ^ POLYNOMIAL_REFLECTED : multiplicand >>> 1;
        }
        return product;
    }
}
