internal import CCrypto

/// SHA-256, for the configuration and rule-set hashes and for telling whether a page or a
/// stylesheet changed since the last crawl: a stable hash must not depend on Swift's per-process
/// seeded Hasher, and Foundation on Linux has no digest. OpenSSL's libcrypto computes
/// it; libcurl already links that library, and swift-crypto would build BoringSSL from source on
/// every two-core CI run for the same few digests. (Why the low-level calls: `CCrypto/shim.h`.)
public enum SHA256 {
    public static func hexDigest(_ message: [UInt8]) -> String {
        var context = SHA256_CTX()
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        // These calls fail only on a null argument, which Swift rules out here.
        SHA256_Init(&context)
        message.withUnsafeBytes { bytes in _ = SHA256_Update(&context, bytes.baseAddress, bytes.count) }
        digest.withUnsafeMutableBufferPointer { output in _ = SHA256_Final(output.baseAddress, &context) }
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 0x10 ? "0" + hex : hex
        }.joined()
    }
}
