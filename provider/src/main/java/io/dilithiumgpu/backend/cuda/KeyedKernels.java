package io.dilithiumgpu.backend.cuda;

/**
 * The key cache's entry points of one parameter set on one device (CACHE_ABI), with the slot
 * sizes the module publishes ({@code slot_bytes_sk_<set>}, {@code slot_bytes_pk_<set>}, read once
 * when the module loads).
 *
 * @param expandSk    {@code expand_sk_<set>}: packed private keys into slots
 * @param expandPk    {@code expand_pk_<set>}: packed public keys into slots
 * @param signKeyed   {@code sign_keyed_<set>}
 * @param verifyKeyed {@code verify_keyed_<set>}
 * @param signWide    {@code sign_keyed_wide_<set>}: {@code sign_keyed_<set>} with a group of warps per task
 * @param signHelped  {@code sign_keyed_helped_<set>}: {@code sign_keyed_<set>} whose warps without a task help
 *                    the tasks still signing, for a launch that holds a whole one-key call
 * @param skSlotBytes bytes of one private-key slot, a positive multiple of 256
 * @param pkSlotBytes bytes of one public-key slot, a positive multiple of 256
 */
record KeyedKernels(Kernel expandSk, Kernel expandPk, Kernel signKeyed, Kernel verifyKeyed, Kernel signWide,
                    Kernel signHelped, int skSlotBytes, int pkSlotBytes) {

    KeyedKernels {
        for (int bytes : new int[] {skSlotBytes, pkSlotBytes}) {
            if (bytes <= 0 || bytes % BatchLayout.ALIGNMENT != 0) {
                throw new IllegalArgumentException("slot size " + bytes + " is not a positive multiple of "
                        + BatchLayout.ALIGNMENT);
            }
        }
    }

    Kernel expand(boolean secret) {
        return secret ? expandSk : expandPk;
    }

    Kernel keyed(boolean secret) {
        return secret ? signKeyed : verifyKeyed;
    }

    /** Every entry point, for what spans them all (the workspace a launch may touch). */
    Kernel[] all() {
        return new Kernel[] {expandSk, expandPk, signKeyed, verifyKeyed, signWide, signHelped};
    }

    int slotBytes(boolean secret) {
        return secret ? skSlotBytes : pkSlotBytes;
    }
}
