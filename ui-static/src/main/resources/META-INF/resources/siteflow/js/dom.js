// DOM helpers. Every piece of data becomes text (textContent / text nodes): never innerHTML with data.

/** el('td', {class: 'num', title: 'x'}, 'text', childNode, ...) */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else e.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === undefined || c === null) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** Replaces the children of a node. */
export function fill(node, ...children) {
  node.replaceChildren(...children.filter((c) => c !== undefined && c !== null));
  return node;
}

export function byId(id) {
  return document.getElementById(id);
}

/** One table row of cells; a cell given as [text, 'num'] gets that class. */
export function row(cells, attrs) {
  return el('tr', attrs, ...cells.map((c) => (Array.isArray(c) ? el('td', {class: c[1]}, c[0]) : el('td', {}, c))));
}
