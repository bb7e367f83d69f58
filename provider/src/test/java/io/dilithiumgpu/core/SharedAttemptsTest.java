package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A signature's rejection loop shared with helper threads ({@link SharedAttempts},
 * {@link SigningHelpers}): the signature is the one-thread loop's, bit for bit, whichever thread
 * ran the attempt that passed; callers sharing the helpers at once each get their own; and every
 * workspace goes back to its pool wiped.
 */
@Timeout(120)
class SharedAttemptsTest {
    private static final int SIGNATURES = 24;

    private record Task(byte[] sk, byte[] mu, byte[] rnd) {}

    private static List<Task> tasks(ParameterSet p, int n, long seed) {
        Random random = new Random(seed + 97L * p.ordinal());
        List<Task> tasks = new ArrayList<>();
        byte[] pk = new byte[p.publicKeyBytes()];
        for (int i = 0; i < n; i++) {
            byte[] keySeed = new byte[ParameterSet.SEED_BYTES];
            random.nextBytes(keySeed);
            byte[] sk = new byte[p.privateKeyBytes()];
            Scheme.keyGen(p, keySeed, 0, pk, 0, sk, 0);
            byte[] mu = new byte[ParameterSet.MU_BYTES];
            random.nextBytes(mu);
            byte[] rnd = new byte[p.rndBytes()];
            random.nextBytes(rnd);
            tasks.add(new Task(sk, mu, rnd));
        }
        return tasks;
    }

    private static byte[] sign(ParameterSet p, Task t, PrivateKeyCache cache, int helpers) {
        byte[] sig = new byte[p.signatureBytes()];
        assertTrue(Scheme.sign(p, t.sk, 0, cache, t.mu, 0, t.rnd, 0, sig, 0, helpers));
        return sig;
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void sharedLoopsSignAsOneThreadDoes(ParameterSet p) {
        long helped = Scheme.helperAttemptCount();
        List<Task> tasks = tasks(p, SIGNATURES, 1);
        for (Task t : tasks) {
            byte[] alone = sign(p, t, null, 0);
            assertArrayEquals(alone, sign(p, t, null, 3));
            PrivateKeyCache cache = new PrivateKeyCache(p);
            assertArrayEquals(alone, sign(p, t, cache, 3));
            assertArrayEquals(alone, sign(p, t, cache, 3), "through the filled cache");
        }
        signUntilHelped(p, tasks, helped);
    }

    /**
     * Signs {@code tasks} with helpers, each checked against the loop on one thread, until a helper
     * has run an attempt since {@code helped}: on a loaded machine a helper may get no core for a
     * while, and every signature is then the caller's alone (still the same bytes).
     */
    private static void signUntilHelped(ParameterSet p, List<Task> tasks, long helped) {
        for (int round = 0; round < 200 && Scheme.helperAttemptCount() <= helped; round++) {
            for (Task t : tasks) {
                assertArrayEquals(sign(p, t, null, 0), sign(p, t, null, 3));
            }
        }
        assertTrue(Scheme.helperAttemptCount() > helped, "no helper ran an attempt");
    }

    @Test
    void callersSharingTheHelpersAtOnceEachGetTheirOwnSignature() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_65;
        int callers = 6;
        List<List<Task>> work = new ArrayList<>();
        List<List<byte[]>> expected = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            List<Task> tasks = tasks(p, 8, 100 + c);
            work.add(tasks);
            List<byte[]> sigs = new ArrayList<>();
            for (Task t : tasks) {
                sigs.add(sign(p, t, null, 0));
            }
            expected.add(sigs);
        }
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<List<byte[]>>> results = new ArrayList<>();
            for (int c = 0; c < callers; c++) {
                List<Task> tasks = work.get(c);
                results.add(pool.submit(() -> {
                    List<byte[]> sigs = new ArrayList<>();
                    for (int round = 0; round < 3; round++) {
                        for (Task t : tasks) {
                            sigs.add(sign(p, t, null, 3));
                        }
                    }
                    return sigs;
                }));
            }
            for (int c = 0; c < callers; c++) {
                List<byte[]> got = results.get(c).get();
                for (int i = 0; i < got.size(); i++) {
                    assertArrayEquals(expected.get(c).get(i % 8), got.get(i), "caller " + c + ", signature " + i);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aKeyThatDoesNotDecodeFailsWithHelpersOffered() {
        ParameterSet p = ParameterSet.ML_DSA_44;
        Task t = tasks(p, 1, 7).get(0);
        byte[] sk = t.sk.clone();
        // s1's first coefficients packed as 7 (η − 7 = −5, outside [−2, 2]).
        sk[2 * ParameterSet.SEED_BYTES + p.trBytes()] = (byte) 0xFF;
        byte[] sig = new byte[p.signatureBytes()];
        assertFalse(Scheme.sign(p, sk, 0, null, t.mu, 0, t.rnd, 0, sig, 0, 3));
        assertArrayEquals(new byte[p.signatureBytes()], sig, "nothing written");
    }

    @Test
    void anInterruptedHelperStillParksWhenIdleAndStillHelps() throws InterruptedException {
        ParameterSet p = ParameterSet.ML_DSA_44;
        List<Task> tasks = tasks(p, 4, 13);
        sign(p, tasks.get(0), null, 3);
        List<Thread> helpers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("dilithiumgpu-sign-helper-")).toList();
        assertFalse(helpers.isEmpty(), "no helper thread");
        helpers.forEach(Thread::interrupt);
        // A thread whose park returns at once (its interrupt still set) reads WAITING now and then,
        // inside the call; parked, it reads WAITING at every look.
        long deadline = System.nanoTime() + 10_000_000_000L;
        int parkedLooks = 0;
        while (parkedLooks < 50 && System.nanoTime() < deadline) {
            boolean parked = helpers.stream().allMatch(t -> t.getState() == Thread.State.WAITING);
            parkedLooks = parked ? parkedLooks + 1 : 0;
            Thread.sleep(1);
        }
        assertEquals(50, parkedLooks, "the helpers do not stay parked once interrupted");
        signUntilHelped(p, tasks, Scheme.helperAttemptCount());
    }

    @Test
    void everyWorkspaceGoesBackWiped() throws InterruptedException {
        ParameterSet p = ParameterSet.ML_DSA_87;
        for (Task t : tasks(p, 12, 11)) {
            sign(p, t, null, 3);
        }
        SigningHelpers helpers = SigningHelpers.shared();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!helpers.allIdle() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(helpers.allIdle(), "helpers still busy");
        List<Workspace> idle = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            idle.add(Scheme.WORKSPACES.acquire());
        }
        try {
            for (Workspace ws : idle) {
                // The arrays only signing fills (verification leaves public values in the others).
                for (int[] secret : new int[][] {ws.s1, ws.s2, ws.t0, ws.y}) {
                    assertEquals(0, java.util.Arrays.stream(secret).filter(x -> x != 0).count());
                }
                assertArrayEquals(new byte[ws.seeds.length], ws.seeds);
            }
        } finally {
            idle.forEach(Scheme.WORKSPACES::release);
        }
    }
}
