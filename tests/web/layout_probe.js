// What tests/web/test_layout_a11y.py measures in a page of the web client, evaluated by
// Playwright (page.evaluate), answering plain data:
//   overflow: the page's scroll width against the window's width (horizontal scrolling);
//   small: every visible interactive element (button, link, input, select, role=button,
//     focusable [tabindex], the board's clickable SVG places) narrower or lower than `target` px;
//   overlaps: pairs of text boxes that overlap (HTML text nodes measured line by line with
//     Range.getClientRects; SVG <text> elements by their boxes), each pair within one container
//     (the nearest panel, row, list item, section, board panel or the board);
//   tinyText: the board's SVG text drawn smaller than `minFont` px (its font size in the SVG's
//     units times the scale the SVG is drawn at).
(({target, minFont}) => {
  const describe = (node) => {
    const el = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
    const testid = el.closest("[data-testid]")?.dataset.testid;
    const words = (node.textContent || el.getAttribute("aria-label") || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `${el.tagName.toLowerCase()}${testid ? `[${testid}]` : ""} "${words}"`;
  };
  const shown = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.display === "none" || style.visibility === "hidden") return false;
    }
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    // off the page on purpose (the skip link until it has the focus)
    return box.right + window.scrollX > 0 && box.bottom + window.scrollY > 0;
  };

  // the part of a box that the scrolled or clipped elements holding it let be seen (from
  // `from` up; null: none of it, or a visually hidden pixel)
  const seen = (from, rect) => {
    let {left, top, right, bottom} = rect;
    for (let e = from; e && e !== document.body; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.clipPath === "inset(50%)" || /rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)/.test(style.clip)) return null;
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const clip = e.getBoundingClientRect();
      left = Math.max(left, clip.left);
      top = Math.max(top, clip.top);
      right = Math.min(right, clip.right);
      bottom = Math.min(bottom, clip.bottom);
    }
    return right - left > 1 && bottom - top > 1 ? new DOMRect(left, top, right - left, bottom - top) : null;
  };

  const doc = document.scrollingElement;
  const overflow = {scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth};

  const controls = "button, a[href], input:not([type=hidden]), select, textarea, [role=button],"
    + " [tabindex]:not([tabindex='-1']), .clickable";
  const small = [];
  for (const el of document.querySelectorAll(controls)) {
    if (!shown(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width < target - 0.5 || box.height < target - 0.5) {
      small.push(`${describe(el)}: ${box.width.toFixed(1)}×${box.height.toFixed(1)}`);
    }
  }

  // text boxes, each with the container it is compared within
  const CONTAINER = "li, tr, .row, .panel, .side, section, header, form, fieldset, p, g.panel, g[data-testid], svg, main";
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent) continue;
    if (parent.closest("svg, option, select, script, style, title, noscript")) continue;
    if (!shown(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const whole of range.getClientRects()) {
      const rect = seen(parent, whole);
      if (rect) boxes.push({rect, node, container: parent.closest(CONTAINER)});
    }
  }
  const svgTexts = [...document.querySelectorAll("svg text")].filter((t) => t.textContent.trim() && shown(t));
  for (const text of svgTexts) {
    const rect = seen(text.parentElement, text.getBoundingClientRect());
    if (rect) boxes.push({rect, node: text, container: text.parentElement.closest(CONTAINER)});
  }
  const overlaps = [];
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const a = boxes[i];
      const b = boxes[j];
      // within one container: the nearest container of either holds the other
      if (!(a.container && a.container.contains(b.node)) && !(b.container && b.container.contains(a.node))) continue;
      if (a.node.contains(b.node) || b.node.contains(a.node)) continue;
      const wide = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
      const high = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
      // line boxes hold the font's ascent and descent: a shared sliver is not text on text
      if (wide > 2 && high > 0.3 * Math.min(a.rect.height, b.rect.height)) {
        overlaps.push(`${describe(a.node)} × ${describe(b.node)} (${wide.toFixed(0)}×${high.toFixed(0)} px)`);
      }
    }
  }

  const tinyText = [];
  for (const text of [...document.querySelectorAll("svg.board text, svg.board tspan")]) {
    if (!text.textContent.trim() || !shown(text)) continue;
    const matrix = text.getScreenCTM();
    if (!matrix) continue;
    const scale = Math.hypot(matrix.a, matrix.b);
    const size = parseFloat(getComputedStyle(text).fontSize) * scale;
    if (size < minFont - 0.05) tinyText.push(`${describe(text)}: ${size.toFixed(1)} px`);
  }
  return {overflow, small, overlaps, tinyText};
})
