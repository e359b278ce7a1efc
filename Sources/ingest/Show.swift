import ArgumentParser
import Foundation
import Views
import Pipeline
import Catalog

extension Ingest {
    /// `ingest show ID`: one capture with its photos and barcode hits.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Shows everything the catalogue knows about one capture.",
            discussion: "Exit codes: 0 shown; 1 no capture id starts with ID, or several do; 64 usage error."
        )

        @OptionGroup var options: CommonOptions

        @Argument(help: "The capture's id, or any prefix of it (4 characters or more) that only it has.")
        var id: String

        func validate() throws {
            try Self.validateIdPrefix(id)
        }

        @Flag(help: "Print one JSON object instead of text.")
        var json = false

        func run() throws {
            try withCommandContext(options) { context in
                let catalogue = context.catalogue
                let capture = try Self.requiringCapture(id) { try catalogue.capture(idPrefix: id) }
                let photos = try catalogue.photos(ofCapture: capture.id).map { ($0, try catalogue.hits(ofPhoto: $0.id)) }
                let agents = try catalogue.agents()
                let product = try capture.gtin13.flatMap { try catalogue.products(forGTIN13s: [$0])[$0] }
                let texts = try catalogue.texts(ofPhotos: photos.map(\.0.id))
                let packageText = try catalogue.packageText(ofCaptures: [capture.id])[capture.id]
                if json {
                    try printJSON(CaptureJSON(capture, agents: agents, product: product, hits: photos.flatMap(\.1),
                                              photos: photos.map { PhotoJSON($0.0, hits: $0.1, text: texts[$0.0.id]) },
                                              packageText: packageText))
                } else {
                    let description = CaptureDescription(capture: capture, agent: capture.agentId.flatMap { agents[$0] },
                                                         product: product, photos: photos, library: context.config.library,
                                                         texts: texts, packageText: packageText)
                    printEscaped(description.text, terminator: "")
                }
            }
        }
    }
}
