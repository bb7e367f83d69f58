/* Reader of the flat vector records written by make_vectors.py (shared by the host tests and the device harness). */
#ifndef DILITHIUMGPU_TEST_VECTORS_H
#define DILITHIUMGPU_TEST_VECTORS_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dgtest {

using Bytes = std::vector<uint8_t>;

inline Bytes unhex(const std::string& s) {
    Bytes b;
    if (s == "-") return b;
    b.reserve(s.size() / 2);
    for (size_t i = 0; i + 1 < s.size(); i += 2) b.push_back((uint8_t)std::stoul(s.substr(i, 2), nullptr, 16));
    return b;
}

inline std::string hex(const uint8_t* p, size_t n) {
    static const char* d = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; ++i) {
        s += d[p[i] >> 4];
        s += d[p[i] & 15];
    }
    return s;
}

struct Record {
    std::string op, set, source;
    Bytes a, b, c, d;   // keygen: seed pk sk; sign: sk mu rnd sig; verify: pk mu sig; shake: in out
    int status = 0;
    int shake_bits = 0;
};

inline std::vector<Record> read_vectors(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "cannot read %s (run test/make_vectors.py first)\n", path.c_str());
        std::exit(2);
    }
    std::vector<Record> out;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        Record r;
        ls >> r.op;
        std::string f1, f2, f3, f4, f5;
        if (r.op == "keygen") {
            ls >> r.set >> f1 >> f2 >> f3 >> r.source;
            r.a = unhex(f1); r.b = unhex(f2); r.c = unhex(f3);
        } else if (r.op == "sign") {
            ls >> r.set >> f1 >> f2 >> f3 >> r.status >> f4 >> r.source;
            r.a = unhex(f1); r.b = unhex(f2); r.c = unhex(f3); r.d = unhex(f4);
        } else if (r.op == "verify") {
            ls >> r.set >> f1 >> f2 >> f3 >> r.status >> r.source;
            r.a = unhex(f1); r.b = unhex(f2); r.c = unhex(f3);
        } else if (r.op == "shake") {
            ls >> r.shake_bits >> f1 >> f2;
            r.a = unhex(f1); r.b = unhex(f2);
        } else {
            continue;
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace dgtest

#endif
