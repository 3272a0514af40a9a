internal import CLibXML2
import Foundation

/// What one sitemap file lists (sitemaps.org protocol 0.9).
public struct Sitemap: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// `<urlset>`: page URLs.
        case urlSet = "urlset"
        /// `<sitemapindex>`: URLs of further sitemaps.
        case index = "sitemapindex"
        /// A plain-text sitemap: one URL per line.
        case text
    }

    public var kind: Kind
    /// `<loc>` of each `<url>`, trimmed and entity-decoded, in file order; not yet normalized.
    public var pageURLs: [String]
    /// `<loc>` of each `<sitemap>` of an index.
    public var sitemapURLs: [String]
    /// The latest instant each page's `<lastmod>` can stand for (the end of the day for a bare
    /// date, at the earliest time zone), by its `<loc>` as in `pageURLs`: a page modified no
    /// later than that need not be fetched again if it was crawled after it.
    public var lastModified: [String: Date] = [:]
    /// Why the lists may be incomplete (too many entries, or XML broken after some
    /// entries were read); nil when the whole file was read.
    public var incompleteReason: String?

    public init(kind: Kind, pageURLs: [String] = [], sitemapURLs: [String] = [], incompleteReason: String? = nil) {
        self.kind = kind
        self.pageURLs = pageURLs
        self.sitemapURLs = sitemapURLs
        self.incompleteReason = incompleteReason
    }
}

/// Why a sitemap body yields nothing.
public enum SitemapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body, after inflating, is larger than the parser's `maxBytes`.
    case tooLarge(limit: Int)
    /// The body starts like gzip but does not inflate.
    case corruptGzip(String)
    /// The XML is broken before any entry could be read.
    case malformedXML(line: Int, message: String)
    /// Well-formed, but not a sitemap: e.g. an HTML page at /sitemap.xml. Names what was found.
    case notASitemap(found: String)
    case empty

    public var description: String {
        switch self {
        case .tooLarge(let limit): return "the sitemap is larger than \(limit) bytes"
        case .corruptGzip(let reason): return "the sitemap looks gzip-compressed but cannot be inflated: \(reason)"
        case .malformedXML(let line, let message): return "the sitemap is not well-formed XML (line \(line)): \(message)"
        case .notASitemap(let found): return "not a sitemap: found \(found), expected <urlset> or <sitemapindex>"
        case .empty: return "the sitemap is empty"
        }
    }
}

/// Reads sitemap and sitemap index files: XML (namespaced or not), gzip-compressed
/// XML (detected by its magic bytes, whatever the Content-Type says), or plain text.
///
/// XML is read with libxml2's streaming reader without network access and without
/// expanding any DTD entity, so external entities are never loaded and entity
/// expansion cannot blow up. `<loc>` elements count only as children of `<url>` or
/// `<sitemap>` in the root's namespace, so extension tags such as `<image:loc>` are ignored.
public struct SitemapParser: Sendable {
    /// The protocol's own limit for one file, uncompressed.
    public static let defaultMaxBytes = 50 * 1024 * 1024
    /// The protocol's own limit of entries in one file.
    public static let defaultMaxEntries = 50_000

    public var maxBytes: Int
    public var maxEntries: Int

    public init(maxBytes: Int = SitemapParser.defaultMaxBytes, maxEntries: Int = SitemapParser.defaultMaxEntries) {
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
    }

    public func parse(_ body: [UInt8]) throws(SitemapError) -> Sitemap {
        var bytes = body
        if GzipInflater.isGzip(bytes) {
            do {
                bytes = try GzipInflater.inflate(bytes, limit: maxBytes)
            } catch {
                switch error {
                case .tooLarge(let limit): throw .tooLarge(limit: limit)
                case .corrupt(let reason): throw .corruptGzip(reason)
                }
            }
        } else if bytes.count > maxBytes {
            throw .tooLarge(limit: maxBytes)
        }
        var content = bytes[...]
        if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        guard let first = content.first(where: { !ASCII.isWhitespace($0) }) else { throw .empty }
        if first == UInt8(ascii: "<") { return try parseXML(bytes) }
        return try parseText(content)
    }

    /// One absolute http(s) URL per line (sitemaps.org "Text file").
    private func parseText(_ content: ArraySlice<UInt8>) throws(SitemapError) -> Sitemap {
        var sitemap = Sitemap(kind: .text)
        for line in content.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            let url = ASCII.trimmed(String(decoding: line, as: UTF8.self))
            guard !url.isEmpty else { continue }
            let scheme = url.prefix { $0 != ":" }.lowercased()
            guard scheme == "http" || scheme == "https" else { throw .notASitemap(found: "text that is not a list of URLs") }
            guard sitemap.pageURLs.count < maxEntries else {
                sitemap.incompleteReason = "more than \(maxEntries) entries; the rest were ignored"
                break
            }
            sitemap.pageURLs.append(url)
        }
        return sitemap
    }

    private func parseXML(_ bytes: [UInt8]) throws(SitemapError) -> Sitemap {
        LibXML2Setup.initialize()
        guard let context = xmlNewParserCtxt() else {
            throw .malformedXML(line: 0, message: "libxml2 could not allocate a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        let state = SitemapSAXState(maxEntries: maxEntries)
        SitemapSAXState.install(state, in: context)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xmlCtxtReadMemory(context, chars.baseAddress, Int32(chars.count), nil, nil, Self.libxml2Options)
            }
        }
        // The handlers build no nodes; what is left is the bare document node.
        if let document { xmlFreeDoc(document) }
        withExtendedLifetime(state) {}

        if let found = state.notASitemap { throw .notASitemap(found: found) }
        let isWellFormed = context.pointee.wellFormed != 0
        let line = Int(context.pointee.lastError.line)
        let message = context.pointee.lastError.message.map { ASCII.trimmed(String(cString: $0)) } ?? "unreadable XML"
        guard var sitemap = state.sitemap else {
            if !isWellFormed { throw .malformedXML(line: line, message: message) }
            throw .notASitemap(found: "no root element")
        }
        if state.reachedEntryLimit {
            sitemap.incompleteReason = "more than \(maxEntries) entries; the rest were ignored"
        } else if !isWellFormed {
            sitemap.incompleteReason = "the XML is not well-formed (line \(line): \(message)); entries after that point may be missing"
        }
        return sitemap
    }

    /// No network, no DTD loading, no entity substitution; recover from the unescaped
    /// "&" that many sitemaps have in their URLs; CDATA read as text; silent.
    static let libxml2Options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_NOCDATA.rawValue
            | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
    )
}

/// What the SAX handlers collect while libxml2 streams through a sitemap, so that no
/// tree is built, whatever the file's size. Reached from the handlers through the
/// parser context's `_private` pointer.
private final class SitemapSAXState {
    let maxEntries: Int
    var sitemap: Sitemap?
    var notASitemap: String?
    var reachedEntryLimit = false
    private var rootNamespace: String?
    private var entryName = ""
    /// Depth of the element being read: 1 for the root.
    private var depth = 0
    private var inEntry = false
    private var locText: [UInt8]?
    private var lastmodText: [UInt8]?
    private var entryLoc: String?
    private var entryLastmod: String?
    private var entries = 0

    init(maxEntries: Int) { self.maxEntries = maxEntries }

    /// Replaces the element, text and entity handlers of libxml2's default SAX2 handler;
    /// the others (document start, DTD declarations) stay libxml2's own.
    static func install(_ state: SitemapSAXState, in context: xmlParserCtxtPtr) {
        context.pointee._private = Unmanaged.passUnretained(state).toOpaque()
        guard let sax = context.pointee.sax else { return }
        sax.pointee.startElementNs = { context, localName, _, namespace, _, _, _, _, _ in
            guard let context, let localName else { return }
            let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
            SitemapSAXState.from(parser).startElement(
                String(cString: localName), namespace: namespace.map { String(cString: $0) }, parser: parser
            )
        }
        sax.pointee.endElementNs = { context, _, _, _ in
            guard let context else { return }
            let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
            SitemapSAXState.from(parser).endElement(parser: parser)
        }
        sax.pointee.characters = { context, characters, length in
            guard let context, let characters else { return }
            let state = SitemapSAXState.from(context.assumingMemoryBound(to: xmlParserCtxt.self))
            state.locText?.append(contentsOf: UnsafeBufferPointer(start: characters, count: Int(length)))
            state.lastmodText?.append(contentsOf: UnsafeBufferPointer(start: characters, count: Int(length)))
        }
        // Only the five predefined entities exist: a DTD's own entities, internal or
        // external, are never recorded (libxml2 would otherwise fall back to its own
        // lookup), so never expanded or loaded.
        sax.pointee.entityDecl = nil
        sax.pointee.unparsedEntityDecl = nil
        sax.pointee.getEntity = { _, name in
            name.flatMap { xmlGetPredefinedEntity($0) }
        }
        sax.pointee.reference = nil
    }

    private static func from(_ parser: xmlParserCtxtPtr) -> SitemapSAXState {
        Unmanaged<SitemapSAXState>.fromOpaque(parser.pointee._private).takeUnretainedValue()
    }

    private func startElement(_ name: String, namespace: String?, parser: xmlParserCtxtPtr) {
        depth += 1
        switch depth {
        case 1:
            switch name {
            case "urlset": sitemap = Sitemap(kind: .urlSet); entryName = "url"
            case "sitemapindex": sitemap = Sitemap(kind: .index); entryName = "sitemap"
            default:
                notASitemap = "<\(name)>"
                xmlStopParser(parser)
            }
            rootNamespace = namespace
        case 2:
            inEntry = name == entryName && namespace == rootNamespace
            entryLoc = nil
            entryLastmod = nil
        case 3:
            // Extension elements such as <image:loc> share the local name but not the namespace.
            guard inEntry, namespace == rootNamespace else { break }
            if name == "loc" { locText = [] } else if name == "lastmod" { lastmodText = [] }
        default:
            break
        }
    }

    private func endElement(parser: xmlParserCtxtPtr) {
        if depth == 3, let text = locText {
            locText = nil
            let url = ASCII.trimmed(String(decoding: text, as: UTF8.self))
            if !url.isEmpty {
                if entries == maxEntries {
                    reachedEntryLimit = true
                    xmlStopParser(parser)
                } else {
                    entries += 1
                    if sitemap?.kind == .index { sitemap?.sitemapURLs.append(url) } else { sitemap?.pageURLs.append(url) }
                    entryLoc = url
                }
            }
        } else if depth == 3, let text = lastmodText {
            lastmodText = nil
            entryLastmod = ASCII.trimmed(String(decoding: text, as: UTF8.self))
        } else if depth == 2 {
            // <lastmod> may come before or after <loc>.
            if inEntry, sitemap?.kind == .urlSet, let entryLoc, let entryLastmod, let date = W3CDateTime.latestInstant(entryLastmod) {
                sitemap?.lastModified[entryLoc] = date
            }
            inEntry = false
        }
        depth -= 1
    }
}

/// libxml2 needs one initialisation before it is used from several threads.
enum LibXML2Setup {
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    static func initialize() { _ = initialized }
}

/// Dates as sitemaps write them (the W3C profile of ISO 8601: `2026-11-20`,
/// `2026-11-20T09:30+01:00`, `2026-11-20T09:30:15.5Z`, or just the year or month).
enum W3CDateTime {
    /// The latest instant the text can mean: the end of the year, month or day it names when it
    /// has no time (in the earliest time zone, UTC-12), or the instant it names. Nil when unreadable.
    static func latestInstant(_ text: String) -> Date? {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        let dateFields = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(dateFields.count), dateFields.allSatisfy({ $0 != nil }), parts[0].count >= 4 else { return nil }
        let year = dateFields[0]!, month = dateFields.count > 1 ? dateFields[1]! : nil, day = dateFields.count > 2 ? dateFields[2]! : nil
        guard (1...12).contains(month ?? 1), (1...31).contains(day ?? 1) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        guard parts.count == 2 else {
            guard let start = calendar.date(from: DateComponents(year: year, month: month ?? 1, day: day ?? 1)) else { return nil }
            let period: Calendar.Component = day != nil ? .day : month != nil ? .month : .year
            // The period ends later in time zones west of UTC: at most 12 hours.
            return calendar.date(byAdding: period, value: 1, to: start)?.addingTimeInterval(12 * 3600 - 1)
        }
        guard let day else { return nil }
        var time = Substring(parts[1])
        var offset = 0
        if time.hasSuffix("Z") || time.hasSuffix("z") {
            time = time.dropLast()
        } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = time[time.index(after: sign)...].split(separator: ":")
            guard zone.count == 2, let hours = Int(zone[0]), let minutes = Int(zone[1]), hours <= 14, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (time[sign] == "-" ? -1 : 1)
            time = time[..<sign]
        } else {
            return nil  // the profile requires a zone with a time
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(clock.count), let hour = Int(clock[0]), let minute = Int(clock[1]), hour < 24, minute < 60 else { return nil }
        let seconds = clock.count == 3 ? Double(clock[2]) : 0
        guard let seconds, seconds >= 0, seconds < 61 else { return nil }
        guard let local = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)) else { return nil }
        return local.addingTimeInterval(seconds - Double(offset))
    }
}
