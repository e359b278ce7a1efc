/// The pages' one stylesheet and one script, served as files (`/assets/…`; an export writes them
/// beside its pages): no inline script or style, no build step, nothing fetched from elsewhere.
package enum Assets {
    /// The files by name, with their content types.
    package static let files: [String: (contentType: String, text: String)] = [
        "app.css": ("text/css; charset=utf-8", stylesheet + captureStylesheet + draftStylesheet),
        "app.js": ("text/javascript; charset=utf-8", script + captureScript + draftScript),
        "icon.svg": ("image/svg+xml", icon),
    ]

    /// The tab's icon: a barcode (without one, browsers ask for /favicon.ico and log its 404).
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#20242a"/>\
        <path d="M3 3v10M5 3v10M6.5 3v10M9 3v10M11 3v10M13 3v10" stroke="#fff" stroke-width="1"/></svg>

        """

    /// Asks before submitting a form marked `data-confirm`, and counts the captures ticked for a
    /// merge, enabling its button from two on. The pages work without it.
    static let script = """
        "use strict";
        document.addEventListener("DOMContentLoaded", () => {
          for (const form of document.querySelectorAll("form[data-confirm]")) {
            form.addEventListener("submit", (event) => {
              if (!window.confirm(form.dataset.confirm)) event.preventDefault();
            });
          }
          const button = document.getElementById("merge-button");
          if (button) {
            const boxes = Array.from(document.querySelectorAll("input[type=checkbox][form=merge]"));
            const update = () => {
              const ticked = new Set(boxes.filter((box) => box.checked).map((box) => box.value)).size;
              button.disabled = ticked < 2;
              button.textContent = ticked < 2 ? "Merge selected" : `Merge ${ticked} captures`;
            };
            for (const box of boxes) box.addEventListener("change", update);
            update();
          }
        });

        """

    static let stylesheet = """
        :root { --ink: #1d1f21; --muted: #5f6368; --line: #d9dce0; --paper: #fafafa; --accent: #0b57d0; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--ink); background: var(--paper); }
        header.top { background: #20242a; color: #fff; padding: .5rem 1rem; }
        header.top nav { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
        header.top a { color: #fff; text-decoration: none; }
        header.top a.brand { font-weight: 700; }
        header.top form.signout { margin-left: auto; }
        main { padding: 1rem; max-width: 1400px; margin: 0 auto; }
        h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
        h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
        a { color: var(--accent); }
        .hint, .meta, .id, .symbology { color: var(--muted); font-size: .9em; }
        .none { color: var(--muted); font-style: italic; }
        .problem { color: #b3261e; font-weight: 600; }
        .notice { background: #e8f0fe; border: 1px solid #aecbfa; padding: .5rem .75rem; border-radius: 6px; }
        .badge { background: #fbbc04; color: #000; border-radius: 4px; padding: 0 .4rem; font-size: .85em; }
        form.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin-bottom: 1rem; }
        form.filters label { display: flex; flex-direction: column; font-size: .85em; color: var(--muted); }
        form.inline { display: inline-flex; gap: .3rem; align-items: center; margin: .15rem .4rem .15rem 0; }
        input, select, button { font: inherit; }
        button { cursor: pointer; border: 1px solid var(--line); background: #fff; border-radius: 4px; padding: .15rem .6rem; }
        button:disabled { cursor: default; opacity: .5; }
        form.delete button { color: #b3261e; }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(210px, 1fr)); gap: .8rem; }
        .card { background: #fff; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
        .card .thumb { display: block; aspect-ratio: 4 / 3; background: #eceff1; }
        .card .thumb img { width: 100%; height: 100%; object-fit: contain; display: block; }
        .card .nothumb { display: block; padding: 2rem; text-align: center; color: var(--muted); }
        .card .facts { padding: .4rem .6rem .6rem; }
        .card h3 { font-size: 1rem; margin: 0; }
        .card p { margin: .1rem 0; }
        .card .code, dl.facts dd { overflow-wrap: anywhere; }
        .card .pick { float: right; font-size: .85em; color: var(--muted); }
        .rating { border-radius: 4px; padding: 0 .35rem; font-size: .8em; font-weight: 600; color: #fff; vertical-align: middle; }
        .rating-excellent { background: #137333; } .rating-good { background: #1e8e3e; }
        .rating-fair { background: #e37400; } .rating-poor { background: #b3261e; }
        .source-file-time { color: #b3261e; }
        .pager { margin: 1rem 0; display: flex; gap: 1rem; }
        .capture { display: flex; flex-wrap: wrap; gap: 1rem 2rem; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; }
        .note { white-space: pre-wrap; }
        .corrections { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: .2rem 1rem .6rem; }
        .corrections h2 { margin: .5rem 0; }
        .action { display: flex; align-items: center; flex-wrap: wrap; margin: .3rem 0; }
        .action .label { width: 5rem; color: var(--muted); }
        .photos { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 1rem; }
        figure.photo { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: .5rem; }
        figure.photo .frame { position: relative; display: block; }
        figure.photo img { width: 100%; height: auto; display: block; image-orientation: from-image; }
        svg.hits { position: absolute; inset: 0; width: 100%; height: 100%; pointer-events: none; }
        svg.hits rect { fill: rgba(11, 87, 208, .12); stroke: #0b57d0; stroke-width: 3; vector-effect: non-scaling-stroke; }
        svg.hits rect.word { display: none; fill: rgba(214, 120, 0, .10); stroke: #d67800; stroke-width: 1.5; }
        figure.photo:has(input.show-words:checked) svg.hits rect.word { display: inline; }
        details.text p.words { font-size: .9em; white-space: normal; }
        figcaption p { margin: .15rem 0; }
        ul.barcodes, ul.history { margin: .2rem 0; padding-left: 1.2rem; }
        ul.history li { margin: .3rem 0; }
        .undone { text-decoration: line-through; }
        .edit-id { font-weight: 600; }
        .kind { background: #eceff1; border-radius: 4px; padding: 0 .3rem; font-size: .85em; }
        .empty { color: var(--muted); }

        """
}
