package io.dilithiumgpu.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dilithiumgpu.DilithiumGpuProvider;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.route.RouteSetting;
import io.dilithiumgpu.route.Router;
import io.dilithiumgpu.spec.RawPrivateKeySpec;
import io.dilithiumgpu.spec.SeedPrivateKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The JDK route: every signing vector the JDK's ML-DSA could take, that is every one that gives a
 * message for pure ML-DSA with an empty context (ACVP sigGen of the external interface; Wycheproof
 * sign files, valid and invalid), signed through plain JCA calls with {@code dilithiumgpu.route=jdk}:
 * every signature must equal the vector's, every invalid vector must be refused. The randomness is
 * the vector's rnd (32 zero bytes for a deterministic vector) from a {@link FixedRandom} given to
 * {@code initSign}, so hedged signing reproduces it and the JDK is held to this provider's rule of
 * one draw of 32 bytes. On a JDK with ML-DSA of its own exactly the signatures with a valid key must
 * have gone to the JDK; on older JDKs none (they run on the caller's thread).
 *
 * <p>Every vector through the direct and batch routes, at the level of μ, is {@link RouteKatTest}'s.
 */
class MessageRouteKatTest {
    private static final Provider PROVIDER = new DilithiumGpuProvider();
    private static KatFiles files;

    /** One signing vector with a message. */
    private record Case(String id, ParameterSet params, byte[] seed, byte[] privateKey, MessageInput.Pure message,
                        byte[] rnd, byte[] signature, boolean valid) {}

    @BeforeAll
    static void open() {
        files = KatFiles.open(KatDirectory.locate());
    }

    @AfterEach
    void unpin() {
        System.clearProperty(RouteSetting.PROPERTY);
    }

    @Test
    void everyVectorTheJdkCouldSignOnTheJdkRoute() throws Exception {
        List<Case> cases = cases();
        Router router = Router.shared();
        long direct = router.getDirectCount();
        long batch = router.getBatchCount();
        long jdk = router.getJdkCount();
        System.setProperty(RouteSetting.PROPERTY, "jdk");
        List<String> failures = new ArrayList<>();
        int signed = 0;
        for (Case c : cases) {
            byte[] produced;
            try {
                produced = sign(c);
            } catch (GeneralSecurityException e) {
                if (c.valid()) {
                    failures.add(c.id() + ": refused: " + e);
                }
                continue;
            }
            if (!c.valid()) {
                failures.add(c.id() + ": signed an invalid vector");
            } else if (c.signature().length > 0 && !Arrays.equals(c.signature(), produced)) {
                failures.add(c.id() + ": signature differs from the vector's");
            } else {
                signed++;
            }
        }
        assertEquals(List.of(), failures);
        assertTrue(signed > 300 && signed < cases.size(), signed + " of " + cases.size() + " vectors signed");
        assertEquals(0, router.getBatchCount() - batch, "calls went to the batcher");
        long jdkCalls = router.getJdkCount() - jdk;
        long directCalls = router.getDirectCount() - direct;
        if (jdkHasMlDsa()) {
            assertEquals(signed, jdkCalls, "signatures the JDK computed");
        } else {
            assertEquals(0, jdkCalls, "this JDK has no ML-DSA");
            assertEquals(signed, directCalls, "signatures computed on the caller's thread");
        }
    }

    private static boolean jdkHasMlDsa() {
        Provider sun = java.security.Security.getProvider("SUN");
        return sun != null && sun.getService("Signature", "ML-DSA-44") != null;
    }

    private static byte[] sign(Case c) throws GeneralSecurityException {
        String set = c.params().algorithmName();
        KeyFactory kf = KeyFactory.getInstance(set, PROVIDER);
        PrivateKey key = c.seed() != null ? kf.generatePrivate(new SeedPrivateKeySpec(set, c.seed()))
                : kf.generatePrivate(new RawPrivateKeySpec(set, c.privateKey()));
        Signature s = Signature.getInstance(set, PROVIDER);
        FixedRandom random = new FixedRandom(c.rnd());
        s.initSign(key, random);
        s.update(c.message().message());
        byte[] signature = s.sign();
        if (!random.drawn()) {
            fail(c.id() + ": signed without drawing rnd");
        }
        return signature;
    }

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (String folder : new String[] {"ML-DSA-sigGen-FIPS204", "ML-DSA-sigGen-FIPS204-tr1"}) {
            String name = "acvp/" + folder;
            for (AcvpReader.SigGenGroup g : AcvpReader.sigGen(files.read(name + "/prompt.json"),
                    files.read(name + "/expectedResults.json"))) {
                for (AcvpReader.SigGenCase c : g.cases()) {
                    if (c.message() instanceof MessageInput.Pure m && m.context().length == 0) {
                        cases.add(new Case(name + " tcId " + c.tcId(), g.params(), c.seed(), c.privateKey(),
                                m, rnd(c.rnd()), c.signature(), true));
                    }
                }
            }
        }
        for (int level : new int[] {44, 65, 87}) {
            for (String kind : new String[] {"seed", "noseed"}) {
                String path = "wycheproof/mldsa_" + level + "_sign_" + kind + "_test.json";
                WycheproofReader.SignFile file = WycheproofReader.sign(files.read(path), path);
                for (WycheproofReader.SignGroup g : file.groups()) {
                    for (WycheproofReader.SignCase c : g.cases()) {
                        if (c.message() instanceof MessageInput.Pure m && m.context().length == 0) {
                            cases.add(new Case(path + " tcId " + c.tcId(), file.params(), g.privateSeed(),
                                    g.privateKey(), m, rnd(c.rnd()), c.signature(), c.result() != Expected.INVALID));
                        }
                    }
                }
            }
        }
        return cases;
    }

    private static byte[] rnd(byte[] vectorRnd) {
        return vectorRnd != null ? vectorRnd : new byte[32];
    }
}
