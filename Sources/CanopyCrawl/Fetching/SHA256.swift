internal import CCrypto

/// SHA-256, for the configuration and rule-set hashes and for telling whether a page or a
/// stylesheet changed since the last crawl: a stable hash must not depend on Swift's per-process
/// seeded Hasher, and Foundation on Linux has no digest. OpenSSL's libcrypto computes
/// it; libcurl already links that library, and swift-crypto would build BoringSSL from source on
/// every two-core CI run for the same few digests.
public enum SHA256 {
    public static func hexDigest(_ message: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let succeeded = message.withUnsafeBytes { bytes in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(bytes.baseAddress, bytes.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // Only an allocation failure inside OpenSSL can fail a one-shot digest.
        precondition(succeeded == 1 && length == 32, "OpenSSL could not compute a SHA-256 digest")
        return digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 0x10 ? "0" + hex : hex
        }.joined()
    }
}
