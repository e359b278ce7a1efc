package import Pipeline

/// `/capture`: a product captured on a phone, step by step (`flow`: the barcode, the photos, a
/// review, one save), or a whole set of photos uploaded at once, with who took them and a note,
/// which the device remembers. The whole-set form's script (`Assets.captureScript`) shows previews,
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
            \(flow(limits: limits))
            <details class="whole-set" id="whole-set">
            <summary>Send a whole set at once (a shelf, a camera roll)</summary>
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
            </details>
            <noscript><p class="problem">This page needs JavaScript to send photos.</p></noscript>
            <p class="hint">One upload is one set: the barcode, the front and the label of one product, or a whole shelf. \
            At most \(String(limits.maxFiles)) photos of up to \(String(limits.maxFileMB)) MB each. \(ingest) \
            The agent id and name are remembered on this device.</p>
            """)
    }

    /// The capture flow, one product at a time (`Assets.draftScript` runs it; hidden without
    /// script): the barcode, read at once and named; the photos, each sent as it is taken, shown,
    /// removed or taken again; then a review, and Save or Cancel. Nothing is in the inbox before Save.
    static func flow(limits: UploadLimits) -> HTML {
        """
        <section id="flow" class="flow" hidden data-max-photos="\(String(limits.maxFiles))">
        <ol class="steps"><li data-step="barcode">Barcode</li><li data-step="photos">Photos</li><li data-step="review">Review</li></ol>
        <div id="step-barcode" class="step">
        <label class="camera">Photograph the barcode
        <input type="file" id="barcode-photo" data-role="barcode" accept="image/*" capture="environment"></label>
        <div id="barcode-result" class="result" role="status"></div>
        <label id="add-to-choice" class="choice" hidden><input type="checkbox" id="add-to"> Add the new photos to that capture</label>
        <div class="actions"><button type="button" id="skip">Skip</button><button type="button" id="to-photos" hidden>Next: photos</button></div>
        </div>
        <div id="step-photos" class="step" hidden>
        <div class="takes">
        <label class="camera"><span>Front</span> <input type="file" data-role="front" accept="image/*" capture="environment"></label>
        <label class="camera"><span>Label</span> <input type="file" data-role="label" accept="image/*" capture="environment"></label>
        <label class="camera">More <input type="file" data-role="more" accept="image/*" capture="environment" multiple></label>
        </div>
        <div id="draft-photos" class="draft-photos"></div>
        <div class="actions"><button type="button" id="back-to-barcode">Back</button><button type="button" id="to-review">Next: review</button></div>
        </div>
        <div id="step-review" class="step" hidden>
        <div id="review" class="review"></div>
        <label>Agent id <input type="text" id="flow-agentId" maxlength="1000" autocomplete="off"></label>
        <label>Agent name <input type="text" id="flow-agentName" maxlength="1000" autocomplete="off"></label>
        <label>Note <input type="text" id="flow-note" maxlength="1000" autocomplete="off"></label>
        <div class="actions"><button type="button" id="back-to-photos">Back</button><button type="button" id="save">Save</button></div>
        </div>
        <progress id="flow-progress" max="100" value="0" hidden></progress>
        <p id="flow-status" role="status"></p>
        <div class="actions"><button type="button" id="cancel" class="quiet">Cancel this capture</button></div>
        </section>
        """
    }
}
