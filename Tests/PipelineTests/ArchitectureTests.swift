import Foundation
import TestSupport
import XCTest

/// The rules of docs/architecture.md that the compiler cannot check: SwiftPM lets a target import
/// any module its dependencies reach, so these tests read the sources' imports instead.
final class ArchitectureTests: XCTestCase {
    private let sources = IngestHarness.packageRoot.appendingPathComponent("Sources")

    /// Every Swift file below `Sources/<target>`, with the modules it imports.
    private func imports(of target: String) throws -> [(file: String, modules: [String])] {
        let root = sources.appendingPathComponent(target)
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return try files.filter { $0.hasSuffix(".swift") }.sorted().map { file in
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            return ("\(target)/\(file)", Self.importedModules(text))
        }
    }

    /// The modules `text` imports: `import X`, with attributes (`@testable`, `@preconcurrency`,
    /// `@_exported`), an access level (`public`, `package`, `internal`…) or a kind (`import struct
    /// X.Y`, which imports X).
    static func importedModules(_ text: String) -> [String] {
        // Only lines that name `import` go through the pattern: Swift's regex engine would take
        // tens of seconds over every line of the sources.
        text.split(separator: "\n").filter { $0.contains("import") }.compactMap { line in
            line.wholeMatch(of: /\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?(\w+)(?:\.\S+)?\s*(?:\/\/.*)?/)
                .map { String($0.output.1) }
        }
    }

    /// Whether every `import Web` of `text` lies inside an `#if canImport(Web)` block (which may
    /// import other server modules beside it, or hold the whole file).
    static func importsWebOnlyWhereBuilt(_ text: String) -> Bool {
        var open: [Bool] = []  // one entry per enclosing #if: whether it is `canImport(Web)`
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("#if ") {
                open.append(line == "#if canImport(Web)")
            } else if line.hasPrefix("#endif") {
                _ = open.popLast()
            } else if line.hasPrefix("#else") || line.hasPrefix("#elseif") {
                if !open.isEmpty { open[open.count - 1] = false }
            } else if importedModules(line) == ["Web"], !open.contains(true) {
                return false
            }
        }
        return true
    }

    func testWebImportCheck_findsTheImportOutsideTheBlock() {
        XCTAssertTrue(Self.importsWebOnlyWhereBuilt("#if canImport(Web)\nimport ServiceLifecycle\nimport Web\n#endif\n"))
        XCTAssertTrue(Self.importsWebOnlyWhereBuilt("#if canImport(Web)\nimport Foundation\nimport Web\nenum A {}\n#endif\n"))
        XCTAssertFalse(Self.importsWebOnlyWhereBuilt("import Foundation\nimport Web\n"))
        XCTAssertFalse(Self.importsWebOnlyWhereBuilt("#if canImport(Web)\nimport Hummingbird\n#else\nimport Web\n#endif\n"))
        XCTAssertFalse(Self.importsWebOnlyWhereBuilt("#if canImport(Web)\n#endif\nimport Web\n"))
    }

    func testImportParser_readsEveryFormOfImport() {
        let text = """
            import Foundation
            @testable import Pipeline
            @preconcurrency import Dispatch
            package import Catalog
            internal import CVips
            package import struct Vocabulary.Symbology
            @_exported import Imaging // re-exported
            // import Commented
            let importer = "import Quoted"
            """
        XCTAssertEqual(Self.importedModules(text), ["Foundation", "Pipeline", "Dispatch", "Catalog", "CVips", "Vocabulary", "Imaging"])
    }

    func testVocabulary_dependsOnNothing_andPixelsNeedNoDatabase() throws {
        try assertNoImport(in: ["Vocabulary"], of: { _ in true }, "the vocabulary is the bottom layer: it imports nothing")
        try assertNoImport(in: ["Imaging"], of: { ["Catalog", "GRDB", "CLibPQ"].contains($0) },
                           "pixel code names symbologies and formats through Vocabulary, never the catalogue")
    }

    func testFileSystem_standsOnSwiftSystemAlone_andIsTheOnlyTextOfErrno_andPathsAreFilePaths() throws {
        try assertNoImport(in: ["FileSystem"], of: { !["SystemPackage", "Glibc"].contains($0) },
                           "the system-call layer is below every target of ours: it imports swift-system and Glibc only")
        // An errno's text is swift-system's `Errno.description`, not a `strerror` call of its own;
        // a path is a `FilePath`, joined and taken apart by its own methods, not by NSString's.
        let stringPaths = ["appendingPathComponent", "deletingLastPathComponent", "lastPathComponent", "pathExtension",
                           "deletingPathExtension", "pathComponents"]
        for target in ["FileSystem", "Catalog", "Imaging", "Pipeline", "Views", "Web", "ingest", "scale-fill"] {
            for (file, _) in try imports(of: target) {
                let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
                XCTAssertFalse(text.contains("strerror("), "\(file): use Errno(rawValue:).description")
                for call in stringPaths where text.contains(".\(call)") {
                    XCTFail("\(file): \(call) on a String or URL; use FilePath's appending, removingLastComponent, extension…")
                }
            }
        }
    }

    private func assertNoImport(in targets: [String], of forbidden: (String) -> Bool, _ rule: String) throws {
        for target in targets {
            for (file, modules) in try imports(of: target) {
                XCTAssertEqual(modules.filter(forbidden), [], "\(file): \(rule)")
            }
        }
    }

    func testCLibraries_areCalledFromImagingOnly_butLibpqFromOneFileOfCatalog() throws {
        // The package's C targets: system libraries and shims, Sources/C<Name>.
        let cModules = try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { $0.hasPrefix("C") && $0.dropFirst().first?.isUppercase == true && $0 != "CLibPQ" }
        XCTAssertTrue(cModules.contains("CVips") && cModules.contains("CZBar"), "\(cModules)")
        XCTAssertFalse(try imports(of: "Imaging").filter { !Set($0.modules).isDisjoint(with: cModules) }.isEmpty)
        try assertNoImport(in: ["FileSystem", "Pipeline", "Catalog", "Views", "Web", "ingest"], of: cModules.contains,
                           "only Imaging imports the C libraries and shims")
        // libpq is the database's client: SQL stays in Catalog, behind one file, as each C library is.
        try assertNoImport(in: ["Pipeline", "Imaging", "Views", "Web", "ingest"], of: { $0 == "CLibPQ" }, "only Catalog talks to PostgreSQL")
        let libpqFiles = try imports(of: "Catalog").filter { $0.modules.contains("CLibPQ") }.map(\.file)
        XCTAssertEqual(libpqFiles, ["Catalog/Storage/PostgresConnection.swift"])
    }

    func testSQL_isWrittenInCatalogOnly() throws {
        try assertNoImport(in: ["Pipeline", "Imaging", "Views", "Web", "ingest"], of: { $0 == "GRDB" },
                           "only Catalog talks to the database")
    }

    func testCatalog_knowsNoPixelsAndNoStages() throws {
        try assertNoImport(in: ["Catalog"], of: { ["Imaging", "Pipeline"].contains($0) }, "Catalog is the bottom layer")
        try assertNoImport(in: ["Imaging"], of: { $0 == "Pipeline" }, "Imaging knows no stage")
    }

    func testViews_drawOnlyWhatTheyAreGiven_theHTTPLayerIsWebs() throws {
        // Pages and JSON know no server: `export --html` draws them without one, and the sanitizer
        // build (which leaves Web out) builds them.
        let server: (String) -> Bool = { $0.hasPrefix("Hummingbird") || $0.hasPrefix("NIO") || $0 == "HTTPTypes" || $0 == "Web" }
        try assertNoImport(in: ["Views", "Pipeline", "Catalog", "Imaging"], of: server, "only Web speaks HTTP")
        try assertNoImport(in: ["Views"], of: { $0 == "Imaging" }, "Views draws from the catalogue, not from pixels")
        try assertNoImport(in: ["Pipeline", "Catalog", "Imaging"], of: { $0 == "Views" }, "Views is above the stages")
        // `ingest` wires the server up in two files (serve, and watch's metrics), whose import of
        // Web builds only where Web is built.
        for (file, modules) in try imports(of: "ingest") where modules.contains("Web") {
            XCTAssertTrue(["ingest/Serve.swift", "ingest/MetricsEndpoint.swift"].contains(file), "\(file) imports Web")
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(Self.importsWebOnlyWhereBuilt(text), "\(file): import Web under #if canImport(Web), for builds without Web")
        }
    }

    func testSourceFiles_stayUnder300Lines() throws {
        for target in ["FileSystem", "Catalog", "Imaging", "Pipeline", "Views", "Web", "ingest"] {
            for (file, _) in try imports(of: target) {
                let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
                XCTAssertLessThanOrEqual(text.split(separator: "\n", omittingEmptySubsequences: false).count, 300,
                                         "\(file): split it by concern (Type+Concern.swift)")
            }
        }
    }

    func testArchitectureDoc_namesOnlyTypesFilesAndTargetsThatExist() throws {
        // The last column of docs/architecture.md's tables names each folder's (or target's) main
        // types; a type renamed or removed must take its name out of the doc too.
        let doc = try String(contentsOf: IngestHarness.packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        let swiftFiles = files.filter { $0.hasSuffix(".swift") }
        let declarations = try Set(swiftFiles.flatMap { file in
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            return text.split(whereSeparator: \.isNewline).compactMap { line -> Substring? in
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(where: { ["struct", "class", "enum", "protocol", "actor"].contains($0) }),
                      index + 1 < words.count else { return nil }
                return words[index + 1].prefix { $0.isLetter || $0.isNumber }
            }.map(String.init)
        })
        try checkProse(doc, declarations: declarations)
        let rows = doc.split(separator: "\n").filter { $0.hasPrefix("| `") }
        XCTAssertGreaterThan(rows.count, 20, "the doc's tables are where the test looks")
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let named = (cells.last ?? "").split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            for name in named {
                let exists = declarations.contains(name) || files.contains(name) || swiftFiles.contains { $0.hasSuffix("/" + name) }
                XCTAssertTrue(exists, "docs/architecture.md names `\(name)`, which is no type, target or file under Sources/: \(row)")
            }
        }
    }

    /// Every `TypeName` (or `TypeName.member`) the doc's text names is a type of the package (its
    /// sources or its tests), one of its targets, or a type of the libraries it builds on.
    private func checkProse(_ doc: String, declarations: Set<String>) throws {
        let tests = IngestHarness.packageRoot.appendingPathComponent("Tests")
        let targets = Set(try FileManager.default.contentsOfDirectory(atPath: sources.path)
            + FileManager.default.contentsOfDirectory(atPath: tests.path) + ["Sources", "Tests"])
        let testTypes = Set((FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }
            .flatMap { file in
                ((try? String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)) ?? "")
                    .matches(of: /(?:struct|class|enum|protocol|actor) ([A-Z][A-Za-z0-9]*)/).map { String($0.output.1) }
            })
        let libraries: Set<String> = ["Bool", "Int", "Double", "String", "Codable", "Decodable", "Sendable", "Atomic", "Mutex",
                                      "Package", "Logger", "LoggingSystem", "GRDB", "DatabasePool", "FetchableRecord", "Row", "PQprepare",
                                      "FileDescriptor", "Errno", "FilePath", "SystemPackage", "HTTPError", "ServiceGroup",
                                      // Swift's upcoming features that Package.swift turns on.
                                      "InternalImportsByDefault", "MemberImportVisibility"]
        for match in doc.matches(of: /`([A-Z][A-Za-z0-9]*)(?:\.[a-z][A-Za-z0-9]*)?(?:\(\))?`/) {
            let name = String(match.output.1)
            guard name != name.uppercased() else { continue }  // SQL words, errno names, C calls in capitals
            let known = declarations.contains(name) || testTypes.contains(name) || targets.contains(name) || libraries.contains(name)
            XCTAssertTrue(known, "docs/architecture.md names `\(name)`, which is no type or target of the package (nor of a library it uses)")
        }
    }
}
