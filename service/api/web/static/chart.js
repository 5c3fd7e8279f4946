// A small line chart of a rating over games, drawn in SVG, with its text alternative: the SVG is
// one image (role="img") named by a sentence that says where the rating started, where it is
// and its range; the same points follow as a table (in a <details>), each with a link to the
// game's replay.
//
//   ratingChart({points, label, id, start}) -> a <figure>
//     points: [{gameId, rating, at}], oldest first; start: the rating before the first point
//     (null: unknown, the history was cut); label: what the chart shows ("Imhotep rating")

import {el, h} from "./svg.js";

const WIDTH = 320;
const HEIGHT = 140;
const PAD = {left: 40, right: 10, top: 10, bottom: 22};

const round = (value) => Math.round(value);

export function dateOf(at) {
  if (!at) return "";
  const when = new Date(at);
  return Number.isNaN(when.getTime()) ? at : when.toISOString().slice(0, 10);
}

// The sentence that stands for the chart.
export function describe(points, start, label) {
  if (!points.length) return `${label}: no rated game yet.`;
  const ratings = points.map((p) => p.rating);
  const first = start === null || start === undefined ? ratings[0] : start;
  const last = ratings[ratings.length - 1];
  const change = last - first;
  const word = change > 0 ? `up ${round(change)}` : change < 0 ? `down ${round(-change)}` : "unchanged";
  return `${label} over ${points.length} rated game${points.length === 1 ? "" : "s"}: from ${round(first)} `
    + `to ${round(last)} (${word}); lowest ${round(Math.min(first, ...ratings))}, `
    + `highest ${round(Math.max(first, ...ratings))}.`;
}

export function ratingChart({points, label, id, start = null}) {
  const values = [...(start === null ? [] : [start]), ...points.map((p) => p.rating)];
  if (!values.length) return h("p", {class: "chart-empty"}, describe(points, start, label));
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 20); // a flat line still gets a scale
  const mid = (high + low) / 2;
  const top = mid + span / 2;
  const bottom = mid - span / 2;
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (values.length === 1 ? innerW / 2 : (i * innerW) / (values.length - 1));
  const y = (v) => PAD.top + ((top - v) * innerH) / (top - bottom);
  const sentence = describe(points, start, label);
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  const svg = el("svg", {class: "chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
    "aria-labelledby": `${titleId} ${descId}`, "data-testid": `${id}-svg`, focusable: "false"},
  el("title", {id: titleId}, label),
  el("desc", {id: descId}, sentence),
  el("line", {class: "axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: HEIGHT - PAD.bottom}),
  el("line", {class: "axis", x1: PAD.left, y1: HEIGHT - PAD.bottom, x2: WIDTH - PAD.right, y2: HEIGHT - PAD.bottom}),
  el("text", {class: "tick", x: PAD.left - 4, y: y(top) + 4, "text-anchor": "end"}, String(round(top))),
  el("text", {class: "tick", x: PAD.left - 4, y: y(bottom), "text-anchor": "end"}, String(round(bottom))),
  el("text", {class: "tick", x: WIDTH - PAD.right, y: HEIGHT - 6, "text-anchor": "end"},
    `${points.length} game${points.length === 1 ? "" : "s"}`),
  values.length > 1
    ? el("polyline", {class: "line", points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ")})
    : null,
  values.map((v, i) => el("circle", {class: i === values.length - 1 ? "dot last" : "dot",
    cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3.5})));
  const rows = points.map((p, i) => h("tr", {},
    h("th", {scope: "row"}, String(i + 1)),
    h("td", {}, dateOf(p.at)),
    h("td", {class: "num"}, String(round(p.rating))),
    h("td", {}, h("a", {href: `/games/${encodeURIComponent(p.gameId)}`, "data-link": true,
      class: "cell-link"}, "Replay", h("span", {class: "visually-hidden"}, ` of rated game ${i + 1}`)))));
  return h("figure", {class: "chart-box", "data-testid": id},
    svg,
    h("figcaption", {class: "muted small"}, sentence),
    points.length ? h("details", {class: "chart-table"},
      h("summary", {}, `${label}: every point as a table`),
      h("table", {class: "data"},
        h("caption", {class: "visually-hidden"}, `${label}, game by game`),
        h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "#"), h("th", {scope: "col"}, "Date"),
          h("th", {scope: "col", class: "num"}, "Rating after"), h("th", {scope: "col"}, "Game"))),
        h("tbody", {}, rows))) : null);
}
