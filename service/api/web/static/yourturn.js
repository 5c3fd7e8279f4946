// The "your turn" signal of a tab in the background: while the page is hidden
// (document.hidden) and it is the player's turn, the title reads "(Your turn) …" and the
// favicon carries a badge (a PNG drawn on a canvas, as a data: URL: the page's policy allows
// img-src 'self' data:). Both are put back as soon as the page is visible again, or when the
// turn passes.
//
//   setYourTurn(on)   the game page says whether it is the viewer's turn (false: leave it)

export const PREFIX = "(Your turn) ";

let wanted = false;
let shown = false;
let plainIcon = null; // the favicon's href before the badge

function iconLink() {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    link.href = "data:,";
    document.head.append(link);
  }
  return link;
}

let badge = null;
function badgeIcon() {
  if (badge) return badge;
  const canvas = document.createElement("canvas");
  canvas.width = 32;
  canvas.height = 32;
  const g = canvas.getContext("2d");
  if (!g) return "data:,";
  g.fillStyle = "#2b2418"; // the page's header colour: a papyrus "P"
  g.fillRect(0, 0, 32, 32);
  g.fillStyle = "#ffd27a";
  g.font = "bold 22px sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText("P", 13, 17);
  g.beginPath(); // the badge: an orange dot with a white ring, top right
  g.arc(23, 9, 8, 0, 2 * Math.PI);
  g.fillStyle = "#fff";
  g.fill();
  g.beginPath();
  g.arc(23, 9, 6, 0, 2 * Math.PI);
  g.fillStyle = "#d55e00";
  g.fill();
  badge = canvas.toDataURL("image/png");
  return badge;
}

function apply() {
  const on = wanted && document.hidden;
  if (on === shown) return;
  shown = on;
  const link = iconLink();
  const base = document.title.startsWith(PREFIX) ? document.title.slice(PREFIX.length) : document.title;
  if (on) {
    plainIcon = link.getAttribute("href");
    link.setAttribute("href", badgeIcon());
    document.title = PREFIX + base;
    document.documentElement.dataset.yourTurn = "true";
  } else {
    link.setAttribute("href", plainIcon || "data:,");
    document.title = base;
    delete document.documentElement.dataset.yourTurn;
  }
}

export function setYourTurn(on) {
  wanted = Boolean(on);
  apply();
}

document.addEventListener("visibilitychange", apply);
