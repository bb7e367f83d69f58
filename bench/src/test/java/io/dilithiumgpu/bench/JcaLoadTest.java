package io.dilithiumgpu.bench;

import io.dilithiumgpu.DilithiumGpuProvider;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.util.SplittableRandom;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** Each caller counts its own calls and their time; the load sums every caller's, from any thread. */
    @Test
    @Timeout(60)
    void theTimeInCallsSumsEveryCallersCalls() throws Exception {
        Provider provider = new DilithiumGpuProvider();
        ParameterSet p = ParameterSet.ML_DSA_44;
        KeyPair keys = KeyPairGenerator.getInstance(p.algorithmName(), provider).generateKeyPair();
        JcaLoad load = new JcaLoad(provider, p, keys, new byte[0], new SplittableRandom(3));
        long[] before = load.timeInCalls();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            JcaLoad.Signer signer = load.signers(JcaLoad.Style.GET_INSTANCE).create();
            JcaLoad.Verifier verifier = load.verifiers(JcaLoad.Style.REUSE).create();
            Thread caller = new Thread(() -> {
                try {
                    for (int i = 0; i < 5; i++) {
                        signer.call();
                        verifier.call();
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            callers.add(caller);
            caller.start();
        }
        for (Thread t : callers) {
            t.join();
        }
        long[] after = load.timeInCalls();
        assertEquals(30, after[1] - before[1]);
        assertTrue(after[0] - before[0] > 0);
    }
}
