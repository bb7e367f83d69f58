package io.dilithiumgpu.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.route.Router;
import io.dilithiumgpu.route.RouteSetting;
import org.junit.jupiter.api.AfterAll;

/**
 * Every known-answer suite through the provider's JCA calls ({@link JcaBackend}) with the route
 * pinned by {@value RouteSetting#PROPERTY}; afterwards the router's counts show that the signatures
 * and verifications took that route and no other.
 */
abstract class RouteKatTest extends BackendKatTest {
    private long direct;
    private long batch;
    private long jdk;

    /** The pinned setting: {@code direct} or {@code batch}. */
    abstract String setting();

    @Override
    protected Backend createBackend() {
        System.setProperty(RouteSetting.PROPERTY, setting());
        Router r = Router.shared();
        direct = r.getDirectCount();
        batch = r.getBatchCount();
        jdk = r.getJdkCount();
        return new JcaBackend();
    }

    @AfterAll
    void unpinAndCheckTheRoute() {
        System.clearProperty(RouteSetting.PROPERTY);
        Router r = Router.shared();
        long directCalls = r.getDirectCount() - direct;
        long batchCalls = r.getBatchCount() - batch;
        assertEquals(0, r.getJdkCount() - jdk, "external mu never goes to the JDK");
        if (setting().equals("direct")) {
            assertTrue(directCalls > 0, "no call ran direct");
            assertEquals(0, batchCalls, "calls went to the batcher");
        } else {
            assertTrue(batchCalls > 0, "no call went to the batcher");
            assertEquals(0, directCalls, "calls ran direct");
        }
    }
}
