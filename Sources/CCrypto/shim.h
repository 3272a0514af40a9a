#ifndef CANOPY_CCRYPTO_SHIM_H
#define CANOPY_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, which libcurl already loads: its SHA-256 serves the configuration and
// rule-set hashes and the page and stylesheet digests. (swift-crypto would compile BoringSSL from
// source on every CI run.)
//
// The low-level SHA256_Init/Update/Final, which OpenSSL 3 deprecates in favour of EVP, on purpose:
// the first EVP digest of a process loads the provider and the configuration file, 5.9 million
// instructions (callgrind, a C program hashing 52 KB three times: 12.96 M with EVP_Digest, 7.03 M
// with these), which was a twentieth of a whole `canopy check`. Same code underneath, same digests.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#endif
