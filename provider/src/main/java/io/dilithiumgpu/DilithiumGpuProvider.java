package io.dilithiumgpu;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PreHash;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.key.Oids;
import io.dilithiumgpu.spi.DilithiumKeyFactory;
import io.dilithiumgpu.spi.DilithiumKeyPairGenerator;
import io.dilithiumgpu.spi.DilithiumSignature;
import io.dilithiumgpu.spi.Family;
import io.dilithiumgpu.spi.SignatureParameters;

import java.security.InvalidParameterException;
import java.security.Provider;
import java.security.Security;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The {@code DilithiumGPU} JCA provider: ML-DSA (FIPS 204), HashML-DSA with SHA-512, and
 * CRYSTALS-Dilithium round 3.1, with Signature, KeyPairGenerator and KeyFactory services for each
 * name of its registration table, and AlgorithmParameters for the signature parameters
 * ({@code docs/jca.md} lists the names).
 *
 * <p>Install it with {@code Security.addProvider(new DilithiumGpuProvider())}, or let
 * {@link java.util.ServiceLoader} find it. Signature services carry {@code SupportedKeyClasses} and
 * {@code SupportedKeyFormats} so that delayed provider selection picks this provider for its own keys
 * (and for other providers' keys in X.509 or PKCS#8 form, which it reads through their encodings).
 */
public final class DilithiumGpuProvider extends Provider {
    private static final long serialVersionUID = 1L;

    /** The provider name. */
    public static final String NAME = "DilithiumGPU";

    private static final String VERSION = ProviderVersion.read();
    private static final String INFO = "ML-DSA (FIPS 204), HashML-DSA and CRYSTALS-Dilithium round 3.1, "
            + "batched on CUDA GPUs or all CPU cores";

    /** One algorithm name: its family, fixed set (null: generic) and pre-hash (null: pure), and aliases. */
    private static final class Algorithm {
        final String name;
        final Family family;
        final ParameterSet set;
        final PreHash preHash;
        final List<String> aliases;

        Algorithm(String name, Family family, ParameterSet set, PreHash preHash, String... aliases) {
            this.name = name;
            this.family = family;
            this.set = set;
            this.preHash = preHash;
            List<String> all = new ArrayList<>();
            for (String alias : aliases) {
                all.add(alias);
                if (Character.isDigit(alias.charAt(0))) {
                    all.add("OID." + alias);
                }
            }
            this.aliases = List.copyOf(all);
        }
    }

    /**
     * The registration table. Each row registers a Signature, a KeyPairGenerator and a KeyFactory under
     * the same name and aliases; an alias that is an OID is also registered in its {@code OID.} form.
     * HashML-DSA key pairs and key encodings are those of the plain ML-DSA set.
     */
    private static final List<Algorithm> ALGORITHMS = List.of(
            new Algorithm("ML-DSA", Family.ML_DSA, null, null, "MLDSA"),
            new Algorithm("ML-DSA-44", Family.ML_DSA, ParameterSet.ML_DSA_44, null, "MLDSA44", Oids.ML_DSA_44),
            new Algorithm("ML-DSA-65", Family.ML_DSA, ParameterSet.ML_DSA_65, null, "MLDSA65", Oids.ML_DSA_65),
            new Algorithm("ML-DSA-87", Family.ML_DSA, ParameterSet.ML_DSA_87, null, "MLDSA87", Oids.ML_DSA_87),
            new Algorithm("HASH-ML-DSA", Family.ML_DSA, null, PreHash.SHA2_512, "HASHMLDSA"),
            new Algorithm("ML-DSA-44-WITH-SHA512", Family.ML_DSA, ParameterSet.ML_DSA_44, PreHash.SHA2_512,
                    "HASH-ML-DSA-44", "MLDSA44WITHSHA512", Oids.HASH_ML_DSA_44_WITH_SHA512),
            new Algorithm("ML-DSA-65-WITH-SHA512", Family.ML_DSA, ParameterSet.ML_DSA_65, PreHash.SHA2_512,
                    "HASH-ML-DSA-65", "MLDSA65WITHSHA512", Oids.HASH_ML_DSA_65_WITH_SHA512),
            new Algorithm("ML-DSA-87-WITH-SHA512", Family.ML_DSA, ParameterSet.ML_DSA_87, PreHash.SHA2_512,
                    "HASH-ML-DSA-87", "MLDSA87WITHSHA512", Oids.HASH_ML_DSA_87_WITH_SHA512),
            new Algorithm("Dilithium", Family.DILITHIUM, null, null),
            new Algorithm("Dilithium2", Family.DILITHIUM, ParameterSet.DILITHIUM2, null, Oids.DILITHIUM2),
            new Algorithm("Dilithium3", Family.DILITHIUM, ParameterSet.DILITHIUM3, null, Oids.DILITHIUM3),
            new Algorithm("Dilithium5", Family.DILITHIUM, ParameterSet.DILITHIUM5, null, Oids.DILITHIUM5));

    private static final Map<String, String> SIGNATURE_ATTRIBUTES = Map.of(
            "SupportedKeyClasses", DilithiumPublicKey.class.getName() + "|" + DilithiumPrivateKey.class.getName(),
            "SupportedKeyFormats", "X.509|PKCS#8");

    /**
     * The provider; the first one made in a JVM also registers the status MXBean
     * {@value StatusMXBean#NAME} ({@link StatusMXBean}), which opens nothing.
     */
    public DilithiumGpuProvider() {
        super(NAME, VERSION, INFO);
        StatusBean.registerOnce();
        for (Algorithm a : ALGORITHMS) {
            register("Signature", a.name, a.aliases, SIGNATURE_ATTRIBUTES, DilithiumSignature.class,
                    provider -> new DilithiumSignature(provider, a.family, a.set, a.preHash));
            register("KeyPairGenerator", a.name, a.aliases, Map.of(), DilithiumKeyPairGenerator.class,
                    provider -> new DilithiumKeyPairGenerator(a.family, a.set));
            register("KeyFactory", a.name, a.aliases, Map.of(), DilithiumKeyFactory.class,
                    provider -> new DilithiumKeyFactory(a.family, a.set));
        }
        for (Family f : Family.values()) {
            register("AlgorithmParameters", f.familyName(), List.of(), Map.of(), SignatureParameters.class,
                    provider -> new SignatureParameters());
        }
    }

    /**
     * Installs the provider at position 1, ahead of every other, or moves it there if it is
     * installed already, so that JCA calls that name no provider reach it (on Java 24 and later
     * {@code Security.addProvider} puts it behind the JDK's own ML-DSA).
     *
     * @return the provider now installed first
     * @throws SecurityException when a security manager forbids changing the provider list
     */
    public static Provider installFirst() {
        Provider installed = Security.getProvider(NAME);
        Provider p = installed != null ? installed : new DilithiumGpuProvider();
        if (installed != null) {
            Security.removeProvider(NAME);
        }
        Security.insertProviderAt(p, 1);
        return p;
    }

    private void register(String type, String algorithm, List<String> aliases, Map<String, String> attributes,
                          Class<?> implementation, Function<Provider, Object> factory) {
        putService(new FactoryService(this, type, algorithm, implementation.getName(), aliases, attributes, factory));
    }

    /** A service that builds its SPI with a factory instead of reflection. */
    private static final class FactoryService extends Service {
        private final Function<Provider, Object> factory;

        FactoryService(Provider provider, String type, String algorithm, String className, List<String> aliases,
                       Map<String, String> attributes, Function<Provider, Object> factory) {
            super(provider, type, algorithm, className, aliases, attributes);
            this.factory = factory;
        }

        @Override
        public Object newInstance(Object constructorParameter) {
            if (constructorParameter != null) {
                throw new InvalidParameterException(getType() + " " + getAlgorithm()
                        + " takes no constructor parameter");
            }
            ProviderOrder.warnOnce();
            return factory.apply(getProvider());
        }
    }

    /** The names under which the table registers services, for documentation and tests. */
    static List<String> algorithmNames() {
        return ALGORITHMS.stream().map(a -> a.name).collect(Collectors.toUnmodifiableList());
    }
}
