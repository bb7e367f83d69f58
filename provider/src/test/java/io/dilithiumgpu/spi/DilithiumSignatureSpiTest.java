package io.dilithiumgpu.spi;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PreHash;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.security.SignatureException;
import java.util.List;

/**
 * The SPI itself, without {@code java.security.Signature} in front: {@code Signature} refuses
 * update, sign and verify before init with its own state check, so only a direct call reaches
 * {@link DilithiumSignature}'s {@code requireInitialized}.
 */
class DilithiumSignatureSpiTest {
    static List<Arguments> services() {
        return List.of(Arguments.of(Family.ML_DSA, ParameterSet.ML_DSA_65, null),
                Arguments.of(Family.ML_DSA, null, null),
                Arguments.of(Family.ML_DSA, ParameterSet.ML_DSA_44, PreHash.SHA2_512),
                Arguments.of(Family.ML_DSA, null, PreHash.SHA2_512),
                Arguments.of(Family.DILITHIUM, ParameterSet.DILITHIUM2, null),
                Arguments.of(Family.DILITHIUM, null, null));
    }

    @ParameterizedTest
    @MethodSource("services")
    void freshSpiRefusesUpdateSignAndVerifyAsNotInitialized(Family family, ParameterSet set, PreHash preHash) {
        List<Executable> calls = List.of(
                () -> fresh(family, set, preHash).engineUpdate((byte) 1),
                () -> fresh(family, set, preHash).engineUpdate(new byte[8], 0, 8),
                () -> fresh(family, set, preHash).engineSign(),
                () -> fresh(family, set, preHash).engineVerify(new byte[10]),
                () -> fresh(family, set, preHash).engineVerify(null));
        for (Executable call : calls) {
            SignatureException e = assertThrows(SignatureException.class, call);
            assertTrue(e.getMessage().contains("not initialized"), e.getMessage());
        }
    }

    @ParameterizedTest
    @MethodSource("services")
    void spiStaysUninitializedAfterParametersAreSet(Family family, ParameterSet set, PreHash preHash) throws Exception {
        DilithiumSignature spi = fresh(family, set, preHash);
        spi.engineSetParameter(null);
        SignatureException e = assertThrows(SignatureException.class, () -> spi.engineUpdate(new byte[1], 0, 1));
        assertTrue(e.getMessage().contains("not initialized"), e.getMessage());
        e = assertThrows(SignatureException.class, spi::engineSign);
        assertTrue(e.getMessage().contains("not initialized"), e.getMessage());
    }

    private static DilithiumSignature fresh(Family family, ParameterSet set, PreHash preHash) {
        return new DilithiumSignature(PROVIDER, family, set, preHash);
    }
}
