package io.dilithiumgpu.fuzz;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.spec.RawPrivateKeySpec;
import io.dilithiumgpu.spec.RawPublicKeySpec;
import io.dilithiumgpu.spec.SeedPrivateKeySpec;

import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.spec.DSAPublicKeySpec;
import java.security.spec.EncodedKeySpec;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

/**
 * The KeyFactory's other doors: {@code translateKey} and {@code getKeySpec} with another
 * implementation's key (any name, format and encoding), the raw and seed specs with any bytes,
 * and {@code getKeySpec} of a key destroyed in between. Refusals are {@link InvalidKeyException}
 * and {@link InvalidKeySpecException}; anything else is a finding. Input: a choice of factory,
 * key kind, algorithm, format, spec class and parameter-set name, a destroy flag, then the
 * encoding or raw bytes.
 */
// Jazzer takes a @Timeout as the limit of a whole fuzzing run (and per input, which the build's
// -timeout replaces): above the longest run of profile fuzz-long.
@Timeout(value = 3, unit = TimeUnit.HOURS)
class KeySpecFuzzTest {
    private static final List<Class<? extends KeySpec>> SPECS = List.of(X509EncodedKeySpec.class,
            PKCS8EncodedKeySpec.class, RawPublicKeySpec.class, RawPrivateKeySpec.class, SeedPrivateKeySpec.class,
            EncodedKeySpec.class, KeySpec.class, DSAPublicKeySpec.class);

    @FuzzTest
    void translateAndGetKeySpec(byte[] data) throws Exception {
        FuzzInput in = new FuzzInput(data);
        KeyFactory kf;
        try {
            kf = KeyFactory.getInstance(in.choose(FuzzFixtures.NAMES), PROVIDER);
        } catch (NoSuchAlgorithmException notOurs) {
            return;
        }
        boolean isPrivate = in.flag();
        String algorithm = in.choose(FuzzFixtures.NAMES);
        String format = in.choose(FuzzFixtures.FORMATS);
        Class<? extends KeySpec> specClass = in.choose(SPECS);
        String setName = in.choose(FuzzFixtures.NAMES);
        boolean destroy = in.flag();
        byte[] bytes = in.rest();

        Key foreign = isPrivate ? FuzzFixtures.foreignPrivate(algorithm, format, bytes)
                : FuzzFixtures.foreignPublic(algorithm, format, bytes);
        Key translated = null;
        try {
            translated = kf.translateKey(foreign);
        } catch (InvalidKeyException refused) {
            // the checked refusal
        }
        try {
            KeySpec spec = kf.getKeySpec(foreign, specClass);
            assertTrue(translated != null, "getKeySpec gave a spec of a key translateKey refused");
            assertTrue(specClass.isInstance(spec));
        } catch (InvalidKeySpecException refused) {
            // the checked refusal
        }
        if (translated instanceof DilithiumPrivateKey && destroy) {
            ((DilithiumPrivateKey) translated).destroy();
            try {
                kf.getKeySpec(translated, specClass);
                throw new AssertionError("a destroyed key gave a key spec");
            } catch (InvalidKeySpecException refused) {
                // the checked refusal
            }
        }

        KeySpec raw;
        switch (specClass.getSimpleName()) {
            case "RawPublicKeySpec": raw = new RawPublicKeySpec(setName, bytes); break;
            case "RawPrivateKeySpec": raw = new RawPrivateKeySpec(setName, bytes); break;
            case "SeedPrivateKeySpec": raw = new SeedPrivateKeySpec(setName, bytes); break;
            case "DSAPublicKeySpec": raw = new DSAPublicKeySpec(BigInteger.ONE, BigInteger.TWO, BigInteger.ONE,
                    new BigInteger(1, bytes)); break;
            default: raw = new X509EncodedKeySpec(bytes); break;
        }
        if (destroy && raw instanceof javax.security.auth.Destroyable) {
            ((javax.security.auth.Destroyable) raw).destroy();
        }
        Key made = null;
        try {
            made = isPrivate ? kf.generatePrivate(raw) : kf.generatePublic(raw);
        } catch (InvalidKeySpecException refused) {
            // the checked refusal
        }
        if (made != null && raw instanceof RawPrivateKeySpec) {
            ParameterSet p = ((DilithiumPrivateKey) made).parameterSet();
            byte[] expanded = ((DilithiumPrivateKey) made).getExpandedKey();
            assertTrue(Arrays.equals(expanded, bytes), "the raw key spec's bytes are the key");
            assertEquals(p.privateKeyBytes(), bytes.length);
        }
    }
}
