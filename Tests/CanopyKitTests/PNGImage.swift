import CZlib
import Foundation

/// A PNG read back into RGBA pixels, for checking what a headless browser drew: 8-bit truecolour
/// (with or without alpha), not interlaced — what Chromium's screenshots are. Anything else is
/// refused rather than misread.
struct PNGImage {
    enum Failure: Error, CustomStringConvertible {
        case unsupported(String)
        case corrupt(String)

        var description: String {
            switch self {
            case .unsupported(let what): "unsupported PNG: \(what)"
            case .corrupt(let what): "corrupt PNG: \(what)"
            }
        }
    }

    let width: Int
    let height: Int
    /// Row by row, 4 bytes a pixel (alpha 255 when the file has none).
    let rgba: [UInt8]

    init(_ data: [UInt8]) throws {
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Failure.corrupt("no signature") }
        var offset = 8
        var header: [UInt8] = []
        var compressed: [UInt8] = []
        while offset + 8 <= data.count {
            let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            let start = offset + 8
            guard start + length + 4 <= data.count else { throw Failure.corrupt("chunk \(type) runs past the end") }
            if type == "IHDR" { header = Array(data[start..<start + length]) }
            if type == "IDAT" { compressed += data[start..<start + length] }
            if type == "IEND" { break }
            offset = start + length + 4  // the CRC is not checked: zlib checks the data itself
        }
        guard header.count == 13 else { throw Failure.corrupt("no IHDR") }
        func number(_ at: Int) -> Int { header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        width = number(0)
        height = number(4)
        let (depth, colour, interlace) = (header[8], header[9], header[12])
        guard depth == 8, colour == 2 || colour == 6, interlace == 0 else {
            throw Failure.unsupported("bit depth \(depth), colour type \(colour), interlace \(interlace)")
        }
        let channels = colour == 6 ? 4 : 3
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: height * (stride + 1))
        var rawLength = uLongf(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { output in
            compressed.withUnsafeBufferPointer { input in
                uncompress(output.baseAddress, &rawLength, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK, Int(rawLength) == raw.count else { throw Failure.corrupt("image data (zlib status \(status))") }

        // Undo each row's filter (PNG spec §9) against the row above.
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var previous = [UInt8](repeating: 0, count: stride)
        var row = [UInt8](repeating: 0, count: stride)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            let line = raw[(y * (stride + 1) + 1)..<((y + 1) * (stride + 1))]
            for (x, byte) in line.enumerated() {
                let left = x >= channels ? Int(row[x - channels]) : 0
                let up = Int(previous[x])
                let upLeft = x >= channels ? Int(previous[x - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (toLeft, toUp, toUpLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predictor = toLeft <= toUp && toLeft <= toUpLeft ? left : (toUp <= toUpLeft ? up : upLeft)
                default: throw Failure.corrupt("row filter \(filter)")
                }
                row[x] = UInt8(truncatingIfNeeded: Int(byte) + predictor)
            }
            for x in 0..<width {
                for channel in 0..<channels { pixels[(y * width + x) * 4 + channel] = row[x * channels + channel] }
            }
            swap(&previous, &row)
        }
        rgba = pixels
    }

    /// How many pixels have this `#rrggbb` colour, each channel within `tolerance`.
    func count(_ hex: String, tolerance: Int = 2) -> Int {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        let (red, green, blue) = (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
        var matches = 0
        for pixel in stride(from: 0, to: rgba.count, by: 4)
        where abs(Int(rgba[pixel]) - red) <= tolerance && abs(Int(rgba[pixel + 1]) - green) <= tolerance && abs(Int(rgba[pixel + 2]) - blue) <= tolerance {
            matches += 1
        }
        return matches
    }
}
