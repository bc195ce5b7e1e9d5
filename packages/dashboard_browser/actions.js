// @ts-check
/**
 * Operator actions: drain and undrain shards (from the lookup or a list with
 * ranges such as `0-15`) and executors by id or selector. Every action asks
 * for confirmation and reports its outcome in a banner that stays until
 * dismissed. The page shows these controls only when the instance allows
 * actions (`server.dashboardActions`). When the instance asks for a bearer
 * token (`security.auth`), the page prompts for an operator token once and
 * keeps it in `sessionStorage` for the tab.
 *
 * @module
 */
import { showBanner } from "./banner.js";
import { $, $as } from "./dom.js";
import { ui } from "./ui.js";

/** @import { ExecutorRow } from "../../src/transport/http/dashboard/state.ts" */

/**
 * Posts `body` to the selected namespace's `path` (`shards/drain`...), and
 * tells how it went in the banner, under `label`.
 *
 * @example
 * ```js ignore
 * act("shards/drain", { shardKeys: ["7"] }, "Drain shard 7");
 * ```
 *
 * @param {string} path Below `api/namespaces/<ns>/`.
 * @param {object} body The request, as JSON.
 * @param {string} label What the action is, for the banner.
 * @param {boolean} [retried] Whether a token was asked for already.
 * @returns {Promise<void>}
 */
export async function act(path, body, label, retried) {
  try {
    /** @type {Record<string, string>} */
    const headers = { "content-type": "application/json" };
    const token = sessionStorage.getItem("sm-operator-token");
    if (token) headers.authorization = "Bearer " + token;
    const res = await fetch("api/namespaces/" + encodeURIComponent(ui.ns) + "/" + path, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    if (
      (res.status === 401 || res.status === 403) && !retried &&
      res.headers.get("www-authenticate")
    ) {
      const entered = (prompt("This instance needs an operator token for actions:") || "").trim();
      if (entered) {
        sessionStorage.setItem("sm-operator-token", entered);
        return act(path, body, label, true);
      }
    }
    /** @type {{ error?: string; matched?: string[] }} */
    let json = {};
    try {
      json = await res.json();
    } catch (_) { /* not JSON */ }
    if (!res.ok) {
      return showBanner(
        "error",
        label + " failed (HTTP " + res.status + "): " + (json.error || res.statusText),
      );
    }
    showBanner(
      "ok",
      label + ": done. " +
        (json.matched ? "Matched: " + (json.matched.join(", ") || "none yet") : ""),
    );
  } catch (err) {
    showBanner("error", label + " failed: " + /** @type {Error} */ (err).message);
  }
}

/**
 * Shard keys from `text`: keys separated by commas or spaces, and ranges
 * such as `0-15` (at most about 10 000 keys).
 *
 * @example
 * ```js
 * import assert from "node:assert/strict";
 * import { parseKeys } from "./actions.js";
 *
 * assert.deepEqual(parseKeys("7, 9 a-b 2-4"), ["7", "9", "a-b", "2", "3", "4"]);
 * ```
 *
 * @param {string} text What the operator wrote.
 * @returns {string[]} The keys.
 */
export function parseKeys(text) {
  /** @type {string[]} */
  const keys = [];
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const range = /^(\d+)-(\d+)$/.exec(part);
    if (!range) {
      keys.push(part);
      continue;
    }
    for (let i = Number(range[1]); i <= Number(range[2]) && keys.length <= 10000; i++) {
      keys.push(String(i));
    }
  }
  return keys;
}

/**
 * Asks to confirm, then drains or undrains `keys`.
 *
 * @example
 * ```js ignore
 * shardAction("undrain", ["7"]);
 * ```
 *
 * @param {string} action "drain" or "undrain".
 * @param {readonly string[]} keys The shards.
 * @returns {void}
 */
export function shardAction(action, keys) {
  if (keys.length === 0) return showBanner("error", "Name at least one shard, e.g. 7 or 0-15");
  const label = (action === "drain" ? "Drain" : "Undrain") + " shard" +
    (keys.length > 1 ? "s " : " ") +
    (keys.length > 5
      ? keys.slice(0, 5).join(", ") + " ... (" + keys.length + ")"
      : keys.join(", "));
  if (confirm(label + "?")) act("shards/" + action, { shardKeys: keys }, label);
}

/**
 * Asks to confirm, then undrains executor `e` when an operator drained it by
 * id, or drains it (with an optional reason) otherwise.
 *
 * @example
 * ```js ignore
 * executorAction(row);
 * ```
 *
 * @param {ExecutorRow} e The executor.
 * @returns {void}
 */
export function executorAction(e) {
  const id = e.executorId;
  if (e.drainedBy.includes("id:" + id)) {
    if (confirm("Undrain executor " + id + "? It can take shards again.")) {
      act("executors/undrain", { executorId: id }, "Undrain executor " + id);
    }
    return;
  }
  const reason = prompt(
    "Drain executor " + id + "? Its shards move to other executors.\nReason (optional):",
    "",
  );
  if (reason !== null) act("executors/drain", { executorId: id, reason }, "Drain executor " + id);
}

/**
 * Binds the action controls: the lookup's drain buttons, the shard list and
 * the selector form.
 *
 * @example
 * ```js ignore
 * bindActions();
 * ```
 *
 * @returns {void}
 */
export function bindActions() {
  const shardsInput = () => parseKeys($as("shards-input", HTMLInputElement).value);
  $("shard-drain-one").addEventListener("click", () => shardAction("drain", [ui.selected]));
  $("shard-undrain-one").addEventListener("click", () => shardAction("undrain", [ui.selected]));
  $("shards-drain").addEventListener("click", () => shardAction("drain", shardsInput()));
  $("shards-undrain").addEventListener("click", () => shardAction("undrain", shardsInput()));
  $("selector-form").addEventListener("submit", (event) => {
    event.preventDefault();
    /** @type {Record<string, string>} */
    const selector = {};
    const pairs = $as("selector-input", HTMLInputElement).value.split(",").map((p) => p.trim());
    for (const pair of pairs.filter(Boolean)) {
      const at = pair.indexOf("=");
      if (at <= 0) {
        return showBanner(
          "error",
          "Write the selector as key=value, key2=value2; got " + JSON.stringify(pair),
        );
      }
      selector[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
    }
    const text = Object.entries(selector).map(([k, v]) => k + "=" + v).join(", ");
    if (!text) return showBanner("error", "Write the selector as key=value, key2=value2");
    const label = "Drain executors matching " + text;
    if (confirm(label + "? Their shards move to other executors.")) {
      const reason = $as("selector-reason", HTMLInputElement).value;
      act("executors/drain", { selector, reason }, label);
    }
  });
}
