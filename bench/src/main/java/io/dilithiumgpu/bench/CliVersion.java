package io.dilithiumgpu.bench;

import io.dilithiumgpu.DilithiumGpuProvider;
import picocli.CommandLine.IVersionProvider;

import java.security.Provider;

/** {@code --version}: the version the build gave the provider, and the JVM it runs on. */
final class CliVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        Provider provider = new DilithiumGpuProvider();
        return new String[] {
                "dilithium-gpu " + provider.getVersionStr() + " (provider " + provider.getName() + ")",
                Host.describe()};
    }
}
