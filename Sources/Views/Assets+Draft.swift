extension Assets {
    /// The capture flow of `/capture` (`UploadPage.flow`), over `/api/drafts`: a draft is made at
    /// the first photo, each photo is sent as it is taken and the page redrawn from the draft the
    /// server answers (its code, product and thumbnails), Save puts it in the inbox and follows it
    /// until it is catalogued (`followSet`, shared with the whole-set form), Cancel removes it. The
    /// draft's id is kept on the device, so a page reloaded (a phone that locked) goes on with it.
    static let draftScript = """
        document.addEventListener("DOMContentLoaded", () => {
          const flow = document.getElementById("flow");
          if (!flow || !window.fetch || !window.FormData) return;
          flow.hidden = false;
          const token = document.querySelector("meta[name=csrf-token]");
          const headers = (more) => Object.assign(token ? { "X-CSRF-Token": token.content } : {}, more || {});
          const status = document.getElementById("flow-status");
          const progress = document.getElementById("flow-progress");
          const say = (text, problem) => { status.textContent = text; status.className = problem ? "problem" : "hint"; };
          const stored = "ingest.draft";
          let draft = null;
          let step = "barcode";
          const show = (name) => {
            step = name;
            for (const part of ["barcode", "photos", "review"]) {
              document.getElementById("step-" + part).hidden = part !== name;
              flow.querySelector("[data-step=" + part + "]").className = part === name ? "current" : "";
            }
            if (name === "review") drawReview();
          };
          const problemOf = (request, body) => body && body.error ? body.error.message : "the server answered HTTP " + request.status + ".";
          const call = (method, path, body) => fetch(path, {
            method, credentials: "same-origin",
            headers: headers(body === undefined ? {} : { "Content-Type": "application/json" }),
            body: body === undefined ? undefined : JSON.stringify(body),
          }).then((response) => response.status === 204 ? { ok: true, body: {} } :
            response.json().then((json) => ({ ok: response.ok, status: response.status, body: json })));
          const ensureDraft = () => draft ? Promise.resolve(draft) : call("POST", "/api/drafts").then(({ ok, body }) => {
            if (!ok) throw new Error(body.error ? body.error.message : "no draft could be started.");
            draft = body;
            window.localStorage.setItem(stored, draft.id);
            return draft;
          });
          const element = (tag, text, className) => {
            const made = document.createElement(tag);
            if (text !== undefined) made.textContent = text;
            if (className) made.className = className;
            return made;
          };
          const drawBarcode = () => {
            const result = document.getElementById("barcode-result");
            const choice = document.getElementById("add-to-choice");
            result.replaceChildren();
            choice.hidden = true;
            document.getElementById("to-photos").hidden = !(draft && draft.barcodeTaken);
            if (!draft || !draft.barcodeTaken) return;
            if (!draft.barcode) {
              const taken = draft.photos.find((photo) => photo.role === "barcode");
              result.append(element("p", taken && taken.problem ? "That photo cannot be read (" + taken.problem
                + ") — retake or skip." : "No barcode found — retake or skip.", "problem"));
              return;
            }
            const code = element("p");
            code.append(element("strong", draft.barcode.text, "code"), " " + draft.barcode.symbology);
            result.append(code);
            if (draft.product) {
              const named = [draft.product.name, draft.product.brand, draft.product.quantity].filter(Boolean).join(" · ");
              result.append(element("p", named || "In your product data, without a name.", "product"));
            } else {
              result.append(element("p", "Not in your product data.", "hint"));
            }
            if (draft.catalogued) {
              const since = element("p", "In the catalogue since " + draft.catalogued.since + ", " + draft.catalogued.photos
                + (draft.catalogued.photos === 1 ? " photo " : " photos "), "catalogued");
              const link = element("a", "(see it)");
              link.href = "/captures/" + draft.catalogued.capture;
              since.append(link);
              result.append(since);
              choice.hidden = false;
            }
          };
          const drawPhotos = () => {
            for (const role of ["front", "label"]) {
              const taken = draft && draft.photos.some((photo) => photo.role === role);
              const caption = flow.querySelector("input[data-role=" + role + "]").parentElement.querySelector("span");
              caption.textContent = (taken ? "Retake " + role : role[0].toUpperCase() + role.slice(1));
            }
            const list = document.getElementById("draft-photos");
            list.replaceChildren(...(draft ? draft.photos : []).map((photo) => {
              const card = element("figure", undefined, "draft-photo");
              card.dataset.number = photo.number;
              card.dataset.role = photo.role;
              if (photo.thumbnail) {
                const image = element("img");
                image.src = photo.thumbnail;
                image.alt = photo.role + " photo";
                card.append(image);
              }
              const caption = element("figcaption", photo.role + (photo.codes.length ? " · " + photo.codes[0].text : ""));
              if (photo.problem) caption.append(element("span", " " + photo.problem, "problem"));
              const remove = element("button", "Remove", "quiet");
              remove.type = "button";
              remove.dataset.remove = photo.number;
              caption.append(" ", remove);
              card.append(caption);
              return card;
            }));
          };
          const drawReview = () => {
            const review = document.getElementById("review");
            review.replaceChildren();
            if (!draft || !draft.photos.length) {
              review.append(element("p", "No photo yet: take one first.", "problem"));
              return;
            }
            review.append(element("p", draft.barcode ? "Barcode " + draft.barcode.text + (draft.product && draft.product.name
              ? " · " + draft.product.name : "") : "No barcode."));
            if (draft.catalogued && document.getElementById("add-to").checked) {
              review.append(element("p", "The photos will be added to the capture in the catalogue since " + draft.catalogued.since + "."));
            }
            const strip = element("div", undefined, "previews");
            for (const photo of draft.photos) {
              if (!photo.thumbnail) continue;
              const image = element("img");
              image.src = photo.thumbnail;
              image.alt = photo.role + " photo";
              strip.append(image);
            }
            review.append(strip, element("p", draft.photos.length + (draft.photos.length === 1 ? " photo." : " photos."), "hint"));
          };
          const draw = () => { drawBarcode(); drawPhotos(); if (step === "review") drawReview(); };
          const send = (files, role) => ensureDraft().then(() => new Promise((resolve) => {
            const data = new FormData();
            for (const file of files) data.append("photo", file, file.name);
            const request = new XMLHttpRequest();
            request.open("POST", "/api/drafts/" + draft.id + "/photos?role=" + role);
            if (token) request.setRequestHeader("X-CSRF-Token", token.content);
            request.upload.addEventListener("progress", (event) => {
              if (event.lengthComputable) progress.value = 100 * event.loaded / event.total;
            });
            request.addEventListener("load", () => {
              let body = {};
              try { body = JSON.parse(request.responseText); } catch (error) { body = {}; }
              progress.hidden = true;
              if (request.status !== 200) {
                say(problemOf(request, body), true);
                if (request.status === 404) forget();
                return resolve();
              }
              draft = body;
              say(role === "barcode" ? (draft.barcode ? "Barcode read." : "No barcode found on that photo.")
                : "Photo kept (" + draft.photos.length + " in all).");
              draw();
              resolve();
            });
            request.addEventListener("error", () => {
              progress.hidden = true;
              say("the photo was cut off on its way; nothing of it was kept. Take it again.", true);
              resolve();
            });
            progress.hidden = false;
            progress.value = 0;
            say(role === "barcode" ? "Reading the barcode…" : "Sending the photo…");
            request.send(data);
          })).catch((error) => say(error.message, true));
          const forget = () => {
            draft = null;
            window.localStorage.removeItem(stored);
            document.getElementById("add-to").checked = false;
            draw();
          };
          for (const input of flow.querySelectorAll("input[type=file][data-role]")) {
            input.addEventListener("change", () => {
              const files = Array.from(input.files);
              input.value = "";
              if (files.length) send(files, input.dataset.role);
            });
          }
          flow.addEventListener("click", (event) => {
            const number = event.target.dataset ? event.target.dataset.remove : undefined;
            if (!number || !draft) return;
            call("DELETE", "/api/drafts/" + draft.id + "/photos/" + number).then(({ ok, body }) => {
              if (!ok) return say(body.error ? body.error.message : "the photo could not be removed.", true);
              draft = body;
              say("Photo removed.");
              draw();
            });
          });
          document.getElementById("skip").addEventListener("click", () => show("photos"));
          document.getElementById("to-photos").addEventListener("click", () => show("photos"));
          document.getElementById("back-to-barcode").addEventListener("click", () => show("barcode"));
          document.getElementById("to-review").addEventListener("click", () => show("review"));
          document.getElementById("back-to-photos").addEventListener("click", () => show("photos"));
          const remembered = ["agentId", "agentName"];
          for (const id of remembered) {
            const value = window.localStorage.getItem("ingest." + id);
            if (value) document.getElementById("flow-" + id).value = value;
          }
          document.getElementById("save").addEventListener("click", () => {
            if (!draft || !draft.photos.length) return say("No photo yet: take one first.", true);
            const body = {};
            for (const id of ["agentId", "agentName", "note"]) {
              const value = document.getElementById("flow-" + id).value.trim();
              if (remembered.includes(id)) window.localStorage.setItem("ingest." + id, value);
              if (value) body[id] = value;
            }
            if (body.agentId) {
              body.requestId = "capture-" + Date.now().toString(36);
            } else {
              delete body.agentName;
              delete body.note;
            }
            if (draft.catalogued && document.getElementById("add-to").checked) body.addTo = draft.catalogued.capture;
            const saving = draft.id;
            call("POST", "/api/drafts/" + saving + "/save", body).then(({ ok, body: answer }) => {
              if (!ok) return say(answer.error ? answer.error.message : "the draft could not be saved.", true);
              forget();
              show("barcode");
              say("Saved; waiting to be catalogued…");
              window.followSet(answer.status, say, status);
            });
          });
          document.getElementById("cancel").addEventListener("click", () => {
            if (!draft) { show("barcode"); return say("Nothing to cancel."); }
            call("DELETE", "/api/drafts/" + draft.id).then(({ ok, body }) => {
              if (!ok && body.error) say(body.error.message, true); else say("Cancelled; nothing was kept.");
              forget();
              show("barcode");
            });
          });
          const kept = window.localStorage.getItem(stored);
          if (kept) {
            call("GET", "/api/drafts/" + kept).then(({ ok, body }) => {
              if (!ok) return forget();
              draft = body;
              draw();
              if (draft.photos.length) { show(draft.barcodeTaken ? "photos" : "barcode"); say("Going on with the capture you started."); }
            }).catch(() => {});
          }
          show("barcode");
        });

        """

    static let draftStylesheet = """
        .flow { display: flex; flex-direction: column; gap: .8rem; max-width: 36rem; min-width: 0; }
        .flow[hidden], .flow [hidden] { display: none !important; }
        .flow .steps { display: flex; gap: .5rem; list-style: none; padding: 0; margin: 0; color: var(--muted); }
        .flow .steps li.current { color: var(--ink); font-weight: 600; }
        .flow .step { display: flex; flex-direction: column; gap: .6rem; }
        .flow label.camera { border: 2px dashed var(--line); border-radius: 8px; padding: 1rem; }
        .flow .takes { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: .4rem; }
        .flow .takes label.camera { padding: .8rem .4rem; text-align: center; min-width: 0; overflow: hidden; }
        .flow input[type=file] { width: 100%; min-width: 0; max-width: 100%; }
        .flow label { display: flex; flex-direction: column; font-size: .9em; color: var(--muted); }
        .flow label.choice { flex-direction: row; gap: .4rem; align-items: center; color: var(--ink); }
        .flow input[type=text] { padding: .5rem; border: 1px solid var(--line); border-radius: 6px; }
        .flow .actions { display: flex; gap: .5rem; flex-wrap: wrap; }
        .flow button { padding: .7rem 1rem; font-size: 1.05em; }
        .flow button.quiet { padding: .3rem .6rem; font-size: .9em; }
        .flow progress { width: 100%; height: 1rem; }
        .flow .result .code { font-size: 1.2em; letter-spacing: .05em; }
        .draft-photos { display: grid; grid-template-columns: repeat(auto-fill, minmax(100px, 1fr)); gap: .5rem; }
        .draft-photo { margin: 0; display: flex; flex-direction: column; gap: .2rem; font-size: .85em; }
        .draft-photo img { width: 100%; aspect-ratio: 1; object-fit: cover; border-radius: 4px; background: #eceff1; }
        details.whole-set { max-width: 36rem; margin-top: 1.5rem; }

        """
}
