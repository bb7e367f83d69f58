package example.dilithiumgpu;

import io.dilithiumgpu.DilithiumGpu;
import io.dilithiumgpu.DilithiumGpuProvider;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;

/** Signs and verifies through plain JCA calls, then says where they ran. */
public final class Main {
    public static void main(String[] args) throws Exception {
        DilithiumGpuProvider.installFirst();
        KeyPair keys = KeyPairGenerator.getInstance("ML-DSA-65").generateKeyPair();
        byte[] message = "hello from the module path".getBytes(StandardCharsets.UTF_8);

        Signature signer = Signature.getInstance("ML-DSA-65");
        signer.initSign(keys.getPrivate());
        signer.update(message);
        byte[] signature = signer.sign();

        Signature verifier = Signature.getInstance("ML-DSA-65");
        verifier.initVerify(keys.getPublic());
        verifier.update(message);
        System.out.println(signer.getProvider().getName() + ": " + signature.length + "-byte signature, valid: "
                + verifier.verify(signature) + "; module " + DilithiumGpu.class.getModule().getName());
        System.out.print(DilithiumGpu.status());
        System.out.println(DilithiumGpu.selfTest());
    }
}
