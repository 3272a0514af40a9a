/// Checks bytes for well-formed UTF-8 without building a string: most pages are valid UTF-8 and
/// are then passed on as they are, with no copy.
enum UTF8Validation {
    enum Result { case valid, validWithNUL, invalid }

    static func check(_ bytes: [UInt8]) -> Result {
        bytes.withUnsafeBufferPointer { buffer in
            var sawNUL = false
            var index = 0
            let count = buffer.count
            while index < count {
                // Eight ASCII bytes at a time: the common case on markup.
                if index + 8 <= count {
                    let word = UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 == 0 {
                        if !sawNUL, hasZeroByte(word) { sawNUL = true }
                        index += 8
                        continue
                    }
                }
                let lead = buffer[index]
                if lead < 0x80 {
                    if lead == 0 { sawNUL = true }
                    index += 1
                    continue
                }
                let length: Int
                let minimum: UInt32
                switch lead {
                case 0xC2...0xDF: length = 2; minimum = 0x80
                case 0xE0...0xEF: length = 3; minimum = 0x800
                case 0xF0...0xF4: length = 4; minimum = 0x10000
                default: return .invalid
                }
                guard index + length <= count else { return .invalid }
                var scalar = UInt32(lead) & (0xFF >> (length + 1))
                for offset in 1..<length {
                    let continuation = buffer[index + offset]
                    guard continuation & 0xC0 == 0x80 else { return .invalid }
                    scalar = scalar << 6 | UInt32(continuation & 0x3F)
                }
                // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
                if scalar < minimum || (0xD800...0xDFFF).contains(scalar) || scalar > 0x10FFFF { return .invalid }
                index += length
            }
            return sawNUL ? .validWithNUL : .valid
        }
    }

    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
    }
}
