// @ts-check
/**
 * The page's small DOM helpers: look an element up by id (the page test
 * checks that every id looked up exists in the page), make one, and set a
 * status badge.
 *
 * @module
 */

/**
 * The element with `id`; throws when the page has none (a bug: `page_test.ts`
 * checks every id this code looks up).
 *
 * @example
 * ```js ignore
 * $("banner").hidden = false;
 * ```
 *
 * @param {string} id Element id, without `#`.
 * @returns {HTMLElement} The element.
 */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`The dashboard page has no element #${id}`);
  return el;
}

/**
 * The element with `id`, checked to be a `type` (an input, a canvas...).
 *
 * @example
 * ```js ignore
 * const text = $as("shard-find", HTMLInputElement).value;
 * ```
 *
 * @template {HTMLElement} T
 * @param {string} id Element id, without `#`.
 * @param {{ new (): T; prototype: T }} type The element's class.
 * @returns {T} The element.
 */
export function $as(id, type) {
  const el = $(id);
  if (!(el instanceof type)) throw new TypeError(`#${id} is a ${el.tagName}, not a ${type.name}`);
  return el;
}

/**
 * A new element with an optional class and text.
 *
 * @example
 * ```js ignore
 * const cell = make("td", "num", "42");
 * ```
 *
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag Tag name.
 * @param {string} [className] Class attribute, when not empty.
 * @param {string} [text] Text content.
 * @returns {HTMLElementTagNameMap[K]} The element.
 */
export function make(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/**
 * Makes `el` a badge of `kind` (`ok`, `warn`, `bad`, `muted`) saying `label`.
 *
 * @example
 * ```js ignore
 * badge($("health"), "ok", "STORE OK");
 * ```
 *
 * @param {Element} el The badge.
 * @param {string} kind Its colour class.
 * @param {string} label Its text.
 * @returns {void}
 */
export function badge(el, kind, label) {
  el.className = "badge " + kind;
  el.textContent = label;
}
