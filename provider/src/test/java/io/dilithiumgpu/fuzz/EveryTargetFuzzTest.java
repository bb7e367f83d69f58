package io.dilithiumgpu.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * All six fuzz targets behind one: the first byte picks the target, the rest is its input. Jazzer
 * fuzzes one target per JVM, and each start (agent, instrumentation) costs about as much as a
 * useful bounded run, so the build's bounded fuzzing (profile fuzz) runs this one; the long run
 * (profile fuzz-long) fuzzes each target on its own. Its seeds are the targets' seeds, each
 * behind its target's byte.
 */
// Jazzer takes a @Timeout as the limit of a whole fuzzing run (and per input, which the build's
// -timeout replaces): above the longest run of profile fuzz-long.
@Timeout(value = 3, unit = TimeUnit.HOURS)
class EveryTargetFuzzTest {
    @FuzzTest
    void everyTarget(byte[] data) throws Exception {
        if (data.length == 0) {
            return;
        }
        byte[] input = Arrays.copyOfRange(data, 1, data.length);
        switch ((data[0] & 0xFF) % 6) {
            case 0: new X509FuzzTest().generatePublic(input); break;
            case 1: new Pkcs8FuzzTest().generatePrivate(input); break;
            case 2: new KeySpecFuzzTest().translateAndGetKeySpec(input); break;
            case 3: new VerifyFuzzTest().verify(input); break;
            case 4: new SignFuzzTest().sign(input); break;
            default: new AsyncFuzzTest().async(input); break;
        }
    }
}
