package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link WorkspacePool}: a workspace is lent to one holder at a time, the idle ones kept are
 * bounded, a thread gets its own back, and {@link Scheme}'s calls return their workspaces wiped and
 * give the same results from any workspace.
 */
@Timeout(60)
class WorkspacePoolTest {
    @Test
    void lendsEachWorkspaceToOneHolderAndKeepsAtMostItsCapacity() {
        WorkspacePool pool = new WorkspacePool(4);
        assertEquals(4, pool.capacity());
        List<Workspace> held = new ArrayList<>();
        Map<Workspace, Boolean> seen = new IdentityHashMap<>();
        for (int i = 0; i < 10; i++) {
            Workspace ws = pool.acquire();
            assertTrue(seen.put(ws, true) == null, "workspace " + i + " was already lent");
            held.add(ws);
        }
        held.forEach(pool::release);
        assertEquals(4, pool.idle(), "idle workspaces beyond the capacity are dropped");
        for (int i = 0; i < 4; i++) {
            assertTrue(seen.containsKey(pool.acquire()), "a kept workspace is lent again");
        }
        assertEquals(0, pool.idle());
        assertTrue(!seen.containsKey(pool.acquire()), "an empty pool makes a new workspace");
    }

    @Test
    void aThreadGetsItsOwnWorkspaceBack() {
        WorkspacePool pool = new WorkspacePool(8);
        Workspace first = pool.acquire();
        pool.release(first);
        assertSame(first, pool.acquire());
        Workspace other = pool.acquire();
        assertNotSame(first, other);
    }

    @Test
    void capacityIsRoundedUpToAPowerOfTwo() {
        assertEquals(1, new WorkspacePool(1).capacity());
        assertEquals(8, new WorkspacePool(5).capacity());
        assertEquals(32, new WorkspacePool(32).capacity());
        assertTrue(WorkspacePool.forThisProcess().capacity() >= 8);
    }

    /** Many threads signing and verifying at once: every result right, the pool bounded, its workspaces wiped. */
    @Test
    void schemeReturnsWipedWorkspacesUnderConcurrency() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_44;
        byte[] seed = new byte[ParameterSet.SEED_BYTES];
        new Random(17).nextBytes(seed);
        byte[] pk = new byte[p.publicKeyBytes()];
        byte[] sk = new byte[p.privateKeyBytes()];
        Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
        byte[] mu = new byte[ParameterSet.MU_BYTES];
        byte[] rnd = new byte[p.rndBytes()];
        byte[] expected = new byte[p.signatureBytes()];
        assertTrue(Scheme.sign(p, sk, 0, mu, 0, rnd, 0, expected, 0));

        int threads = 3 * Scheme.WORKSPACES.capacity();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<byte[]>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    byte[] sig = new byte[p.signatureBytes()];
                    assertTrue(Scheme.sign(p, sk, 0, mu, 0, rnd, 0, sig, 0));
                    assertTrue(Scheme.verify(p, pk, 0, mu, 0, sig, 0));
                    return sig;
                }));
            }
            for (Future<byte[]> r : results) {
                assertArrayEquals(expected, r.get());
            }
        } finally {
            pool.shutdownNow();
        }
        WorkspacePool workspaces = Scheme.WORKSPACES;
        assertTrue(workspaces.idle() <= workspaces.capacity());
        List<Workspace> idle = new ArrayList<>();
        for (int i = workspaces.idle(); i > 0; i--) {
            idle.add(workspaces.acquire());
        }
        assertTrue(!idle.isEmpty());
        for (Workspace ws : idle) {
            assertTrue(allZero(ws.seeds) && allZero(ws.s1) && allZero(ws.s2) && allZero(ws.t0) && allZero(ws.y)
                    && allZero(ws.w0), "an idle workspace holds no secret");
            workspaces.release(ws);
        }
    }

    private static boolean allZero(int[] a) {
        int acc = 0;
        for (int v : a) {
            acc |= v;
        }
        return acc == 0;
    }

    private static boolean allZero(byte[] a) {
        int acc = 0;
        for (byte v : a) {
            acc |= v;
        }
        return acc == 0;
    }
}
