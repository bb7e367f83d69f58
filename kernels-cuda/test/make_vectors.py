#!/usr/bin/env python3
"""Turns the shared known-answer files into the flat records the CUDA tests read.

Every record is one line of space-separated fields, byte strings in hex ('-' for empty):

  keygen <set> <seed> <pk> <sk or -> <source>
  sign   <set> <sk> <mu> <rnd> <status> <sig or -> <source>
  verify <set> <pk> <mu> <sig> <status> <source>
  shake  <128|256> <input> <output>

The kernels take mu and the signing randomness precomputed, so this script computes them the
way the Java layer does: mu = H(tr || M') with M' per FIPS 204 Algorithms 2 and 4 (pure and
HashML-DSA, with context) or the message itself for the internal interface; round 3.1 has
mu = H(tr || m) and rho' = H(K || mu) (deterministic signing); its key-generation seed zeta is
the first output of the NIST KAT generator's AES-256 CTR_DRBG seeded with the record's seed.

Usage: make_vectors.py <kat-vectors dir> <output dir>
"""
import hashlib
import json
import os
import random
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

SETS = {
    'Dilithium2': ('dilithium2', False, 4, 4), 'Dilithium3': ('dilithium3', False, 6, 5),
    'Dilithium5': ('dilithium5', False, 8, 7), 'ML-DSA-44': ('mldsa44', True, 4, 4),
    'ML-DSA-65': ('mldsa65', True, 6, 5), 'ML-DSA-87': ('mldsa87', True, 8, 7),
}
PK_BYTES = {'mldsa44': 1312, 'mldsa65': 1952, 'mldsa87': 2592,
            'dilithium2': 1312, 'dilithium3': 1952, 'dilithium5': 2592}
SIG_BYTES = {'mldsa44': 2420, 'mldsa65': 3309, 'mldsa87': 4627,
             'dilithium2': 2420, 'dilithium3': 3293, 'dilithium5': 4595}

# HashML-DSA pre-hash functions and their DER-encoded OIDs (FIPS 204 Algorithm 4).
NIST_HASH_ARC = bytes.fromhex('06096086480165030402')
PREHASH = {
    'SHA2-224': (lambda m: hashlib.sha224(m).digest(), 0x04),
    'SHA2-256': (lambda m: hashlib.sha256(m).digest(), 0x01),
    'SHA2-384': (lambda m: hashlib.sha384(m).digest(), 0x02),
    'SHA2-512': (lambda m: hashlib.sha512(m).digest(), 0x03),
    'SHA2-512/224': (lambda m: hashlib.new('sha512_224', m).digest(), 0x05),
    'SHA2-512/256': (lambda m: hashlib.new('sha512_256', m).digest(), 0x06),
    'SHA3-224': (lambda m: hashlib.sha3_224(m).digest(), 0x07),
    'SHA3-256': (lambda m: hashlib.sha3_256(m).digest(), 0x08),
    'SHA3-384': (lambda m: hashlib.sha3_384(m).digest(), 0x09),
    'SHA3-512': (lambda m: hashlib.sha3_512(m).digest(), 0x0A),
    'SHAKE-128': (lambda m: hashlib.shake_128(m).digest(32), 0x0B),
    'SHAKE-256': (lambda m: hashlib.shake_256(m).digest(64), 0x0C),
}


def h(data, n):
    return hashlib.shake_256(data).digest(n)


def hx(b):
    return b.hex() if b else '-'


def mprime(message, context, prehash):
    """M' of ML-DSA.Sign / HashML-DSA.Sign (FIPS 204 Algorithms 2 and 4)."""
    if prehash is None:
        return b'\x00' + bytes([len(context)]) + context + message
    fn, oid = PREHASH[prehash]
    return b'\x01' + bytes([len(context)]) + context + NIST_HASH_ARC + bytes([oid]) + fn(message)


class CtrDrbg:
    """NIST SP 800-90A AES-256 CTR_DRBG without derivation function, as in PQCgenKAT's rng.c."""

    def __init__(self, entropy48):
        self.key = bytes(32)
        self.v = bytes(16)
        self._update(entropy48)

    def _block(self):
        self.v = ((int.from_bytes(self.v, 'big') + 1) % (1 << 128)).to_bytes(16, 'big')
        enc = Cipher(algorithms.AES(self.key), modes.ECB()).encryptor()
        return enc.update(self.v) + enc.finalize()

    def _update(self, provided):
        temp = b''.join(self._block() for _ in range(3))
        if provided is not None:
            temp = bytes(a ^ b for a, b in zip(temp, provided))
        self.key, self.v = temp[:32], temp[32:]

    def random_bytes(self, n):
        out = b''
        while len(out) < n:
            out += self._block()
        self._update(None)
        return out[:n]


def read_rsp(path):
    records, cur = [], {}
    for line in open(path):
        line = line.strip()
        if line.startswith('count'):
            if cur:
                records.append(cur)
            cur = {}
        if '=' in line:
            k, v = (s.strip() for s in line.split('=', 1))
            cur[k] = v
    if cur:
        records.append(cur)
    return records


def r31(kat_dir, out):
    n = 0
    for level in (2, 3, 5):
        tag = 'dilithium%d' % level
        for r in read_rsp(os.path.join(kat_dir, 'dilithium-r31', 'PQCsignKAT_Dilithium%d.rsp' % level)):
            pk, sk = bytes.fromhex(r['pk']), bytes.fromhex(r['sk'])
            msg = bytes.fromhex(r['msg']) if int(r['mlen']) else b''
            sig = bytes.fromhex(r['sm'])[:SIG_BYTES[tag]]
            zeta = CtrDrbg(bytes.fromhex(r['seed'])).random_bytes(32)
            tr = h(pk, 32)
            mu = h(tr + msg, 64)
            rhoprime = h(sk[32:64] + mu, 64)
            src = 'r31-%s-%s' % (tag, r['count'])
            out.append('keygen %s %s %s %s %s' % (tag, zeta.hex(), pk.hex(), sk.hex(), src))
            out.append('sign %s %s %s %s 0 %s %s' % (tag, sk.hex(), mu.hex(), rhoprime.hex(), sig.hex(), src))
            out.append('verify %s %s %s %s 0 %s' % (tag, pk.hex(), mu.hex(), sig.hex(), src))
            n += 3
    return n


def acvp_groups(kat_dir, name):
    d = os.path.join(kat_dir, 'acvp', name)
    prompt = json.load(open(os.path.join(d, 'prompt.json')))
    expected = json.load(open(os.path.join(d, 'expectedResults.json')))
    answers = {(g['tgId'], t['tcId']): t for g in expected['testGroups'] for t in g['tests']}
    for g in prompt['testGroups']:
        for t in g['tests']:
            yield g, t, answers[(g['tgId'], t['tcId'])]


def acvp_mu(g, t, tr):
    if g.get('externalMu'):
        return bytes.fromhex(t['mu'])
    msg = bytes.fromhex(t['message'])
    if g['signatureInterface'] == 'internal':
        return h(tr + msg, 64)
    ctx = bytes.fromhex(t.get('context', ''))
    pre = t.get('hashAlg') if g.get('preHash') == 'preHash' else None
    return h(tr + mprime(msg, ctx, pre), 64)


def acvp(kat_dir, out):
    n = 0
    for g, t, a in acvp_groups(kat_dir, 'ML-DSA-keyGen-FIPS204'):
        tag = SETS[g['parameterSet']][0]
        out.append('keygen %s %s %s %s acvp-keygen-%d' % (tag, t['seed'], a['pk'], a['sk'], t['tcId']))
        n += 1
    for g, t, a in acvp_groups(kat_dir, 'ML-DSA-sigGen-FIPS204'):
        tag = SETS[g['parameterSet']][0]
        sk = bytes.fromhex(t['sk'])
        mu = acvp_mu(g, t, sk[64:128])
        rnd = bytes(32) if g['deterministic'] else bytes.fromhex(t['rnd'])
        out.append('sign %s %s %s %s 0 %s acvp-siggen-%d' % (tag, sk.hex(), mu.hex(), rnd.hex(), a['signature'], t['tcId']))
        n += 1
    for g, t, a in acvp_groups(kat_dir, 'ML-DSA-sigVer-FIPS204'):
        tag = SETS[g['parameterSet']][0]
        pk = bytes.fromhex(t['pk'])
        mu = acvp_mu(g, t, h(pk, 64))
        status = 0 if a['testPassed'] else 1
        out.append('verify %s %s %s %s %d acvp-sigver-%d' % (tag, pk.hex(), mu.hex(), t['signature'], status, t['tcId']))
        n += 1
    return n


def wycheproof(kat_dir, out):
    """Fixed-size cases only: wrong lengths and over-long contexts are the Java layer's business."""
    n = 0
    for kl in ('44', '65', '87'):
        tag = 'mldsa' + kl
        d = json.load(open(os.path.join(kat_dir, 'wycheproof', 'mldsa_%s_verify_test.json' % kl)))
        for g in d['testGroups']:
            pk = bytes.fromhex(g['publicKey'])
            if len(pk) != PK_BYTES[tag]:
                continue
            for t in g['tests']:
                ctx = bytes.fromhex(t.get('ctx', ''))
                sig = bytes.fromhex(t['sig'])
                if len(sig) != SIG_BYTES[tag] or len(ctx) > 255:
                    continue
                mu = h(h(pk, 64) + mprime(bytes.fromhex(t['msg']), ctx, None), 64)
                status = 0 if t['result'] == 'valid' else 1
                out.append('verify %s %s %s %s %d wycheproof-verify-%s-%d' % (tag, pk.hex(), mu.hex(), sig.hex(), status, kl, t['tcId']))
                n += 1
        d = json.load(open(os.path.join(kat_dir, 'wycheproof', 'mldsa_%s_sign_noseed_test.json' % kl)))
        for g in d['testGroups']:
            sk = bytes.fromhex(g['privateKey'])
            if len(sk) != {'44': 2560, '65': 4032, '87': 4896}[kl]:
                continue
            for t in g['tests']:
                if 'mu' not in t:
                    continue
                rnd = bytes.fromhex(t['rnd']) if 'rnd' in t else bytes(32)
                if t['result'] == 'valid':
                    out.append('sign %s %s %s %s 0 %s wycheproof-sign-%s-%d' % (tag, sk.hex(), t['mu'], rnd.hex(), t['sig'], kl, t['tcId']))
                elif 'InvalidPrivateKey' in t['flags']:
                    out.append('sign %s %s %s %s 2 - wycheproof-sign-%s-%d' % (tag, sk.hex(), t['mu'], rnd.hex(), kl, t['tcId']))
                else:
                    continue
                n += 1
        d = json.load(open(os.path.join(kat_dir, 'wycheproof', 'mldsa_%s_sign_seed_test.json' % kl)))
        seen = set()
        for g in d['testGroups']:
            if g['privateSeed'] in seen or len(bytes.fromhex(g['privateSeed'])) != 32:
                continue
            seen.add(g['privateSeed'])
            out.append('keygen %s %s %s - wycheproof-keygen-%s-%d' % (tag, g['privateSeed'], g['publicKey'], kl, len(seen)))
            n += 1
    return n


def shake(out):
    rng = random.Random(204)
    n = 0
    for bits in (128, 256):
        for length in list(range(0, 300, 7)) + [135, 136, 137, 167, 168, 169, 271, 272, 273, 1312, 2592]:
            data = bytes(rng.getrandbits(8) for _ in range(length))
            fn = hashlib.shake_128 if bits == 128 else hashlib.shake_256
            outlen = rng.choice([1, 32, 64, 136, 168, 200, 500])
            out.append('shake %d %s %s' % (bits, hx(data), fn(data).digest(outlen).hex()))
            n += 1
    return n


def main():
    kat_dir, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    lines = []
    counts = {'r3.1': r31(kat_dir, lines), 'acvp': acvp(kat_dir, lines),
              'wycheproof': wycheproof(kat_dir, lines), 'shake': shake(lines)}
    with open(os.path.join(out_dir, 'vectors.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('wrote', os.path.join(out_dir, 'vectors.txt'), counts)


if __name__ == '__main__':
    main()
