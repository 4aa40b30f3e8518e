package io.sluice.log.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OffsetMapTest {
    private static ByteBuffer key(String k) {
        return ByteBuffer.wrap(k.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldKeepTheLatestOffsetOfEachKeyAcrossGrowth() {
        OffsetMap map = new OffsetMap(1 << 20, 0.9);
        for (int i = 0; i < 20_000; i++) {
            ByteBuffer k = key("key-" + (i % 10_000));
            assertTrue(map.put(k, 0, k.limit(), i));
        }
        assertEquals(10_000, map.size());
        for (int i = 0; i < 10_000; i++) {
            ByteBuffer k = key("key-" + i);
            assertEquals(10_000 + i, map.get(k, 0, k.limit()));
        }
        ByteBuffer absent = key("absent");
        assertEquals(-1, map.get(absent, 0, absent.limit()));
    }

    @Test
    void shouldRefuseNewKeysWhenFullButUpdateKnownOnes() {
        OffsetMap map = new OffsetMap(OffsetMap.ENTRY_BYTES * 100L, 1.0);
        int accepted = 0;
        while (true) {
            ByteBuffer k = key("k" + accepted);
            if (!map.put(k, 0, k.limit(), accepted)) {
                break;
            }
            accepted++;
        }
        assertEquals(map.maxEntries(), accepted);
        ByteBuffer known = key("k0");
        assertTrue(map.put(known, 0, known.limit(), 999));
        assertEquals(999, map.get(known, 0, known.limit()));
        ByteBuffer fresh = key("fresh");
        assertFalse(map.put(fresh, 0, fresh.limit(), 1000));
        map.clear();
        assertEquals(-1, map.get(known, 0, known.limit()));
    }

    @Test
    void shouldTellKeysApartThatShareAPrefixOrLength() {
        OffsetMap map = new OffsetMap(1 << 16, 0.9);
        String[] keys = {"", "a", "b", "ab", "ba", "0123456789abcdef", "0123456789abcdeg", "0123456789abcdef0"};
        for (int i = 0; i < keys.length; i++) {
            ByteBuffer k = key(keys[i]);
            map.put(k, 0, k.limit(), i);
        }
        for (int i = 0; i < keys.length; i++) {
            ByteBuffer k = key(keys[i]);
            assertEquals(i, map.get(k, 0, k.limit()), keys[i]);
        }
    }
}
