// Minimal placeholder until the page (h-page) lands: renders every snapshot of the list feed.
"use strict";
const state = document.getElementById("state");
const feed = document.getElementById("feed");
const source = new EventSource("/feeds/list");
source.onopen = () => { state.textContent = "live"; };
source.onerror = () => { state.textContent = "reconnecting"; };
function render(message) {
  feed.replaceChildren(...message.sections.map((section) => {
    const element = document.createElement("section");
    element.className = "section";
    const title = document.createElement("h2");
    title.textContent = section.title;
    element.append(title, ...section.rows.map((row) => {
      const item = document.createElement("div");
      item.className = "row";
      item.textContent = `${row.author} ${row.handle} · ${row.relativeTime}: ${row.text}`;
      return item;
    }));
    return element;
  }));
}
source.addEventListener("snapshot", (event) => render(JSON.parse(event.data)));
source.addEventListener("reset", (event) => render(JSON.parse(event.data)));
source.addEventListener("change", () => fetch("/feeds/list").then((r) => r.json()).then(render));
