package io.dilithiumgpu.fuzz;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.spec.MLDSAParameterSpec;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.Signature;
import java.security.SignatureException;
import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

/**
 * Signing through any of our Signature services with any parameter spec and context: either a
 * checked refusal ({@link InvalidAlgorithmParameterException} for the spec, {@link
 * InvalidKeyException} for a key of another set or family, {@link SignatureException} for an
 * external μ that is not 64 bytes), or a signature that verifies with the same service and spec
 * (and, when deterministic, comes out the same twice). Anything else is a finding.
 *
 * <p>Input: service, set, deterministic, external μ, pre-hash, whether to set a spec at all,
 * whether to set it before or after initSign, the context, then the message.
 */
// Jazzer takes a @Timeout as the limit of a whole fuzzing run (and per input, which the build's
// -timeout replaces): above the longest run of profile fuzz-long.
@Timeout(value = 3, unit = TimeUnit.HOURS)
class SignFuzzTest {
    @FuzzTest
    void sign(byte[] data) throws Exception {
        FuzzInput in = new FuzzInput(data);
        String service = in.choose(FuzzFixtures.NAMES);
        ParameterSet p = in.choose(FuzzFixtures.SETS);
        boolean deterministic = in.flag();
        boolean externalMu = in.flag();
        String preHash = in.choose(FuzzFixtures.PRE_HASHES);
        boolean withSpec = in.flag();
        boolean specFirst = in.flag();
        byte[] context = in.choose(4) == 0 ? in.longField() : in.field();
        byte[] message = in.rest();
        MLDSAParameterSpec spec = MLDSAParameterSpec.builder().context(context).deterministic(deterministic)
                .externalMu(externalMu).preHash(preHash).build();

        byte[] signature = sign(service, p, withSpec ? spec : null, specFirst, message);
        if (signature == null) {
            return;
        }
        Signature verifier = Signature.getInstance(service, PROVIDER);
        if (withSpec) {
            verifier.setParameter(spec);
        }
        verifier.initVerify(FuzzFixtures.publicKey(p));
        verifier.update(message);
        assertTrue(verifier.verify(signature), "a signature did not verify with its own service and spec");
        if (deterministic && withSpec) {
            assertArrayEquals(signature, sign(service, p, spec, specFirst, message), "deterministic signing varied");
        }
    }

    /** The signature, or null for a checked refusal. */
    private static byte[] sign(String service, ParameterSet p, MLDSAParameterSpec spec, boolean specFirst,
                               byte[] message) throws Exception {
        Signature signer;
        try {
            signer = Signature.getInstance(service, PROVIDER);
        } catch (NoSuchAlgorithmException notOurs) {
            return null;
        }
        try {
            if (spec != null && specFirst) {
                signer.setParameter(spec);
            }
            signer.initSign(FuzzFixtures.privateKey(p));
            if (spec != null && !specFirst) {
                signer.setParameter(spec);
            }
            signer.update(message);
            return signer.sign();
        } catch (InvalidKeyException | InvalidAlgorithmParameterException | SignatureException refused) {
            return null;
        }
    }
}
