import Catalog
@testable import Pipeline
import Synchronization
import XCTest
import Vocabulary
import TestSupport
import Imaging
import SystemPackage

/// The commit's decisions, from values alone: no file is read or written, the paths "taken" on
/// disk, the ids and the clock are the test's.
final class CommitPlannerTests: XCTestCase {
    private let inbox = "/in"
    private let layout = LibraryLayout(root: "/lib", quarantine: "/q")

    private func planner(taken: Set<FilePath> = []) -> CommitPlanner {
        let ids = Counter()
        return CommitPlanner(layout: layout, originals: .move, isTaken: { taken.contains($0) },
                             newId: { "id\(ids.next())" }, now: { "2026-11-23T10:00:00Z" })
    }

    private func file(_ name: String) -> InboxFile {
        InboxFile(setName: "shelf", relativePath: name, absolutePath: FilePath("\(inbox)/shelf/\(name)"))
    }

    private func photo(_ name: String, hash: String, at seconds: Double = 0, barcode: BarcodeReading? = nil) -> AnalysedPhoto {
        makeAnalysedPhoto(file(name), hash: hash, at: seconds, barcodes: barcode.map { [$0] } ?? [])
    }

    private func set(_ outcomes: [PhotoOutcome], contextFile: FilePath? = nil) -> PhotoSet {
        PhotoSet(name: "shelf", folder: FilePath("\(inbox)/shelf"), files: outcomes.map(\.file), contextFile: contextFile)
    }

    private func catalogued(hash: String, captureId: String = "old") -> Photo {
        Photo(id: "p-\(hash)", captureId: captureId, position: 0, originalName: "x.jpg", sourcePath: "x.jpg",
              originalPath: "originals/earlier/x.jpg", thumbPath: "thumbs/earlier/x.jpg", thumbWidth: 40,
              thumbHeight: 30, sha256: hash, byteSize: 100, format: .jpeg, width: 40, height: 30, orientation: 1,
              make: nil, model: nil, takenAt: "", takenUTC: 0, timeSource: .exif, sharpness: 0, contrast: 0,
              brightness: 0, decodeConfidence: nil, quality: 0.5, rating: .fair)
    }

    /// Triage, grouping and plan, as a run does them.
    private func plan(_ outcomes: [PhotoOutcome], known: KnownPhotos = KnownPhotos(), taken: Set<FilePath> = [],
                      context: Result<CaptureContext, CaptureContextError>? = nil) -> CommitPlan {
        let planner = planner(taken: taken)
        let triage = planner.triage(outcomes, known: known)
        let captures = CaptureGrouper(gapSeconds: 60, mode: .time).group(triage.newPhotos)
        return planner.plan(set(outcomes, contextFile: context == nil ? nil : FilePath("\(inbox)/shelf/capture.json")),
                            triage: triage, captures: captures, context: context, runId: 7)
    }

    // MARK: Triage

    func testTriage_sameBytesTwiceInTheSet_keepsTheFirstAndSetsTheSecondAside() {
        let outcomes: [PhotoOutcome] = [.analysed(photo("a.jpg", hash: "h1")), .analysed(photo("b.jpg", hash: "h1"))]
        let triage = planner().triage(outcomes, known: KnownPhotos())
        XCTAssertEqual(triage.newPhotos.map(\.file.name), ["a.jpg"])
        XCTAssertEqual(triage.duplicates.map(\.file.name), ["b.jpg"])
        XCTAssertEqual(triage.duplicates.first?.reason, "duplicate of shelf/a.jpg in the same set")
        XCTAssertEqual(triage.discardedThumbnails, ["/lib/.staging/b.jpg.jpg"])
    }

    func testTriage_bytesAnEarlierSetCommitted_areADuplicateNamingTheCataloguedCopy() {
        let known = KnownPhotos(byHash: ["h1": catalogued(hash: "h1", captureId: "c-9")])
        let triage = planner().triage([.analysed(photo("a.jpg", hash: "h1"))], known: known)
        XCTAssertEqual(triage.newPhotos.count, 0)
        XCTAssertEqual(triage.duplicates.first?.reason, "duplicate of originals/earlier/x.jpg (capture c-9)")
    }

    func testTriage_cataloguedFromThisVeryPlace_isSkippedNotADuplicate() {
        let outcomes: [PhotoOutcome] = [.catalogued(file("a.jpg"), existing: catalogued(hash: "h1")),
                                        .catalogued(file("b.jpg"), existing: catalogued(hash: "h2"))]
        let triage = planner().triage(outcomes, known: KnownPhotos(catalogedFromHere: ["a.jpg"]))
        XCTAssertEqual(triage.alreadyCatalogued, 1)
        XCTAssertEqual(triage.duplicates.map(\.file.name), ["b.jpg"])
    }

    func testReasonToWait_fileChangedWhileRead_keepsTheSetAndNamesTheFile() throws {
        let outcomes: [PhotoOutcome] = [.analysed(photo("a.jpg", hash: "h1")), .rejected(file("b.jpg"), .changedWhileReading)]
        XCTAssertEqual(try CommitPlanner.reasonToWait(outcomes), "shelf/b.jpg changed while being ingested")
        XCTAssertNil(try CommitPlanner.reasonToWait([.rejected(file("c.jpg"), .empty)]), "a bad file does not hold the set")
    }

    func testReasonToWait_ourOwnFailure_keepsTheSetInTheInboxInsteadOfQuarantiningThePhoto() throws {
        // An outcome never stored, or an error the analyser did not expect, is a bug of ours: the
        // photo used to be quarantined as if it were bad.
        let files = [file("a.jpg"), file("b.jpg")]
        let outcomes = SetOutcomes(files: files)
        outcomes.store(.analysed(photo("a.jpg", hash: "h1")), at: 0)
        XCTAssertEqual(try CommitPlanner.reasonToWait(outcomes.all),
                       "shelf/b.jpg: internal error: the analysis ended without a result")
        let unexpected: [PhotoOutcome] = [.rejected(file("c.jpg"), .internalFailure("index out of range"))]
        XCTAssertEqual(try CommitPlanner.reasonToWait(unexpected), "shelf/c.jpg: internal error: index out of range")
    }

    // MARK: Plan

    func testPlan_twoProducts_givesTwoCapturesWithTheirRowsAndPlaces() throws {
        let coffee = makeReading(.ean13, "4006381333931", gtin13: "4006381333931")
        let tea = makeReading(.ean13, "5901234123457", gtin13: "5901234123457")
        let plan = plan([.analysed(photo("1.jpg", hash: "h1", at: 0, barcode: coffee)),
                         .analysed(photo("2.jpg", hash: "h2", at: 5)),
                         .analysed(photo("3.jpg", hash: "h3", at: 10, barcode: tea))])
        let records = try XCTUnwrap(plan.records)
        XCTAssertEqual(records.captures.map(\.barcode), ["4006381333931", "5901234123457"])
        XCTAssertEqual(records.captures.map(\.photoCount), [2, 1])
        XCTAssertEqual(records.captures.map(\.runId), [7, 7])
        XCTAssertEqual(records.captures.first?.createdAt, "2026-11-23T10:00:00Z")
        XCTAssertEqual(records.photos.map(\.originalPath), ["originals/shelf/1.jpg", "originals/shelf/2.jpg", "originals/shelf/3.jpg"])
        XCTAssertEqual(records.photos.map(\.thumbPath), ["thumbs/shelf/1.jpg", "thumbs/shelf/2.jpg", "thumbs/shelf/3.jpg"])
        XCTAssertEqual(records.hits.count, 2)
        XCTAssertEqual(plan.journal.entries.map(\.staged), records.photos.map { "/lib/.staging/\($0.originalName).jpg" })
        XCTAssertEqual([plan.report.captures, plan.report.photos], [2, 3])
    }

    func testPlan_uploadWhosePhotoNamedFirstLostItsExifTime_isTimedByTheCamerasFirstTime() throws {
        // An upload: the files' times are the upload's, a day after the photos were taken (the
        // fixture's photos' files are far from their EXIF times). 1.jpg lost its EXIF time and is
        // placed by name before 2.jpg; the capture's time is 2.jpg's, not the upload's.
        var uploaded = photo("1.jpg", hash: "h1")
        uploaded.time = CaptureTime(utc: 1_800_086_400, offsetSeconds: 0, hasFraction: false, source: .fileTime)
        uploaded.source = FileIdentity(size: 100, modifiedSeconds: 1_800_086_400, modifiedNanoseconds: 0, device: 1, inode: 9)
        let plan = plan([.analysed(uploaded), .analysed(photo("2.jpg", hash: "h2", at: 0)), .analysed(photo("3.jpg", hash: "h3", at: 5))])
        let records = try XCTUnwrap(plan.records)
        XCTAssertEqual(records.captures.count, 1)
        XCTAssertEqual(records.photos.map(\.originalName), ["1.jpg", "2.jpg", "3.jpg"])
        XCTAssertEqual(records.captures.first?.capturedUTC, 1_800_000_000)
        XCTAssertEqual(records.captures.first?.timeSource, .exif)
    }

    func testPlan_destinationsTakenOnDisk_getNumberedNames() throws {
        let taken: Set<FilePath> = ["/lib/originals/shelf/1.jpg", "/q/shelf/bad.jpg"]
        let plan = plan([.analysed(photo("1.jpg", hash: "h1")), .rejected(file("bad.jpg"), .empty)], taken: taken)
        XCTAssertEqual(plan.records?.photos.first?.originalPath, "originals/shelf/1 (2).jpg")
        XCTAssertEqual(plan.report.quarantined.first?.keptAt, "/q/shelf/bad (2).jpg")
        XCTAssertEqual(plan.journal.asides?.first?.source, "/in/shelf/bad.jpg")
        XCTAssertTrue(plan.journal.asides?.first?.note.contains("reason: empty file") == true)
    }

    func testPlan_onlyBadFiles_insertsNothingButSetsThemAside() {
        let plan = plan([.rejected(file("a.jpg"), .empty), .rejected(file("b.jpg"), .symbolicLink)])
        XCTAssertNil(plan.records)
        XCTAssertEqual(plan.report.quarantined.map(\.path), ["shelf/a.jpg", "shelf/b.jpg"])
        XCTAssertFalse(plan.isEmpty)
    }

    func testPlan_sidecar_putsItsAgentOnEveryCaptureAndPlacesIt() throws {
        let context = CaptureContext(agentId: "chef", agentName: "Practical Chef", requestId: "r-1")
        let plan = plan([.analysed(photo("1.jpg", hash: "h1", at: 0)), .analysed(photo("2.jpg", hash: "h2", at: 600))],
                        context: .success(context))
        let records = try XCTUnwrap(plan.records)
        XCTAssertEqual(records.captures.map(\.agentId), ["chef", "chef"])
        XCTAssertEqual(records.captures.map(\.contextPath), ["originals/shelf/capture.json", "originals/shelf/capture.json"])
        XCTAssertEqual(records.agent?.name, "Practical Chef")
        XCTAssertEqual(plan.journal.context?.source, "/in/shelf/capture.json")
    }

    func testPlan_unusableSidecar_isReportedAndTheSetIngestedWithoutContext() throws {
        let problem = CaptureContextError(file: "/in/shelf/capture.json", message: "agentId: must be a string")
        let plan = plan([.analysed(photo("1.jpg", hash: "h1"))], context: .failure(problem))
        XCTAssertEqual(plan.report.contextProblem?.reason, "agentId: must be a string")
        XCTAssertNil(plan.journal.context)
        XCTAssertEqual(plan.records?.captures.map(\.agentId), [nil])
    }
}

/// Ids 1, 2, 3… for the planner's `newId`.
private final class Counter: Sendable {
    private let value = Atomic(0)

    func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}

private extension PhotoOutcome {
    var file: InboxFile {
        switch self {
        case .analysed(let photo): photo.file
        case .catalogued(let file, _), .rejected(let file, _): file
        }
    }
}
