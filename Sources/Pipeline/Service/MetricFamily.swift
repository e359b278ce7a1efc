/// One family of the metrics ingest records: its name as Prometheus shows it, the `# HELP` line,
/// the labels its series carry, and for a histogram its buckets in seconds. Every family is named
/// once, in `MetricFamily.all`; code records through swift-metrics under `name`, and
/// `MetricsExporter` gives each family its help and buckets.
package struct MetricFamily: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case counter, gauge, histogram
    }

    package let name: String
    package let kind: Kind
    package let help: String
    package let labels: [String]
    /// A histogram's upper bounds, in seconds; empty for the others.
    package let buckets: [Double]
    /// The label another library records this family under (Hummingbird's request metrics), with
    /// its label names; the exporter shows it under `name` and `labels`.
    let recordedAs: (label: String, labels: [String])?

    init(_ name: String, _ kind: Kind, labels: [String] = [], buckets: [Double] = [], recordedAs: (String, [String])? = nil,
         help: String) {
        self.name = name
        self.kind = kind
        self.help = help
        self.labels = labels
        self.buckets = buckets
        self.recordedAs = recordedAs
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
}

extension MetricFamily {
    // MARK: Runs and watches

    /// `outcome`: `ingested`, `duplicate`, `quarantined`, `failed` (left in the inbox for the next run),
    /// or `handed_over` (left in the inbox for the worker that took its set over).
    package static let photos = MetricFamily(
        "ingest_photos_total", .counter, labels: ["outcome"],
        help: "Photos a run or watch is done with, by outcome: ingested, duplicate, quarantined, failed (left in the inbox) "
            + "or handed_over (left in the inbox for the worker that took its set over).")
    /// `reason`: `PhotoError.kind`.
    package static let quarantinedPhotos = MetricFamily(
        "ingest_quarantined_photos_total", .counter, labels: ["reason"],
        help: "Photos quarantined, by the kind of reason (not_an_image, undecodable, too_many_pixels, ...).")
    /// `outcome`: `committed`, `waiting` (kept in the inbox for the next run), or `handed_over`
    /// (another worker took it over).
    package static let sets = MetricFamily(
        "ingest_sets_total", .counter, labels: ["outcome"],
        help: "Sets a run or watch is done with, by outcome: committed, waiting (kept in the inbox for the next run) "
            + "or handed_over (another worker took it over).")
    package static let captures = MetricFamily("ingest_captures_total", .counter, help: "Captures committed to the catalogue.")
    /// `stage`: `read` (and hash), `decode` (and thumbnail), `barcodes`.
    package static let photoSeconds = MetricFamily(
        "ingest_photo_seconds", .histogram, labels: ["stage"],
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        help: "Seconds one photo spent in a stage of its analysis: read (and hashed), decode (with its thumbnail), barcodes.")
    /// `stage`: `commit` (planning, files and rows), `total` (from claim to commit).
    package static let setSeconds = MetricFamily(
        "ingest_set_seconds", .histogram, labels: ["stage"],
        buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
        help: "Seconds one set spent: commit (its files moved and rows written), total (from claim to commit).")
    package static let claimsHeld = MetricFamily(
        "ingest_claims_held", .gauge, help: "Sets this worker holds a claim on (workers sharing a PostgreSQL catalogue).")
    package static let claimsLost = MetricFamily(
        "ingest_claims_lost_total", .counter,
        help: "Claims this worker lost to another before it was done with the set (it could not renew them in time).")

    // MARK: Read when scraped (ServiceGauges)

    package static let inboxSetsWaiting = MetricFamily(
        "ingest_inbox_sets_waiting", .gauge,
        help: "Set folders in the inbox with files to ingest: settling, being ingested, or kept for the next run.")
    package static let inboxOldestWaiting = MetricFamily(
        "ingest_inbox_oldest_waiting_seconds", .gauge,
        help: "Seconds since the least recently changed of those set folders last changed; 0 with none.")
    package static let catalogueCaptures = MetricFamily("ingest_catalogue_captures", .gauge, help: "Captures in the catalogue.")
    package static let cataloguePhotos = MetricFamily("ingest_catalogue_photos", .gauge, help: "Photos in the catalogue.")
    package static let libraryFreeBytes = MetricFamily(
        "ingest_library_free_bytes", .gauge, help: "Bytes free for ingest on the library's disk.")
    package static let libraryFreeFloorBytes = MetricFamily(
        "ingest_library_free_floor_bytes", .gauge,
        help: "The free space below which ingest reports not ready (minFreeMB), in bytes.")
    package static let ready = MetricFamily(
        "ingest_ready", .gauge, help: "1 when every readiness check passes (as /readyz and ingest status), else 0.")

    // MARK: ingest serve (recorded by Hummingbird's MetricsMiddleware)

    package static let httpRequests = MetricFamily(
        "ingest_http_requests_total", .counter, labels: ["route", "method", "status"],
        recordedAs: ("hb.requests", ["http.route", "http.request.method", "http.response.status_code"]),
        help: "HTTP requests answered, by route, method and status.")
    package static let httpRequestSeconds = MetricFamily(
        "ingest_http_request_seconds", .histogram, labels: ["route", "method", "status"],
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        recordedAs: ("http.server.request.duration", ["http.route", "http.request.method", "http.response.status_code"]),
        help: "Seconds from a request's arrival to its response's last byte, by route, method and status.")
    package static let httpRequestErrors = MetricFamily(
        "ingest_http_request_errors_total", .counter, labels: ["route", "method", "status"],
        recordedAs: ("hb.request.errors", ["http.route", "http.request.method", "error.type"]),
        help: "HTTP requests answered with an error, by route, method and status.")
    package static let httpActiveRequests = MetricFamily(
        "ingest_http_active_requests", .gauge, labels: ["method"],
        recordedAs: ("http.server.active_requests", ["http.request.method"]), help: "HTTP requests being answered now, by method.")

    /// Every family ingest records.
    package static let all: [MetricFamily] = [
        photos, quarantinedPhotos, sets, captures, photoSeconds, setSeconds, claimsHeld, claimsLost,
        inboxSetsWaiting, inboxOldestWaiting, catalogueCaptures, cataloguePhotos, libraryFreeBytes, libraryFreeFloorBytes, ready,
        httpRequests, httpRequestSeconds, httpRequestErrors, httpActiveRequests,
    ]
}
