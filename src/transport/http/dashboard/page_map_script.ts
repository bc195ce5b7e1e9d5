/**
 * Browser code of the shard map: one canvas, one cell per shard, coloured by
 * owner or by load; drained shards are dark with a white cross, unowned ones
 * pale and outlined, so neither depends on colour alone. Hovering shows a
 * tooltip (shard, owner, load); clicking selects a shard. It needs
 * `LOAD_COLOURS`, `UNOWNED_COLOUR`, `DRAINED_COLOUR` and `loadBucket` in
 * scope (the page defines them from `colour.ts`).
 *
 * Written as a raw string (no build step): no backticks or `${` inside.
 *
 * @module
 */

/** Defines `createShardMap(canvas, tooltip, onSelect)` in the page's script. */
export const MAP_SCRIPT: string = String.raw`
function createShardMap(canvas, tooltip, onSelect) {
  const ctx = canvas.getContext("2d");
  let view = null;
  let layout = { cell: 12, cols: 1, rows: 1, gap: 1 };
  let hovered = -1;
  let hoverAt = null;

  function measure(n) {
    const width = Math.max(240, canvas.parentElement.clientWidth - 2);
    let cell = n <= 0 ? 24 : Math.floor(Math.sqrt((width * 360) / n));
    cell = Math.max(3, Math.min(28, cell));
    const cols = Math.max(1, Math.floor(width / cell));
    return { cell, cols, rows: Math.max(1, Math.ceil(n / cols)), gap: cell >= 7 ? 1 : 0 };
  }

  function describe(i) {
    const s = view.state.shards;
    const key = s.keys[i];
    if (view.drained.has(key)) return { key, owner: "", text: "Shard " + key + ": DRAINED, no owner" };
    const owner = view.state.executors[s.owners[i]];
    if (!owner) return { key, owner: "", text: "Shard " + key + ": UNOWNED" };
    return {
      key,
      owner: owner.executorId,
      load: s.loads[i],
      text: "Shard " + key + ": owner " + owner.executorId + " (" + owner.status +
        (owner.alive ? "" : ", STALE") + "), load " + formatLoad(s.loads[i]),
    };
  }

  function fillOf(i) {
    const s = view.state.shards;
    if (view.mode === "load") {
      return LOAD_COLOURS[loadBucket(s.loads[i] / view.state.summary.maxShardLoad, LOAD_COLOURS.length)];
    }
    return view.state.executors[s.owners[i]].colour;
  }

  function draw() {
    if (!view) return;
    const s = view.state.shards;
    const n = s.keys.length;
    layout = measure(n);
    const { cell, cols, rows, gap } = layout;
    const dpr = window.devicePixelRatio || 1;
    canvas.style.width = cols * cell + "px";
    canvas.style.height = rows * cell + "px";
    canvas.width = Math.round(cols * cell * dpr);
    canvas.height = Math.round(rows * cell * dpr);
    canvas.dataset.cell = String(cell);
    canvas.dataset.cols = String(cols);
    canvas.dataset.shards = String(n);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cols * cell, rows * cell);
    const size = cell - gap;
    const labels = size >= 20;
    ctx.font = "10px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (let i = 0; i < n; i++) {
      const x = (i % cols) * cell;
      const y = Math.floor(i / cols) * cell;
      const key = s.keys[i];
      if (view.drained.has(key)) {
        ctx.fillStyle = DRAINED_COLOUR;
        ctx.fillRect(x, y, size, size);
        if (size >= 6) {
          ctx.strokeStyle = "#ffffff";
          ctx.lineWidth = 1;
          ctx.beginPath();
          ctx.moveTo(x + 2, y + 2);
          ctx.lineTo(x + size - 2, y + size - 2);
          ctx.moveTo(x + size - 2, y + 2);
          ctx.lineTo(x + 2, y + size - 2);
          ctx.stroke();
        }
        continue;
      }
      if (s.owners[i] < 0) {
        ctx.fillStyle = UNOWNED_COLOUR;
        ctx.fillRect(x, y, size, size);
        if (size >= 4) {
          ctx.strokeStyle = "#6b7280";
          ctx.lineWidth = 1;
          ctx.strokeRect(x + 0.5, y + 0.5, size - 1, size - 1);
        }
        continue;
      }
      ctx.fillStyle = fillOf(i);
      ctx.fillRect(x, y, size, size);
      if (labels && key.length <= 4) {
        ctx.lineWidth = 3;
        ctx.strokeStyle = "rgba(0,0,0,0.7)";
        ctx.strokeText(key, x + size / 2, y + size / 2);
        ctx.fillStyle = "#ffffff";
        ctx.fillText(key, x + size / 2, y + size / 2);
      }
    }
    const selected = view.index.get(view.selected);
    if (selected !== undefined) {
      const x = (selected % cols) * cell;
      const y = Math.floor(selected / cols) * cell;
      ctx.lineWidth = 2;
      ctx.strokeStyle = "#000000";
      ctx.strokeRect(x - 1, y - 1, size + 2, size + 2);
      ctx.strokeStyle = "#facc15";
      ctx.strokeRect(x + 1, y + 1, size - 2, size - 2);
    }
    showTooltip();
  }

  function indexAt(event) {
    const rect = canvas.getBoundingClientRect();
    const col = Math.floor((event.clientX - rect.left) / layout.cell);
    const row = Math.floor((event.clientY - rect.top) / layout.cell);
    if (col < 0 || col >= layout.cols || row < 0) return -1;
    const i = row * layout.cols + col;
    return view && i < view.state.shards.keys.length ? i : -1;
  }

  function showTooltip() {
    if (!view || hovered < 0 || hovered >= view.state.shards.keys.length || !hoverAt) {
      tooltip.hidden = true;
      return;
    }
    const info = describe(hovered);
    tooltip.textContent = info.text;
    tooltip.dataset.shard = info.key;
    tooltip.dataset.owner = info.owner;
    tooltip.style.left = hoverAt.x + 14 + "px";
    tooltip.style.top = hoverAt.y + 14 + "px";
    tooltip.hidden = false;
  }

  canvas.addEventListener("mousemove", (event) => {
    hovered = indexAt(event);
    const box = canvas.parentElement.getBoundingClientRect();
    hoverAt = { x: event.clientX - box.left, y: event.clientY - box.top };
    canvas.style.cursor = hovered < 0 ? "default" : "pointer";
    showTooltip();
  });
  canvas.addEventListener("mouseleave", () => {
    hovered = -1;
    showTooltip();
  });
  canvas.addEventListener("click", (event) => {
    const i = indexAt(event);
    if (i >= 0) onSelect(view.state.shards.keys[i]);
  });
  window.addEventListener("resize", draw);

  return {
    update(state, mode, selected) {
      const index = new Map(state.shards.keys.map((k, i) => [k, i]));
      view = { state, mode, selected, index, drained: new Set(state.drainedShards) };
      draw();
    },
    clear() {
      view = null;
      canvas.width = 0;
      canvas.height = 0;
      canvas.style.height = "0px";
      canvas.dataset.shards = "0";
      tooltip.hidden = true;
    },
    lookup(key) {
      if (!view) return null;
      const i = view.index.get(key);
      return i === undefined ? null : describe(i);
    },
  };
}
`;
