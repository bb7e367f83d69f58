package io.dilithiumgpu.fuzz;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.key.Oids;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;

import java.io.IOException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

/**
 * X.509 SubjectPublicKeyInfo decoding through both families' KeyFactories: every input is either
 * an {@link InvalidKeySpecException} or a key whose canonical encoding it is (absent parameters, or
 * the NULL that docs/encodings.md accepts). Any other exception is a finding.
 */
// Jazzer takes a @Timeout as the limit of a whole fuzzing run (and per input, which the build's
// -timeout replaces): above the longest run of profile fuzz-long.
@Timeout(value = 3, unit = TimeUnit.HOURS)
class X509FuzzTest {
    @FuzzTest
    void generatePublic(byte[] encoding) throws Exception {
        int accepted = 0;
        for (String family : new String[] {"ML-DSA", "Dilithium"}) {
            PublicKey key;
            try {
                key = KeyFactory.getInstance(family, PROVIDER).generatePublic(new X509EncodedKeySpec(encoding));
            } catch (InvalidKeySpecException refused) {
                continue;
            }
            accepted++;
            DilithiumPublicKey ours = (DilithiumPublicKey) key;
            byte[] canonical = ours.getEncoded();
            // A key OID or a HashML-DSA OID (read as the plain key), parameters absent or NULL.
            String[] oids = {Oids.keyOid(ours.parameterSet()), hashOid(ours)};
            boolean matches = false;
            for (String oid : oids) {
                if (oid == null) {
                    continue;
                }
                matches |= Arrays.equals(encoding, spki(oid, false, ours.getRawKey()))
                        || Arrays.equals(encoding, spki(oid, true, ours.getRawKey()));
            }
            assertTrue(matches, "accepted an encoding that is not one of the DER forms of its key");
            assertEquals(key, KeyFactory.getInstance(family, PROVIDER)
                    .generatePublic(new X509EncodedKeySpec(canonical)));
        }
        assertTrue(accepted <= 1, "a key of both families");
    }

    private static String hashOid(DilithiumPublicKey key) {
        return key.parameterSet().isFips204() ? Oids.hashMlDsaWithSha512Oid(key.parameterSet()) : null;
    }

    private static byte[] spki(String oid, boolean nullParameters, byte[] raw) throws IOException {
        AlgorithmIdentifier algorithm = nullParameters
                ? new AlgorithmIdentifier(new ASN1ObjectIdentifier(oid), DERNull.INSTANCE)
                : new AlgorithmIdentifier(new ASN1ObjectIdentifier(oid));
        return new SubjectPublicKeyInfo(algorithm, raw).getEncoded(ASN1Encoding.DER);
    }
}
