// Sluice status page: reads the broker's JSON endpoints (docs/status-page.md) and draws them. No framework, no
// build step; every value goes into the page as text, never as markup.
"use strict";

const REFRESH_MS = 5000;
const ENDPOINTS = {
  cluster: "/api/cluster",
  topics: "/api/topics",
  groups: "/api/groups?scope=cluster",
  moves: "/api/moves?scope=cluster",
  throughput: "/api/throughput?scope=cluster",
};

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("data-")) node.setAttribute(key, String(value));
    else if (key === "title") node.title = value;
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function replace(id, ...children) {
  const target = document.getElementById(id);
  target.replaceChildren(...children.flat());
}

function formatBytes(value) {
  if (value === null || value === undefined || value < 0) return "?";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let v = value;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) { v /= 1000; i++; }
  return (i === 0 ? v.toFixed(0) : v.toFixed(v >= 100 ? 0 : 1)) + " " + units[i];
}

function formatNumber(value) {
  return value === null || value === undefined ? "?" : Number(value).toLocaleString("en-US");
}

function formatDuration(seconds) {
  if (seconds === null || seconds === undefined || !isFinite(seconds)) return "unknown";
  const s = Math.round(seconds);
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60) + " s";
  return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
}

async function fetchJson(url) {
  const response = await fetch(url, { cache: "no-store" });
  if (!response.ok) throw new Error(url + " answered " + response.status);
  return response.json();
}

/** The answers of every broker to a ?scope=cluster endpoint: [{broker, data}] for those that answered. */
function perBroker(gathered) {
  return (gathered && gathered.brokers ? gathered.brokers : []).filter((b) => b.data);
}

function renderHeader(cluster) {
  document.getElementById("cluster-id").textContent = "cluster " + cluster.clusterId;
  const zk = cluster.zookeeper;
  replace("header-facts",
    el("span", { class: "fact" }, "served by broker ", el("b", {}, cluster.brokerId)),
    el("span", { class: "fact", "data-controller": cluster.controller.id },
      "controller ", el("b", {}, cluster.controller.id < 0 ? "none" : cluster.controller.id),
      " · epoch ", el("b", {}, cluster.controller.epoch)),
    el("span", { class: "fact", "data-zookeeper": zk.state },
      "ZooKeeper ", el("b", {}, zk.state.toLowerCase()), zk.embedded ? " (embedded)" : ""));
}

function renderSummary(cluster, groups) {
  const s = cluster.summary;
  const live = cluster.brokers.filter((b) => b.live).length;
  const totalLag = groups.reduce((sum, g) => sum + g.totalLag, 0);
  const card = (label, value, level, id) => el("div", { class: "card " + (level || ""), id: id },
    el("div", { class: "value" }, value), el("div", { class: "label" }, label));
  replace("summary",
    card("brokers live", live + " / " + cluster.brokers.length, live < cluster.brokers.length ? "bad" : ""),
    card("topics", formatNumber(s.topics)),
    card("partitions", formatNumber(s.partitions)),
    card("under-replicated", formatNumber(s.underReplicated), s.underReplicated > 0 ? "warn" : "", "summary-under-replicated"),
    card("offline", formatNumber(s.offline), s.offline > 0 ? "bad" : "", "summary-offline"),
    card("moves", formatNumber(s.reassigning), s.reassigning > 0 ? "warn" : ""),
    card("consumer lag", formatNumber(totalLag), totalLag > 0 ? "warn" : ""));
}

function chart(samples) {
  const width = 300;
  const height = 70;
  const pad = 2;
  const max = Math.max(1, ...samples.map((s) => Math.max(s.bytesInPerSec, s.bytesOutPerSec)));
  const x = (i) => samples.length < 2 ? width : pad + (i * (width - 2 * pad)) / (samples.length - 1);
  const y = (v) => height - pad - (v / max) * (height - 2 * pad - 12);
  const line = (key) => samples.map((s, i) => (i ? "L" : "M") + x(i).toFixed(1) + "," + y(s[key]).toFixed(1)).join(" ");
  const node = svg("svg", { class: "chart", viewBox: "0 0 " + width + " " + height, preserveAspectRatio: "none",
    role: "img", "aria-label": "bytes in and out per second" });
  node.append(svg("line", { class: "grid", x1: 0, y1: height - pad, x2: width, y2: height - pad }));
  node.append(svg("line", { class: "grid", x1: 0, y1: y(max), x2: width, y2: y(max) }));
  if (samples.length > 1) {
    node.append(svg("path", { class: "in-area",
      d: line("bytesInPerSec") + " L" + x(samples.length - 1) + "," + (height - pad) + " L" + x(0) + "," + (height - pad) + " Z" }));
    node.append(svg("path", { class: "in", d: line("bytesInPerSec") }));
    node.append(svg("path", { class: "out", d: line("bytesOutPerSec") }));
  }
  node.append(svg("text", { x: 4, y: 10 }, "max " + formatBytes(max) + "/s"));
  return node;
}

function renderBrokers(cluster, throughput) {
  const history = new Map(perBroker(throughput).map((b) => [b.broker, b.data]));
  const errors = new Map((throughput && throughput.brokers ? throughput.brokers : [])
    .filter((b) => b.error).map((b) => [b.broker, b.error]));
  replace("brokers", cluster.brokers.map((b) => {
    const data = history.get(b.id);
    const samples = data ? data.samples : [];
    const last = samples.length ? samples[samples.length - 1] : null;
    const badges = [];
    if (!b.live) badges.push(el("span", { class: "badge bad" }, "offline"));
    else badges.push(el("span", { class: "badge ok" }, "live"));
    if (b.id === cluster.controller.id) badges.push(el("span", { class: "badge info" }, "controller"));
    return el("div", { class: "broker" + (b.live ? "" : " offline"), "data-broker": b.id, "data-live": b.live },
      el("div", { class: "head" }, el("h3", {}, "Broker " + b.id), el("span", {}, badges)),
      el("div", { class: "meta" }, b.live
        ? [b.kafka, b.rack ? " · rack " + b.rack : " · no rack"]
        : "not registered: stopped or unreachable"),
      b.live ? chart(samples) : null,
      b.live ? el("div", { class: "rates" },
        el("span", {}, el("span", { class: "swatch in" }), "in ", last ? formatBytes(last.bytesInPerSec) + "/s" : "—"),
        el("span", {}, el("span", { class: "swatch out" }), "out ", last ? formatBytes(last.bytesOutPerSec) + "/s" : "—"),
        el("span", { class: "muted" }, data ? "last " + formatDuration(samples.length * data.intervalMs / 1000)
          : (errors.get(b.id) ? "no data: " + errors.get(b.id) : "no HTTP listener"))) : null);
  }));
}

function replicaChips(p) {
  return p.replicas.map((id) => {
    const inSync = p.isr.includes(id);
    const classes = ["replica"];
    if (!inSync) classes.push("out-of-sync");
    if (id === p.leader) classes.push("leader");
    if (p.adding.includes(id)) classes.push("adding");
    const title = (id === p.leader ? "leader, " : "") + (inSync ? "in sync" : "out of sync")
      + (p.adding.includes(id) ? ", being added" : "") + (p.removing.includes(id) ? ", being removed" : "");
    return el("span", { class: classes.join(" "), title: title }, id);
  });
}

function partitionState(p) {
  if (p.offline) return el("span", { class: "badge bad" }, "offline");
  if (p.underReplicated) return el("span", { class: "badge warn" }, "under-replicated");
  if (p.adding.length || p.removing.length) return el("span", { class: "badge info" }, "moving");
  return el("span", { class: "badge ok" }, "ok");
}

function renderTopics(topics) {
  if (!topics.topics.length) {
    replace("topics", el("div", { class: "empty" }, "No topics yet."));
    return;
  }
  // Topics people made first; internal ones (__consumer_offsets) last and folded, their problems still counted.
  const ordered = [...topics.topics].sort((a, b) => (a.internal - b.internal) || a.name.localeCompare(b.name));
  replace("topics", ordered.map((t) => {
    const under = t.partitions.filter((p) => p.underReplicated).length;
    const offline = t.partitions.filter((p) => p.offline).length;
    const rows = t.partitions.map((p) => el("tr", {
      class: "partition" + (p.offline ? " offline" : p.underReplicated ? " under-replicated" : ""),
      "data-topic": t.name, "data-partition": p.partition,
      "data-leader": p.leader, "data-isr": p.isr.join(","), "data-replicas": p.replicas.join(","),
      "data-under-replicated": p.underReplicated, "data-offline": p.offline },
      el("td", { class: "num" }, p.partition),
      el("td", { class: "num" }, p.leader < 0 ? "none" : p.leader),
      el("td", {}, replicaChips(p)),
      el("td", { class: "isr" }, p.isr.join(", ")),
      el("td", { class: "num" }, p.leaderEpoch),
      el("td", {}, partitionState(p))));
    const table = el("table", {},
      el("thead", {}, el("tr", {}, el("th", { class: "num" }, "Partition"), el("th", { class: "num" }, "Leader"),
        el("th", {}, "Replicas"), el("th", {}, "ISR"), el("th", { class: "num" }, "Leader epoch"), el("th", {}, "State"))),
      el("tbody", {}, rows));
    const open = !t.internal;
    return el("details", { class: "panel topic", "data-topic": t.name, open: open ? "" : null },
      el("summary", {}, el("h3", {}, t.name), t.internal ? el("span", { class: "badge" }, "internal") : null,
        el("span", { class: "muted" }, t.partitions.length + (t.partitions.length === 1 ? " partition" : " partitions")),
        el("span", { class: "spacer" }),
        offline ? el("span", { class: "badge bad" }, offline + " offline") : null,
        under ? el("span", { class: "badge warn" }, under + " under-replicated") : null,
        !offline && !under ? el("span", { class: "badge ok" }, "healthy") : null),
      table);
  }));
}

function renderGroups(gathered) {
  const groups = [];
  for (const b of perBroker(gathered)) {
    for (const g of b.data.groups) groups.push({ ...g, coordinator: b.broker });
  }
  groups.sort((a, b) => a.group.localeCompare(b.group));
  if (!groups.length) {
    replace("groups", el("div", { class: "empty" }, "No consumer group has committed offsets."));
    return groups;
  }
  replace("groups", groups.map((g) => {
    const maxLag = Math.max(1, ...g.partitions.map((p) => p.lag || 0));
    const rows = g.partitions.map((p) => el("tr", { class: "group-partition", "data-group": g.group,
      "data-topic": p.topic, "data-partition": p.partition, "data-lag": p.lag },
      el("td", {}, p.topic), el("td", { class: "num" }, p.partition),
      el("td", { class: "num" }, formatNumber(p.committedOffset)),
      el("td", { class: "num" }, p.logEndOffset === null ? "?" : formatNumber(p.logEndOffset)),
      el("td", { class: "num lag" }, p.lag === null ? "?" : formatNumber(p.lag),
        el("span", { class: "lagbar" }, el("span", {})))));
    // Widths are set through the CSSOM (allowed by the page's style-src 'self' policy, unlike style attributes).
    rows.forEach((row, i) => {
      const lag = g.partitions[i].lag || 0;
      row.querySelector(".lagbar > span").style.width = Math.round((100 * Math.max(0, lag)) / maxLag) + "%";
    });
    return el("div", { class: "panel group", "data-group": g.group, "data-total-lag": g.totalLag },
      el("div", { class: "head" }, el("h3", {}, g.group),
        el("span", { class: "badge " + (g.state === "Stable" ? "ok" : g.state === "Empty" ? "" : "warn") }, g.state),
        el("span", { class: "muted" }, g.members + (g.members === 1 ? " member" : " members")
          + " · coordinator broker " + g.coordinator),
        el("span", { class: "spacer" }),
        el("span", {}, "total lag ", el("b", { class: "total-lag" }, formatNumber(g.totalLag)))),
      el("table", {},
        el("thead", {}, el("tr", {}, el("th", {}, "Topic"), el("th", { class: "num" }, "Partition"),
          el("th", { class: "num" }, "Committed"), el("th", { class: "num" }, "Log end"), el("th", { class: "num" }, "Lag"))),
        el("tbody", {}, rows)));
  }));
  return groups;
}

function renderMoves(gathered) {
  const answers = perBroker(gathered);
  const moves = answers.length ? answers[0].data.moves.map((m) => ({ ...m, transfers: [] })) : [];
  const byKey = new Map(moves.map((m) => [m.topic + "-" + m.partition, m]));
  for (const b of answers) {
    for (const m of b.data.moves) {
      const known = byKey.get(m.topic + "-" + m.partition);
      if (known) known.transfers.push(...m.transfers);
    }
  }
  if (!moves.length) {
    replace("moves", el("div", { class: "empty" }, "No partition is moving."));
    return;
  }
  const rows = moves.map((m) => {
    const t = m.transfers[0];
    const caughtUp = m.adding.filter((id) => m.isr.includes(id)).length;
    let bar;
    let eta = "";
    if (t && t.bytesTotal > 0) {
      const pct = Math.min(100, (100 * t.bytesDone) / t.bytesTotal);
      const fill = el("span", {});
      fill.style.width = pct.toFixed(1) + "%";
      bar = el("div", { class: "progress" }, fill,
        el("em", {}, formatBytes(t.bytesDone) + " / " + formatBytes(t.bytesTotal) + " (" + pct.toFixed(0) + "%)"));
      eta = t.etaSeconds === null ? "unknown" : formatDuration(t.etaSeconds);
    } else {
      bar = el("div", { class: "progress indeterminate" }, el("span", {}),
        el("em", {}, caughtUp + " of " + m.adding.length + " new replicas in sync" + (t ? " · " + t.phase.toLowerCase() : "")));
      eta = "—";
    }
    return el("tr", { class: "move", "data-topic": m.topic, "data-partition": m.partition },
      el("td", {}, m.topic + "-" + m.partition),
      el("td", {}, replicaChips({ ...m, leader: m.leader })),
      el("td", {}, m.adding.join(", ") || "—"), el("td", {}, m.removing.join(", ") || "—"),
      el("td", {}, bar), el("td", {}, eta));
  });
  replace("moves", el("div", { class: "panel" }, el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, "Partition"), el("th", {}, "Replicas"), el("th", {}, "Adding"),
      el("th", {}, "Removing"), el("th", {}, "Progress"), el("th", {}, "ETA"))),
    el("tbody", {}, rows))));
}

async function refresh() {
  const state = document.getElementById("status-state");
  const problem = document.getElementById("load-error");
  try {
    const [cluster, topics, groups, moves, throughput] = await Promise.all(
      Object.values(ENDPOINTS).map((url) => fetchJson(url)));
    renderHeader(cluster);
    const groupList = renderGroups(groups);
    renderSummary(cluster, groupList);
    renderBrokers(cluster, throughput);
    renderMoves(moves);
    renderTopics(topics);
    const unreachable = (groups.brokers || []).filter((b) => b.error);
    problem.hidden = unreachable.length === 0;
    problem.textContent = unreachable.map((b) => "Broker " + b.broker + " did not answer: " + b.error).join(" · ");
    state.textContent = "Updated " + new Date().toLocaleTimeString("en-GB") + ", every " + REFRESH_MS / 1000 + " s";
    document.body.dataset.loaded = "true";
  } catch (e) {
    problem.hidden = false;
    problem.textContent = "Cannot read the broker's status: " + e.message;
    state.textContent = "Update failed at " + new Date().toLocaleTimeString("en-GB");
  } finally {
    setTimeout(refresh, REFRESH_MS);
  }
}

refresh();
