/**
 * @module Runs in Chromium: `measureCards(svgs)` puts each card in its own shadow root (so the
 * cards' styles stay apart) and returns, per card, its size and the box of every drawn text in
 * the card's own coordinates (getBBox through the text's transforms).
 */
globalThis.measureCards = (svgs) => {
  document.body.replaceChildren();
  const roots = svgs.map((markup) => {
    const host = document.createElement('div');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    shadow.innerHTML = markup;
    return shadow.querySelector('svg');
  });
  return roots.map((svg) => {
    const view = svg.viewBox.baseVal;
    const width = view?.width || svg.width.baseVal.value;
    const height = view?.height || svg.height.baseVal.value;
    const toCard = svg.getScreenCTM().inverse();
    const boxes = [];
    for (const text of svg.querySelectorAll('text')) {
      const style = getComputedStyle(text);
      if (text.closest('defs,clipPath,mask,symbol,pattern') || style.display === 'none') continue;
      if (style.visibility === 'hidden' || Number(style.opacity) === 0 || !text.textContent.trim()) continue;
      const box = text.getBBox();
      const matrix = toCard.multiply(text.getScreenCTM());
      const corners = [
        [box.x, box.y],
        [box.x + box.width, box.y],
        [box.x, box.y + box.height],
        [box.x + box.width, box.y + box.height],
      ].map(([x, y]) => new DOMPoint(x, y).matrixTransform(matrix));
      boxes.push({
        text: text.textContent,
        left: Math.min(...corners.map((point) => point.x)),
        right: Math.max(...corners.map((point) => point.x)),
        top: Math.min(...corners.map((point) => point.y)),
        bottom: Math.max(...corners.map((point) => point.y)),
      });
    }
    return { width, height, boxes };
  });
};
