/// Where a product row came from; stored by its raw value, and shown as `nutrition_source`.
package enum ProductSource: String, Codable, Sendable, CaseIterable {
    /// An Open Food Facts dump, replaced by the next import.
    case off
    /// `ingest products set`: never replaced by an import unless it is asked to.
    case manual
}
