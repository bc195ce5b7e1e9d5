// @ts-check
/**
 * The banner under the header: the outcome of an operator action, or why
 * the page cannot list namespaces. It stays until dismissed.
 *
 * @module
 */
import { $ } from "./dom.js";

/**
 * Shows `message` in the banner; `kind` is "ok" or "error".
 *
 * @example
 * ```js ignore
 * showBanner("error", "Cannot list namespaces");
 * ```
 *
 * @param {string} kind Its colour class.
 * @param {string} message Its text.
 * @returns {void}
 */
export function showBanner(kind, message) {
  $("banner").className = "banner " + kind;
  $("banner-text").textContent = message;
  $("banner").hidden = false;
}

/**
 * Lets the banner's button dismiss it.
 *
 * @example
 * ```js ignore
 * bindBanner();
 * ```
 *
 * @returns {void}
 */
export function bindBanner() {
  $("banner-close").addEventListener("click", () => $("banner").hidden = true);
}
