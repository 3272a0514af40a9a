#ifndef CANOPY_CCRYPTO_SHIM_H
#define CANOPY_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, which libcurl already loads: its SHA-256 serves the configuration and
// rule-set hashes. (swift-crypto would compile BoringSSL from source on every CI run.)
#include <openssl/evp.h>
#endif
