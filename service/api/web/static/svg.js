// Tiny DOM/SVG helpers and the colour-blind-safe palette shared by the boards.
//
// el(tag, attrs, ...children) builds an SVG element; h(tag, attrs, ...children) an HTML one.
// attrs: null/undefined/false are skipped, true sets an empty attribute, "on<event>" functions
// become listeners, "text" sets textContent, "style" is set through the CSSOM (no style
// attribute: the page's Content-Security-Policy allows stylesheets only). children: nodes,
// strings, numbers, arrays (flattened), null/undefined/false (skipped).

export const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "text") {
      node.textContent = String(value);
    } else if (key === "style") {
      // through the CSSOM: the page's Content-Security-Policy refuses style attributes
      node.style.cssText = String(value);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function el(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

export function title(text) {
  return el("title", {}, text);
}

// An id lowercased (null/undefined kept): the typed views carry enum values (UPPER_SNAKE), the
// catalogs lower-case ids, so the boards compare both through this.
export const lower = (value) => (value === null || value === undefined ? value : String(value).toLowerCase());

// The width a board may draw in: the container's content box (its padding left out).
export function contentWidth(container, fallback = 1000) {
  if (!container.clientWidth) return fallback;
  const style = window.getComputedStyle(container);
  return container.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
}

// A keyboard- and pointer-activated control (role=button, focusable, Enter/Space). Its name is
// `label`, followed by the text drawn on it when the label does not say that text (a card's
// drawing): what is seen on a control is part of its name.
export function clickable(node, label, onActivate) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  const said = [...node.querySelectorAll("text")].map((t) => t.textContent).join(" ").replace(/\s+/g, " ").trim();
  const named = said && !label.toLowerCase().includes(said.toLowerCase()) ? `${label}: ${said}` : label;
  node.setAttribute("aria-label", named);
  node.classList.add("clickable");
  node.addEventListener("click", (event) => {
    event.preventDefault();
    onActivate();
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onActivate();
    }
  });
  return node;
}

// Seat styles for games whose seats have no colour of their own (Okabe-Ito palette, each with
// a distinct shape and letter so no information rests on colour alone).
export const SEAT_STYLES = [
  {name: "orange", fill: "#E69F00", ink: "#000", shape: "circle", letter: "O"},
  {name: "sky blue", fill: "#56B4E9", ink: "#000", shape: "square", letter: "S"},
  {name: "green", fill: "#009E73", ink: "#fff", shape: "triangle", letter: "G"},
  {name: "yellow", fill: "#F0E442", ink: "#000", shape: "diamond", letter: "Y"},
  {name: "blue", fill: "#0072B2", ink: "#fff", shape: "hexagon", letter: "B"},
  {name: "vermilion", fill: "#D55E00", ink: "#fff", shape: "star", letter: "V"},
];

function polygon(cx, cy, r, points, rotation) {
  const out = [];
  for (let i = 0; i < points; i += 1) {
    const angle = rotation + (2 * Math.PI * i) / points;
    out.push(`${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`);
  }
  return out.join(" ");
}

function star(cx, cy, r) {
  const out = [];
  for (let i = 0; i < 10; i += 1) {
    const radius = i % 2 === 0 ? r : r * 0.5;
    const angle = -Math.PI / 2 + (Math.PI * i) / 5;
    out.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return out.join(" ");
}

// The outline of a shape centred on (cx, cy) with "radius" r.
export function shape(kind, cx, cy, r, attrs = {}) {
  switch (kind) {
    case "square":
      return el("rect", {x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, ...attrs});
    case "triangle":
      return el("polygon", {points: polygon(cx, cy + r * 0.15, r * 1.1, 3, -Math.PI / 2), ...attrs});
    case "diamond":
      return el("polygon", {points: polygon(cx, cy, r * 1.1, 4, -Math.PI / 2), ...attrs});
    case "hexagon":
      return el("polygon", {points: polygon(cx, cy, r, 6, 0), ...attrs});
    case "star":
      return el("polygon", {points: star(cx, cy, r * 1.15), ...attrs});
    default:
      return el("circle", {cx, cy, r, ...attrs});
  }
}

// A piece: the style's shape filled with its colour, its letter on it (when r is big enough).
// The letter is never under 12 units (the boards' smallest text: 12 px as drawn).
export function piece(style, cx, cy, r, label) {
  const group = el("g", {class: "piece", "data-colour": style.name});
  if (label) group.append(title(label));
  group.append(shape(style.shape, cx, cy, r, {fill: style.fill, stroke: "#333", "stroke-width": 1.2}));
  if (r >= 7) {
    const size = Math.max(12, r * 1.05);
    group.append(el("text", {
      x: cx, y: cy + size * 0.36, "text-anchor": "middle", "font-size": size,
      "font-weight": "700", fill: style.ink, "pointer-events": "none",
    }, style.letter));
  }
  return group;
}
