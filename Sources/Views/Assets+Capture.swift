extension Assets {
    /// The capture page's whole-set form (`UploadPage`): remembers the agent, shows previews,
    /// uploads with progress, then follows the set (`followSet`: asks `/api/sets/{name}` until the
    /// set is catalogued and opens its capture, or lists them, or says why its photos were set aside).
    static let captureScript = """
        window.followSet = (status, say, outcome) => {
          fetch(status, { headers: { Accept: "application/json" } })
            .then((response) => response.json().then((body) => ({ ok: response.ok, body })))
            .then(({ ok, body }) => {
              if (!ok) return say(body.error ? body.error.message : "the set was not found.", true);
              if (body.state === "ingested") {
                if (body.captures.length === 1) return window.location.assign("/captures/" + body.captures[0]);
                say("Catalogued as " + body.captures.length + " captures.");
                for (const id of body.captures) {
                  const link = document.createElement("a");
                  link.href = "/captures/" + id;
                  link.textContent = " " + id;
                  outcome.append(link);
                }
                return;
              }
              if (body.state === "quarantined") {
                return say("Not catalogued: " + body.setAside.map((photo) => photo.file + ": " + photo.reason).join("; "), true);
              }
              say(body.state === "ingesting" ? "Reading barcodes…" : "Uploaded; waiting to be ingested…");
              window.setTimeout(() => window.followSet(status, say, outcome), 1000);
            })
            .catch(() => window.setTimeout(() => window.followSet(status, say, outcome), 2000));
        };
        document.addEventListener("DOMContentLoaded", () => {
          const form = document.getElementById("capture");
          if (!form) return;
          const input = document.getElementById("photos");
          const previews = document.getElementById("previews");
          const progress = document.getElementById("progress");
          const outcome = document.getElementById("outcome");
          const send = document.getElementById("send");
          const remembered = ["agentId", "agentName"];
          for (const id of remembered) {
            const value = window.localStorage.getItem("ingest." + id);
            if (value) document.getElementById(id).value = value;
          }
          const say = (text, problem) => {
            outcome.textContent = text;
            outcome.className = problem ? "problem" : "hint";
          };
          input.addEventListener("change", () => {
            previews.replaceChildren(...Array.from(input.files).map((file) => {
              const image = document.createElement("img");
              image.src = URL.createObjectURL(file);
              image.alt = file.name;
              image.addEventListener("load", () => URL.revokeObjectURL(image.src));
              return image;
            }));
          });
          form.addEventListener("submit", (event) => {
            event.preventDefault();
            for (const id of remembered) window.localStorage.setItem("ingest." + id, document.getElementById(id).value);
            const data = new FormData();
            for (const file of input.files) data.append("photo", file, file.name);
            const agentId = document.getElementById("agentId").value.trim();
            if (agentId) {
              data.append("agentId", agentId);
              for (const id of ["agentName", "note"]) {
                const value = document.getElementById(id).value.trim();
                if (value) data.append(id, value);
              }
              data.append("requestId", "capture-" + Date.now().toString(36));
            }
            const request = new XMLHttpRequest();
            request.open("POST", "/api/sets");
            const token = document.querySelector("meta[name=csrf-token]");
            if (token) request.setRequestHeader("X-CSRF-Token", token.content);
            request.upload.addEventListener("progress", (progressEvent) => {
              if (progressEvent.lengthComputable) progress.value = 100 * progressEvent.loaded / progressEvent.total;
            });
            request.addEventListener("load", () => {
              let body = {};
              try { body = JSON.parse(request.responseText); } catch (error) { body = {}; }
              if (request.status !== 201) {
                send.disabled = false;
                progress.hidden = true;
                return say(body.error ? body.error.message : "the upload failed (HTTP " + request.status + ").", true);
              }
              progress.value = 100;
              // The photos sent are cleared: a second tap cannot send the same set twice.
              send.disabled = false;
              input.value = "";
              say("Uploaded " + body.photos.length + " photos as " + body.set + ".");
              window.followSet(body.status, say, outcome);
            });
            request.addEventListener("error", () => {
              send.disabled = false;
              progress.hidden = true;
              say("the upload was cut off; nothing of it was kept. Try again.", true);
            });
            send.disabled = true;
            progress.hidden = false;
            progress.value = 0;
            say("Sending…");
            request.send(data);
          });
        });

        """

    static let captureStylesheet = """
        form.upload { display: flex; flex-direction: column; gap: .7rem; max-width: 36rem; }
        form.upload label { display: flex; flex-direction: column; font-size: .9em; color: var(--muted); }
        form.upload input[type=text] { padding: .5rem; border: 1px solid var(--line); border-radius: 6px; }
        form.upload label.camera { border: 2px dashed var(--line); border-radius: 8px; padding: 1rem; color: var(--ink); }
        form.upload button { padding: .7rem; font-size: 1.05em; }
        form.upload progress { width: 100%; height: 1rem; }
        .previews { display: grid; grid-template-columns: repeat(auto-fill, minmax(90px, 1fr)); gap: .4rem; }
        form.inline { flex-wrap: wrap; max-width: 100%; }
        form.inline input[type=text] { min-width: 0; max-width: 100%; }
        .capture > * { min-width: 0; max-width: 100%; }
        .previews img { width: 100%; aspect-ratio: 1; object-fit: cover; border-radius: 4px; background: #eceff1; }

        """
}
