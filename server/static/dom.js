// Building the pages' HTML with DOM calls: text reaches the page only through
// textContent and attribute values, never as markup.

/** The element of the page with id ``id``. */
export const $ = (id) => document.getElementById(id);

/** An HTML element: ``attrs`` (``text`` its text, ``class``, ``onX`` a listener of event X,
 * ``true`` an empty attribute, ``null``/``undefined``/``false`` left out) and children
 * (elements, or strings as text). */
export function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) node.append(typeof child === "string" ? document.createTextNode(child) : child);
  return node;
}
