package io.dilithiumgpu;

import java.security.Provider;
import java.security.Security;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where {@code DilithiumGPU} stands among the installed providers. {@code Signature.getInstance("ML-DSA-65")}
 * without a provider name, and delayed provider selection, take the first provider that offers the
 * algorithm: behind another ML-DSA provider (the JDK's {@code SUN} from Java 24 on, which
 * {@code Security.addProvider} puts ahead, or BouncyCastle), JCA calls that name no provider never
 * reach this one, and verification with this provider's keys runs there, off the batcher.
 */
final class ProviderOrder {
    private static final System.Logger LOG = System.getLogger(ProviderOrder.class.getName());
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    /** The least time between two looks at the order by {@link #warnOnce()}. */
    static final long CHECK_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** When {@link #warnOnce()} may look next ({@link System#nanoTime()}); the first call looks. */
    private static final AtomicLong NEXT_CHECK = new AtomicLong(System.nanoTime());
    /** The JDK's security property that picks a provider per algorithm, whatever the order. */
    static final String PREFERRED_PROPERTY = "jdk.security.provider.preferred";
    /** What another provider offering any of these shadows. */
    private static final List<String> SHADOWED = List.of("Signature.ML-DSA", "Signature.ML-DSA-44",
            "Signature.ML-DSA-65", "Signature.ML-DSA-87", "KeyPairGenerator.ML-DSA");

    private ProviderOrder() {}

    /**
     * The warning when an installed provider ahead of {@code DilithiumGPU} offers ML-DSA, else null
     * (also when {@code DilithiumGPU} is not installed: then only calls naming it reach it).
     */
    static String warning() {
        Set<String> preferred = preferredHere(Security.getProperty(PREFERRED_PROPERTY));
        Provider[] providers = Security.getProviders();
        List<String> ahead = new ArrayList<>();
        for (int i = 0; i < providers.length; i++) {
            Provider p = providers[i];
            if (p.getName().equals(DilithiumGpuProvider.NAME)) {
                return ahead.isEmpty() ? null : DilithiumGpuProvider.NAME + " is installed at position " + (i + 1)
                        + ", behind " + String.join(", ", ahead) + ": getInstance calls that name no provider"
                        + " (and verification with keys of either) go there, off the batcher. Install it first:"
                        + " DilithiumGpuProvider.installFirst(), security.provider.1 in java.security, or "
                        + PREFERRED_PROPERTY + " (README: Adding the provider)";
            }
            for (String service : SHADOWED) {
                if (preferred.contains(service)) {
                    continue;
                }
                int dot = service.indexOf('.');
                if (p.getService(service.substring(0, dot), service.substring(dot + 1)) != null) {
                    ahead.add(p.getName() + " (position " + (i + 1) + ", " + service + ")");
                    break;
                }
            }
        }
        return null;
    }

    /**
     * The services of {@link #SHADOWED} that the security property {@value #PREFERRED_PROPERTY}
     * ({@code [type.]algorithm:provider} entries separated by commas) sends to this provider: those
     * are not shadowed, whatever the order.
     */
    static Set<String> preferredHere(String property) {
        Set<String> here = new HashSet<>();
        if (property == null) {
            return here;
        }
        for (String entry : property.split(",")) {
            int colon = entry.lastIndexOf(':');
            if (colon < 0 || !entry.substring(colon + 1).strip().equals(DilithiumGpuProvider.NAME)) {
                continue;
            }
            String service = entry.substring(0, colon).strip();
            for (String s : SHADOWED) {
                if (s.equalsIgnoreCase(service) || s.substring(s.indexOf('.') + 1).equalsIgnoreCase(service)) {
                    here.add(s);
                }
            }
        }
        return here;
    }

    /**
     * Logs {@link #warning()} at WARNING, once per JVM, if there is one. Called as every service
     * instance is made; it looks at the providers at most once per {@link #CHECK_INTERVAL_NANOS},
     * since the order rarely changes and the look walks every installed provider's services (in
     * the usual case, with no warning to give, it had run on every {@code getInstance}).
     */
    static void warnOnce() {
        if (WARNED.get()) {
            return;
        }
        long now = System.nanoTime();
        long due = NEXT_CHECK.get();
        if (now - due < 0 || !NEXT_CHECK.compareAndSet(due, now + CHECK_INTERVAL_NANOS)) {
            return;
        }
        String w = warning();
        if (w != null && WARNED.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.WARNING, w);
        }
    }
}
