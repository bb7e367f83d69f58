package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class JcaLoadTest {

    @Test
    void everyCallSignsAnotherMessageAndTheLastOneCanBeRebuilt() {
        byte[] base = HexFormat.of().parseHex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
        Set<String> seen = new HashSet<>();
        for (long call = 1; call <= 1000; call++) {
            seen.add(HexFormat.of().formatHex(JcaLoad.messageOf(base, call)));
        }
        assertEquals(1000, seen.size());
        assertArrayEquals(JcaLoad.messageOf(base, 77), JcaLoad.messageOf(base, 77));
        byte[] m = JcaLoad.messageOf(base, 0x0102);
        assertEquals((byte) 0x02, m[0]);
        assertEquals((byte) 0x10, m[1]);
        assertEquals(JcaLoad.MESSAGE_BYTES, m.length);
        assertArrayEquals(Arrays.copyOfRange(base, 8, 32), Arrays.copyOfRange(m, 8, 32));
        assertEquals((byte) 0x00, base[0], "base unchanged");
    }
}
