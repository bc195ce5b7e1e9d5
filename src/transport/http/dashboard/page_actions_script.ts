/**
 * Browser code of the operator actions: drain and undrain shards (from the
 * lookup or a list with ranges such as `0-15`) and executors by selector.
 * Every action asks for confirmation and reports its outcome in a banner
 * that stays until dismissed. The page shows these controls only when the
 * instance allows actions (`server.dashboardActions`). When the instance
 * asks for a bearer token (`security.auth`), the page prompts for an operator
 * token once and keeps it in `sessionStorage` for the tab.
 *
 * Written as a raw string (no build step): no backticks or `${` inside.
 *
 * @module
 */

/** Defines `act` and the handlers of the action controls. */
export const ACTIONS_SCRIPT: string = String.raw`
async function act(path, body, label, retried) {
  try {
    const headers = { "content-type": "application/json" };
    const token = sessionStorage.getItem("sm-operator-token");
    if (token) headers.authorization = "Bearer " + token;
    const res = await fetch("api/namespaces/" + encodeURIComponent(ui.ns) + "/" + path, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    if ((res.status === 401 || res.status === 403) && !retried && res.headers.get("www-authenticate")) {
      const entered = (prompt("This instance needs an operator token for actions:") || "").trim();
      if (entered) {
        sessionStorage.setItem("sm-operator-token", entered);
        return act(path, body, label, true);
      }
    }
    let json = {};
    try { json = await res.json(); } catch (_) { /* not JSON */ }
    if (!res.ok) return showBanner("error", label + " failed (HTTP " + res.status + "): " + (json.error || res.statusText));
    showBanner("ok", label + ": done. " + (json.matched ? "Matched: " + (json.matched.join(", ") || "none yet") : ""));
  } catch (err) {
    showBanner("error", label + " failed: " + err.message);
  }
}

function parseKeys(text) {
  const keys = [];
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const range = /^(\d+)-(\d+)$/.exec(part);
    if (!range) { keys.push(part); continue; }
    for (let i = Number(range[1]); i <= Number(range[2]) && keys.length <= 10000; i++) keys.push(String(i));
  }
  return keys;
}

function shardAction(action, keys) {
  if (keys.length === 0) return showBanner("error", "Name at least one shard, e.g. 7 or 0-15");
  const label = (action === "drain" ? "Drain" : "Undrain") + " shard" + (keys.length > 1 ? "s " : " ") +
    (keys.length > 5 ? keys.slice(0, 5).join(", ") + " ... (" + keys.length + ")" : keys.join(", "));
  if (confirm(label + "?")) act("shards/" + action, { shardKeys: keys }, label);
}

$("shard-find").addEventListener("input", (event) => {
  ui.selected = event.target.value.trim();
  renderMap();
  renderLookup();
});
$("shard-drain-one").addEventListener("click", () => shardAction("drain", [ui.selected]));
$("shard-undrain-one").addEventListener("click", () => shardAction("undrain", [ui.selected]));
$("shards-drain").addEventListener("click", () => shardAction("drain", parseKeys($("shards-input").value)));
$("shards-undrain").addEventListener("click", () => shardAction("undrain", parseKeys($("shards-input").value)));
$("selector-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const selector = {};
  for (const pair of $("selector-input").value.split(",").map((p) => p.trim()).filter(Boolean)) {
    const at = pair.indexOf("=");
    if (at <= 0) return showBanner("error", "Write the selector as key=value, key2=value2; got " + JSON.stringify(pair));
    selector[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  const text = Object.entries(selector).map(([k, v]) => k + "=" + v).join(", ");
  if (!text) return showBanner("error", "Write the selector as key=value, key2=value2");
  const label = "Drain executors matching " + text;
  if (confirm(label + "? Their shards move to other executors.")) {
    act("executors/drain", { selector, reason: $("selector-reason").value }, label);
  }
});
`;
