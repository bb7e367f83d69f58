package io.dilithiumgpu.fuzz;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.spec.MLDSAParameterSpec;
import io.dilithiumgpu.spec.RawPublicKeySpec;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.spec.InvalidKeySpecException;
import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

/**
 * Verification with any key and any signature, through any of our Signature services with any
 * parameter spec: the answer is {@code true}, {@code false}, or a checked refusal of the key
 * ({@link InvalidKeyException}), the spec ({@link InvalidAlgorithmParameterException}) or the call
 * ({@link SignatureException}); anything else is a finding. The fixed key's valid signature of the
 * fixed message verifies, and with one bit flipped it does not.
 *
 * <p>Input: service, set, key source (the fixed key, raw bytes, or another implementation's
 * X.509 key), signature source (the valid one, the valid one with a bit flipped, or bytes),
 * context, pre-hash, external μ, then the fields.
 */
// Jazzer takes a @Timeout as the limit of a whole fuzzing run (and per input, which the build's
// -timeout replaces): above the longest run of profile fuzz-long.
@Timeout(value = 3, unit = TimeUnit.HOURS)
class VerifyFuzzTest {
    @FuzzTest
    void verify(byte[] data) throws Exception {
        FuzzInput in = new FuzzInput(data);
        String service = in.choose(FuzzFixtures.NAMES);
        ParameterSet p = in.choose(FuzzFixtures.SETS);
        int keySource = in.choose(3);
        int signatureSource = in.choose(3);
        int flipAt = in.choose(256) << 8 | in.choose(256);
        byte[] context = in.field();
        boolean withContext = in.flag();
        String preHash = in.choose(FuzzFixtures.PRE_HASHES);
        boolean externalMu = in.flag();
        boolean withSpec = in.flag();
        byte[] keyBytes = in.longField();
        byte[] signatureBytes = in.longField();
        byte[] message = signatureSource == 2 ? in.rest() : FuzzFixtures.MESSAGE;

        Signature verifier;
        try {
            verifier = Signature.getInstance(service, PROVIDER);
        } catch (NoSuchAlgorithmException notOurs) {
            return;
        }
        PublicKey key;
        switch (keySource) {
            case 0:
                key = FuzzFixtures.publicKey(p);
                break;
            case 1:
                try {
                    key = KeyFactory.getInstance(p.algorithmName(), PROVIDER)
                            .generatePublic(new RawPublicKeySpec(p.algorithmName(), keyBytes));
                } catch (InvalidKeySpecException refused) {
                    return;
                }
                break;
            default:
                key = FuzzFixtures.foreignPublic(p.algorithmName(), "X.509", keyBytes);
        }
        byte[] signature;
        switch (signatureSource) {
            case 0: signature = FuzzFixtures.signature(p); break;
            case 1:
                signature = FuzzFixtures.signature(p);
                signature[flipAt % signature.length] ^= (byte) (1 << (flipAt % 8));
                break;
            default: signature = signatureBytes;
        }
        MLDSAParameterSpec spec = MLDSAParameterSpec.builder().context(withContext ? context : null)
                .preHash(preHash).externalMu(externalMu).build();
        try {
            if (withSpec) {
                verifier.setParameter(spec);
            }
            verifier.initVerify(key);
        } catch (InvalidKeyException | InvalidAlgorithmParameterException refused) {
            return;
        }
        boolean valid;
        try {
            verifier.update(message);
            valid = verifier.verify(signature);
        } catch (SignatureException refused) {
            return;
        }
        boolean pure = !withSpec || (!withContext || context.length == 0) && preHash == null && !externalMu;
        boolean plainService = service.equals(p.algorithmName())
                || service.equals(p.isFips204() ? "ML-DSA" : "Dilithium");
        if (keySource == 0 && signatureSource < 2 && pure && plainService) {
            assertEquals(signatureSource == 0, valid, signatureSource == 0
                    ? "the valid signature did not verify" : "a signature with a flipped bit verified");
        }
    }
}
