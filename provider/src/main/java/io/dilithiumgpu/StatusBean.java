package io.dilithiumgpu;

import io.dilithiumgpu.batch.Batcher;
import io.dilithiumgpu.batch.Engines;

import javax.management.JMException;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/** {@link StatusMXBean} over the shared engine, read without opening it. */
final class StatusBean implements StatusMXBean {
    private static final System.Logger LOG = System.getLogger(StatusBean.class.getName());
    private static final AtomicBoolean REGISTERED = new AtomicBoolean();

    private StatusBean() {}

    /** Registers the bean once per JVM; a failure to register is logged and otherwise ignored. */
    static void registerOnce() {
        if (!REGISTERED.compareAndSet(false, true)) {
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(new StatusBean(),
                    new javax.management.ObjectName(NAME));
        } catch (JMException | RuntimeException | LinkageError e) {
            // No platform MBean server (a jlinked runtime without java.management), or a name taken.
            LOG.log(System.Logger.Level.DEBUG, "status MBean not registered as " + NAME + ": " + e);
        }
    }

    private static Optional<Batcher> batcher() {
        return Engines.openedBatcher();
    }

    @Override
    public String getVersion() {
        return Status.currentVersion();
    }

    @Override
    public String getPolicy() {
        return Status.configuredPolicy();
    }

    @Override
    public String getBackend() {
        return batcher().map(b -> b.metrics().getBackend()).orElse("not started");
    }

    @Override
    public boolean isGpuInUse() {
        return getBackend().equals("cuda");
    }

    @Override
    public String[] getDevices() {
        return batcher().map(b -> b.choice().devices().toArray(new String[0])).orElse(new String[0]);
    }

    @Override
    public String getReason() {
        return batcher().map(b -> b.choice().reason())
                .orElse("not started: the engine starts with the first operation or DilithiumGpu.status()");
    }

    @Override
    public String getCudaUnavailableReason() {
        return batcher().map(b -> b.choice().cudaUnavailable()).filter(r -> r != null).orElse("");
    }

    @Override
    public String getProviderOrderWarning() {
        String w = ProviderOrder.warning();
        return w == null ? "" : w;
    }

    @Override
    public long getCpuReruns() {
        return batcher().map(b -> b.metrics().getFallbackCount()).orElse(0L);
    }

    @Override
    public String runSelfTest() {
        try {
            return DilithiumGpu.selfTest().toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "self-test interrupted";
        }
    }
}
