package import Pipeline

/// `/capture`: photos from a phone's camera (or files) uploaded as one set, with who took them and
/// a note, which the device remembers. The page's script (`Assets.captureScript`) shows previews,
/// sends the set with a progress bar, then follows it until it is catalogued and opens its capture.
package enum UploadPage {
    package static func page(limits: UploadLimits, watching: Bool, context: PageContext) -> HTML {
        guard context.canCorrect else {
            let reason: HTML = context.readOnly
                ? "This server runs with <code>--read-only</code>: uploads are turned off."
                : "Uploads need a signed-in browser."
            return PageLayout.page(title: "Capture", context: context, content: """
                <h1>Capture</h1>
                <p class="problem">\(reason)</p>
                """)
        }
        let ingest: HTML = watching
            ? "This server ingests each set as soon as it arrives."
            : "The set waits in the inbox until <code>ingest watch</code> (or the next <code>ingest run</code>) takes it."
        return PageLayout.page(title: "Capture", context: context, content: """
            <h1>Capture</h1>
            <form id="capture" class="upload" method="post" action="/api/sets" enctype="multipart/form-data">
            <label class="camera">Take or choose photos
            <input type="file" name="photo" id="photos" accept="image/*" capture="environment" multiple required></label>
            <div id="previews" class="previews"></div>
            <label>Agent id <input type="text" name="agentId" id="agentId" maxlength="1000" autocomplete="off"></label>
            <label>Agent name <input type="text" name="agentName" id="agentName" maxlength="1000" autocomplete="off"></label>
            <label>Note <input type="text" name="note" id="note" maxlength="1000" autocomplete="off"></label>
            <button type="submit" id="send">Upload</button>
            <progress id="progress" max="100" value="0" hidden></progress>
            <p id="outcome" role="status"></p>
            </form>
            <noscript><p class="problem">This page needs JavaScript to send photos.</p></noscript>
            <p class="hint">One upload is one set: the barcode, the front and the label of one product, or a whole shelf. \
            At most \(String(limits.maxFiles)) photos of up to \(String(limits.maxFileMB)) MB each. \(ingest) \
            The agent id and name are remembered on this device.</p>
            """)
    }
}
