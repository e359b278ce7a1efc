// swift-tools-version:6.1
import Foundation
import PackageDescription

// Linux only (built and tested on Debian 12): the image libraries come from the system through
// pkg-config (scripts/setup installs them), and the watch mode uses inotify.

let package = Package(
    name: "ingest",
    products: [
        .executable(name: "ingest", targets: ["ingest"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ] + webPackages,
    targets: [
        // C libraries, each called from Imaging only (but libpq, from Catalog).
        // scripts/setup writes ingest-vips.pc: vips' compiler flags without the -pthread SwiftPM
        // warns about, and no libraries: CVipsShim opens libvips with dlopen on first use.
        .systemLibrary(name: "CVips", pkgConfig: vipsPackage, providers: [.apt(["libvips-dev"])]),
        // ZBar as Debian 12 ships it plus one patch of ours that makes its scan faster and reads the same
        // (scripts/zbar/scan-run.patch), built by scripts/setup as a static library that ingest-zbar.pc names.
        .systemLibrary(name: "CZBar", pkgConfig: "ingest-zbar"),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // libpq, PostgreSQL's client library, called from one file of Catalog (PostgresConnection.swift).
        // Tesseract 5, the package text reader (OCR), with its C API; called from Imaging only.
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // Fixed-argument wrappers for libvips' variadic calls, which Swift cannot call.
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        // Partial greyscale JPEG decoding (libjpeg-turbo's skip and crop), which libvips does not offer.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"]),
        // Turning, enlarging and smoothing barcode regions: thousands of small images per run, each
        // cheaper in one plain loop than as a libvips pipeline with its worker thread.
        .target(name: "CImageOps"),
        // zxing-cpp 3.1 (C++, built from source by scripts/setup as a static library, which
        // ingest-zxing.pc names) behind a C interface: the second barcode decoder.
        .systemLibrary(name: "CZXing", pkgConfig: "ingest-zxing"),
        .target(name: "CZXingShim", dependencies: ["CZXing"]),
        // glibc's malloc tuning (mallopt), which Swift's Glibc module does not import.
        .target(name: "CMemory"),
        // Signal handlers that note a crash's signal in a file, written in C: a handler may call
        // only async-signal-safe functions, which Swift code cannot promise.
        .target(name: "CCrashNote"),

        // The words every layer shares — symbologies, image formats, ratings, time sources, product
        // sources, GTIN check digits and normalisation — with no dependency, so that pixel code
        // (Imaging) needs no database (Catalog) to name a symbology.
        .target(name: "Vocabulary"),

        // The one system-call layer for files and folders, on swift-system (`FileDescriptor`,
        // `Errno`, `FilePath`): listing and walking folders, paths reached without following links,
        // durable writes, and the few calls swift-system lacks. Every target that touches files uses it.
        .target(name: "FileSystem", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),

        // Every call into the C libraries, behind Swift types: no C pointer leaves this target.
        .target(
            name: "Imaging",
            dependencies: [
                "Vocabulary", "CVipsShim", "CVips", "CJPEGShim", "CImageOps", "CZBar", "CZXingShim", "CExif", "CCrypto",
                "CMemory", "CCrashNote", "CTesseract",
            ]
        ),
        .target(
            name: "Pipeline",
            dependencies: [
                "Catalog", "Imaging", "Vocabulary", "FileSystem",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .target(
            name: "Catalog",
            dependencies: [
                "Vocabulary", "CLibPQ", "FileSystem",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the catalogue looks like to people and programs: HTML pages (served by `ingest serve`,
        // written by `ingest export --html`) and the JSON of `list`, `show` and the web API.
        .target(
            name: "Views",
            dependencies: ["Pipeline", "Catalog", "Vocabulary", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .executableTarget(
            name: "ingest",
            dependencies: [
                "Pipeline", "Catalog", "Imaging", "Views", "Vocabulary",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ] + (withWeb ? ["Web", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                             .product(name: "UnixSignals", package: "swift-service-lifecycle")] : [])
        ),

        // A synthetic catalogue of any size for bench/scale.py and the memory tests; not a product.
        .executableTarget(
            name: "scale-fill",
            dependencies: ["Catalog", "Imaging", "Vocabulary", "FileSystem", .product(name: "SystemPackage", package: "swift-system"),
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log")]
        ),

        // Tests: helpers shared by every test target; unit tests beside each module; end-to-end
        // tests of the built `ingest` binary.
        .target(
            name: "TestSupport",
            dependencies: ["Catalog", "Imaging", "Vocabulary", .product(name: "Logging", package: "swift-log"),
                           .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "CatalogTests",
            dependencies: ["Catalog", "Vocabulary", "TestSupport", .product(name: "CSV", package: "CSV.swift"), .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "SystemPackage", package: "swift-system")],
            exclude: ["Resources"]
        ),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "Vocabulary", "CImageOps", "TestSupport"]),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "Imaging", "Catalog", "Vocabulary", "FileSystem", "TestSupport",
                                                   .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "EndToEndTests", dependencies: ["Catalog", "Pipeline", "Vocabulary", "TestSupport",
                                                   .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "ViewsTests", dependencies: ["Views", "Catalog", "Pipeline", "Vocabulary", "TestSupport",
                                                .product(name: "SystemPackage", package: "swift-system")]),
    ] + webTargets,
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx20
)

/// Whether `ingest serve` is built: not when `INGEST_WITHOUT_WEB` is set, which `scripts/sanitize`
/// does (its AddressSanitizer build is for the code that handles untrusted bytes in C — decoders,
/// barcode readers, EXIF — and the web stack, Swift over swift-nio, would double its build time).
var withWeb: Bool { ProcessInfo.processInfo.environment["INGEST_WITHOUT_WEB"] == nil }

/// The HTTP server and its event loops; none without `withWeb`. Hummingbird without its
/// swift-configuration support, which ingest does not use: one package fewer to build.
var webPackages: [Package.Dependency] {
    guard withWeb else { return [] }
    return [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `serve --watch`: the server and the watch as services of one group, with one graceful shutdown.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The request parts Hummingbird's channel carries, for the handler that answers Expect: 100-continue.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // Uploads' multipart/form-data, parsed as it streams in (never whole in memory).
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
    ]
}

/// The HTTP server of `ingest serve`, on Hummingbird, and its tests; none without `withWeb`.
var webTargets: [Target] {
    guard withWeb else { return [] }
    return [
        .target(
            name: "Web",
            dependencies: [
                "Views", "Pipeline", "Catalog", "Imaging", "Vocabulary", "FileSystem",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
            ]
        ),
        // The routes in-process (Tests/WebTests/RouterClient.swift), with Hummingbird's public API and
        // NIO's testing channel rather than HummingbirdTesting, whose HTTP client, TLS and HTTP/2
        // packages would add about 466 CPU-seconds to every clean build.
        .testTarget(
            name: "WebTests",
            dependencies: [
                "Web", "Views", "Catalog", "Pipeline", "Vocabulary", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
    ]
}

/// libvips' pkg-config package: the copy without -pthread when scripts/setup has written it.
var vipsPackage: String {
    FileManager.default.fileExists(atPath: "/usr/local/lib/pkgconfig/ingest-vips.pc") ? "ingest-vips" : "vips"
}

// The compiler checks who may see what, as Hummingbird's package does: an import is internal unless
// it says otherwise (a declaration another target sees names its import `package import`), and a
// file may use only the members of modules it imports itself. Declarations other targets use are
// `package`, never `public`: nothing outside this package imports its modules.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]
for target in package.targets where target.type != .system && !target.name.hasPrefix("C") {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
