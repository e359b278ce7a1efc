// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ingest",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "ingest", targets: ["ingest"]),
        .library(name: "Pipeline", targets: ["Pipeline"]),
        .library(name: "Catalog", targets: ["Catalog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    ],
    targets: [
        // C libraries, each called from Imaging only.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // Fixed-argument wrappers for libvips' variadic calls, which Swift cannot call.
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        // Partial greyscale JPEG decoding (libjpeg-turbo's skip and crop), which libvips does not offer.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"]),
        // Turning, enlarging and smoothing barcode regions: thousands of small images per run, each
        // cheaper in one plain loop than as a libvips pipeline with its worker thread.
        .target(name: "CImageOps", cSettings: [.unsafeFlags(["-O2"])]),
        // glibc's malloc tuning (mallopt), which Swift's Glibc module does not import.
        .target(name: "CMemory"),

        // Every call into the C libraries, behind Swift types: no C pointer leaves this target.
        .target(
            name: "Imaging",
            dependencies: ["Catalog", "CVipsShim", "CVips", "CJPEGShim", "CImageOps", "CZBar", "CExif", "CCrypto"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        .target(
            name: "Pipeline",
            dependencies: [
                "Catalog", "Imaging",
                .product(name: "Logging", package: "swift-log"),
            ],
            // The pixel loops (quality metrics, barcode locator) are 20× slower unoptimised; debug
            // builds optimise this module too, so tests and the demo run at a realistic speed.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        .target(
            name: "Catalog",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "ingest",
            dependencies: [
                "Pipeline", "Catalog", "CMemory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "Imaging", "Catalog"]),
        .testTarget(
            name: "CatalogTests",
            dependencies: ["Catalog", .product(name: "CSV", package: "CSV.swift"), .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "IngestTests", dependencies: ["Catalog", "Pipeline"]),
    ],
    swiftLanguageModes: [.v5]
)
