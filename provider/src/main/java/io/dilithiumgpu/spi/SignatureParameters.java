package io.dilithiumgpu.spi;

import io.dilithiumgpu.spec.MLDSAParameterSpec;

import java.io.IOException;
import java.security.AlgorithmParametersSpi;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidParameterSpecException;

/**
 * {@code AlgorithmParameters} holding an {@link MLDSAParameterSpec}, as returned by
 * {@code Signature.getParameters()}. No standard ASN.1 form exists for these parameters (context,
 * determinism and external μ are per-call options in FIPS 204, not part of an AlgorithmIdentifier),
 * so the encoded forms are refused with an {@link IOException}.
 */
public final class SignatureParameters extends AlgorithmParametersSpi {
    private MLDSAParameterSpec spec;

    @Override
    protected void engineInit(AlgorithmParameterSpec paramSpec) throws InvalidParameterSpecException {
        if (!(paramSpec instanceof MLDSAParameterSpec)) {
            throw new InvalidParameterSpecException("expected an " + MLDSAParameterSpec.class.getName()
                    + ", got " + (paramSpec == null ? "null" : paramSpec.getClass().getName()));
        }
        spec = (MLDSAParameterSpec) paramSpec;
    }

    @Override
    protected void engineInit(byte[] params) throws IOException {
        throw new IOException("ML-DSA signature parameters have no ASN.1 encoding");
    }

    @Override
    protected void engineInit(byte[] params, String format) throws IOException {
        throw new IOException("ML-DSA signature parameters have no ASN.1 encoding");
    }

    @Override
    protected <T extends AlgorithmParameterSpec> T engineGetParameterSpec(Class<T> paramSpec)
            throws InvalidParameterSpecException {
        if (spec == null) {
            throw new InvalidParameterSpecException("parameters are not initialized");
        }
        if (!paramSpec.isAssignableFrom(MLDSAParameterSpec.class)) {
            throw new InvalidParameterSpecException("can only give an " + MLDSAParameterSpec.class.getName()
                    + ", not " + paramSpec.getName());
        }
        return paramSpec.cast(spec);
    }

    @Override
    protected byte[] engineGetEncoded() throws IOException {
        throw new IOException("ML-DSA signature parameters have no ASN.1 encoding");
    }

    @Override
    protected byte[] engineGetEncoded(String format) throws IOException {
        throw new IOException("ML-DSA signature parameters have no ASN.1 encoding");
    }

    @Override
    protected String engineToString() {
        return spec == null ? "uninitialized ML-DSA signature parameters" : spec.toString();
    }
}
