// The emulator's face: one member's view of a channel, kept live by long polling
// (/api/view?after=<digest> answers when the view changes), and what the person does sent as
// that member's slash command, click or menu choice. No framework, no build step.
"use strict";

const state = {
  member: null,      // the member the person is now (a user id, as a string)
  channel: null,     // the channel shown (an id), null: the server's first text channel
  digest: "",
  view: null,
  poller: null,      // the AbortController of the view request under way
  seenDm: {},        // member id -> the newest DM id they have looked at
  errors: {},        // message id -> "This interaction failed" shown under it
  completion: {seq: 0, items: [], active: -1, chosen: false},
  // What is drawn, by what it was drawn from: a redraw keeps every node whose source is the
  // same, so a click or an open menu is never lost to a change elsewhere on the page.
  drawn: {messages: new Map(), controls: new Map(), members: "", channels: "", where: ""},
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "html") node.innerHTML = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function newer(a, b) {  // snowflake ids as decimal strings
  return a.length !== b.length ? a.length > b.length : a > b;
}

// -- Discord's markdown, the basics ---------------------------------------------------------

function esc(text) {
  return text.replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

const UNITS = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

function relative(seconds) {
  const gap = Math.abs(seconds);
  for (const [unit, size] of UNITS) {
    if (gap >= size || unit === "second") {
      const n = Math.max(0, Math.round(gap / size));
      const words = `${n} ${unit}${n === 1 ? "" : "s"}`;
      return seconds >= 0 ? `in ${words}` : `${words} ago`;
    }
  }
  return "";
}

function timestamp(ts, style) {
  if (style === "R") return relative(ts - Date.now() / 1000);
  const when = new Date(ts * 1000);
  const forms = {
    t: {hour: "2-digit", minute: "2-digit"},
    T: {hour: "2-digit", minute: "2-digit", second: "2-digit"},
    d: {year: "numeric", month: "2-digit", day: "2-digit"},
    D: {year: "numeric", month: "long", day: "numeric"},
    f: {year: "numeric", month: "long", day: "numeric", hour: "2-digit", minute: "2-digit"},
    F: {weekday: "long", year: "numeric", month: "long", day: "numeric", hour: "2-digit", minute: "2-digit"},
  };
  return when.toLocaleString(undefined, forms[style] || forms.f);
}

function inline(text) {
  // Mentions, timestamps and custom emoji first (their <…> would be escaped away), then the
  // escaped text's emphasis; each token goes back in escaped.
  const tokens = [];
  const hold = (html) => { tokens.push(html); return `\u0000${tokens.length - 1}\u0000`; };
  const names = state.view ? state.view.names : {};
  text = text.replace(/<(@!?|@&|#)(\d+)>|<t:(-?\d+)(?::([tTdDfFR]))?>|<a?:(\w+):\d+>/g,
    (match, kind, id, ts, style, emoji) => {
      if (ts !== undefined) {
        const form = style || "f";
        return hold(`<time class="ts" data-ts="${Number(ts)}" data-style="${form}">${esc(timestamp(Number(ts), form))}</time>`);
      }
      if (emoji !== undefined) return hold(`:${esc(emoji)}:`);
      const name = names[id] || (kind === "@&" ? "role" : "unknown");
      const mark = kind === "#" ? "#" : "@";
      return hold(`<span class="mention">${mark}${esc(name)}</span>`);
    });
  let html = esc(text);
  html = html.replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g,
    (m, label, url) => hold(`<a href="${url}" target="_blank" rel="noopener noreferrer">${label}</a>`));
  html = html.replace(/(^|\s)(https?:\/\/[^\s<]+)/g,
    (m, space, url) => space + hold(`<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`));
  html = html
    .replace(/\*\*\*(.+?)\*\*\*/g, "<strong><em>$1</em></strong>")
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/__(.+?)__/g, "<u>$1</u>")
    .replace(/\*(?!\s)(.+?)\*/g, "<em>$1</em>")
    .replace(/(^|[^\w])_(?!\s)(.+?)_(?!\w)/g, "$1<em>$2</em>")
    .replace(/~~(.+?)~~/g, "<s>$1</s>")
    .replace(/\|\|(.+?)\|\|/g, '<span class="spoiler">$1</span>');
  return html.replace(/\u0000(\d+)\u0000/g, (m, i) => tokens[Number(i)]);
}

function lines(text) {
  const out = [];
  for (const line of text.split("\n")) {
    let m;
    if ((m = line.match(/^(#{1,3}) (.*)$/))) out.push(`<span class="h${m[1].length}">${inline(m[2])}</span>`);
    else if ((m = line.match(/^-# (.*)$/))) out.push(`<span class="subtext">${inline(m[1])}</span>`);
    else if ((m = line.match(/^>>?>? ?(.*)$/))) out.push(`<span class="quote">${inline(m[1])}</span>`);
    else if ((m = line.match(/^(\s*)[-*] (.*)$/))) out.push(`${m[1]}• ${inline(m[2])}`);
    else out.push(inline(line));
  }
  return out.join("\n");
}

function markdown(text) {
  // Code first: nothing inside ``` or ` is formatted.
  return text.split(/```/).map((part, i) => {
    if (i % 2 === 1) return `<pre><code>${esc(part.replace(/^[a-z]*\n/, ""))}</code></pre>`;
    return part.split(/`/).map((bit, j) => (j % 2 === 1 ? `<code>${esc(bit)}</code>` : lines(bit))).join("");
  }).join("");
}

function tick() {
  for (const node of document.querySelectorAll("time.ts[data-style='R']")) {
    node.textContent = timestamp(Number(node.dataset.ts), "R");
  }
}

// -- drawing ---------------------------------------------------------------------------------

function drawMembers(view) {
  const key = JSON.stringify([view.members, state.member, state.seenDm]);
  if (key === state.drawn.members) return;
  state.drawn.members = key;
  const nav = $("members");
  nav.replaceChildren(...view.members.map((m) => {
    const unseen = m.newest_dm !== "0" && newer(m.newest_dm, state.seenDm[m.id] || "0");
    const button = el("button", {
      type: "button", class: "member", "aria-pressed": String(m.id === state.member),
      dataset: {id: m.id, name: m.name}, title: unseen ? `${m.name} has a new DM` : null,
    }, m.name);
    if (unseen) button.append(el("span", {class: "dot", "aria-label": "new direct message"}));
    button.addEventListener("click", () => switchTo(m.id, null));
    return button;
  }));
}

function drawChannels(view) {
  const key = JSON.stringify([view.channels, view.channel.id, view.members, state.member, state.seenDm]);
  if (key === state.drawn.channels) return;
  state.drawn.channels = key;
  const item = (c) => {
    const me = view.members.find((m) => m.id === state.member);
    const unseen = c.kind === "dm" && me && me.newest_dm !== "0" && newer(me.newest_dm, state.seenDm[me.id] || "0");
    const link = el("button", {
      type: "button", class: "channel", "aria-current": c.id === view.channel.id ? "page" : null,
      dataset: {id: c.id, kind: c.kind},
    }, c.kind === "dm" ? `@ ${c.name}` : `# ${c.name}`);
    if (unseen) link.append(el("span", {class: "dot", "aria-label": "new"}));
    link.addEventListener("click", () => switchTo(state.member, c.id));
    return el("li", {}, link);
  };
  $("texts").replaceChildren(...view.channels.filter((c) => c.kind === "text").map(item));
  $("dms").replaceChildren(...view.channels.filter((c) => c.kind === "dm").map(item));
}

function drawEmbed(embed) {
  const box = el("div", {class: "embed"});
  if (embed.colour) box.style.borderLeftColor = embed.colour;
  if (embed.title) box.append(el("div", {class: "title", html: inline(embed.title)}));
  if (embed.description) box.append(el("div", {class: "description", html: markdown(embed.description)}));
  if (embed.fields.length) {
    box.append(el("div", {class: "fields"}, ...embed.fields.map((f) => el("div",
      {class: f.inline ? "field inline" : "field"},
      el("div", {class: "name", html: inline(f.name)}),
      el("div", {class: "value", html: markdown(f.value)})))));
  }
  if (embed.image) box.append(picture(embed.image));
  if (embed.footer) box.append(el("div", {class: "footer", html: inline(embed.footer)}));
  return box;
}

function picture(file) {
  const link = el("a", {href: file.url, target: "_blank", rel: "noopener", class: "picture"});
  link.append(el("img", {src: file.url, alt: file.description || file.filename, loading: "lazy"}));
  return link;
}

function drawControl(message, control) {
  if (control.kind === "button") {
    const label = [control.emoji, control.label].filter(Boolean).join(" ");
    if (control.style === "link") {
      return el("a", {class: "btn link", href: control.url, target: "_blank", rel: "noopener noreferrer"}, `${label} ↗`);
    }
    const button = el("button", {
      type: "button", class: `btn ${control.style}`, disabled: control.disabled,
      dataset: {customId: control.custom_id, label: control.label || ""},
    }, label);
    button.addEventListener("click", () => act("/api/click", message, {custom_id: control.custom_id}, button));
    return button;
  }
  const menu = el("select", {
    class: "menu", disabled: control.disabled, multiple: control.max_values > 1,
    dataset: {customId: control.custom_id}, "aria-label": control.placeholder || "Choose",
  });
  if (control.max_values <= 1) {
    menu.append(el("option", {value: "", disabled: true, selected: true}, control.placeholder || "Make a selection"));
  }
  for (const option of control.options) {
    const text = [option.emoji, option.label].filter(Boolean).join(" ");
    menu.append(el("option", {value: option.value, title: option.description}, option.description ? `${text} — ${option.description}` : text));
  }
  if (control.max_values <= 1) {
    menu.addEventListener("change", () => act("/api/select", message, {custom_id: control.custom_id, values: [menu.value]}, menu));
    return menu;
  }
  const send = el("button", {type: "button", class: "btn primary"}, "Choose");
  send.addEventListener("click", () => {
    const values = [...menu.selectedOptions].map((o) => o.value);
    act("/api/select", message, {custom_id: control.custom_id, values}, send);
  });
  return el("span", {class: "multi"}, menu, send);
}

function controlNode(message, source) {
  // A control unchanged since the last draw is the same element, moved into the new message.
  const key = `${message.id} ${JSON.stringify(source)}`;
  const node = state.drawn.controls.get(key) || drawControl(message, source);
  state.drawn.nextControls.set(key, node);
  return node;
}

function messageNode(source) {
  const key = JSON.stringify([source, state.errors[source.id] || ""]);
  const old = state.drawn.messages.get(source.id);
  const node = old && old.key === key ? old.node : drawMessage(source);
  if (old && old.node === node) {
    for (const [k, v] of state.drawn.controls) if (k.startsWith(`${source.id} `)) state.drawn.nextControls.set(k, v);
  }
  state.drawn.nextMessages.set(source.id, {key, node});
  return node;
}

function place(list, nodes) {
  // Only what changed moves: nodes already in place stay where they are.
  let cursor = list.firstChild;
  for (const node of nodes) {
    if (node === cursor) { cursor = cursor.nextSibling; continue; }
    list.insertBefore(node, cursor);
  }
  while (cursor) { const next = cursor.nextSibling; cursor.remove(); cursor = next; }
}

function drawMessage(message) {
  const item = el("li", {class: message.private ? "message private" : "message", dataset: {id: message.id}});
  if (message.used) item.append(el("div", {class: "used"}, `↪ ${message.used}`));
  const head = el("div", {class: "head"},
    el("span", {class: message.bot ? "author bot" : "author"}, message.author),
    message.bot ? el("span", {class: "tag"}, "APP") : null,
    el("time", {class: "when"}, new Date(message.created * 1000).toLocaleTimeString()),
    message.edited ? el("span", {class: "muted"}, "(edited)") : null);
  item.append(head);
  if (message.loading) item.append(el("div", {class: "muted thinking"}, `${message.author} is thinking…`));
  if (message.content) item.append(el("div", {class: "content", html: markdown(message.content)}));
  for (const embed of message.embeds) item.append(drawEmbed(embed));
  for (const file of message.attachments) {
    item.append(file.image ? picture(file) : el("a", {href: file.url, class: "file"}, `📎 ${file.filename}`));
  }
  for (const row of message.rows) {
    item.append(el("div", {class: "row"}, ...row.map((c) => controlNode(message, c))));
  }
  if (state.errors[message.id]) item.append(el("div", {class: "failed", role: "alert"}, state.errors[message.id]));
  if (message.private) {
    const dismiss = el("button", {type: "button", class: "linkish"}, "Dismiss message");
    dismiss.addEventListener("click", () => post("/api/dismiss", {member: state.member, message: message.id}));
    item.append(el("div", {class: "only"}, "👁 Only you can see this · ", dismiss));
  }
  return item;
}

function draw(view) {
  state.view = view;
  state.channel = view.channel.id;
  if (view.channel.kind === "dm") {
    const me = view.members.find((m) => m.id === view.member);
    if (me && me.newest_dm !== "0") state.seenDm[me.id] = me.newest_dm;
  }
  $("guild").textContent = view.guild;
  document.body.dataset.member = view.member;
  drawMembers(view);
  drawChannels(view);
  const me = view.members.find((m) => m.id === view.member);
  $("where").textContent = view.channel.kind === "dm"
    ? `@ ${view.channel.name} — ${me ? me.name : ""}'s direct messages`
    : `# ${view.channel.name}`;
  const list = $("messages");
  // Follow the newest message unless the person scrolled up to read; a new view starts at it.
  const where = `${view.member} ${view.channel.id}`;
  const atEnd = where !== state.drawn.where || list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  state.drawn.where = where;
  state.drawn.nextMessages = new Map();
  state.drawn.nextControls = new Map();
  const nodes = view.messages.map(messageNode);
  state.drawn.messages = state.drawn.nextMessages;
  state.drawn.controls = state.drawn.nextControls;
  if (!nodes.length) nodes.push(state.drawn.empty || (state.drawn.empty = el("li", {class: "empty muted"}, "Nothing here yet. Type /bugs new in the box below to open a game.")));
  place(list, nodes);
  if (atEnd) list.scrollTop = list.scrollHeight;
  $("command").disabled = false;
}

// -- talking to the face ---------------------------------------------------------------------

async function post(path, body) {
  const response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  let answer = {ok: false, error: `The page's server answered ${response.status}.`};
  try { answer = await response.json(); } catch (e) { /* not JSON: keep the status */ }
  return answer;
}

async function act(path, message, body, control) {
  control.disabled = true;
  delete state.errors[message.id];
  document.body.dataset.busy = "1";
  try {
    const answer = await post(path, {member: state.member, message: message.id, ...body});
    if (!answer.ok) state.errors[message.id] = answer.error || "This interaction failed.";
  } catch (e) {
    state.errors[message.id] = "This interaction failed: the page lost its server.";
  } finally {
    delete document.body.dataset.busy;
    control.disabled = false;  // a click answered silently changes nothing on the page
  }
  if (state.errors[message.id] && state.view) draw(state.view);
}

function switchTo(member, channel) {
  // Another member stays in the same text channel, or goes to their own DMs.
  const inDms = state.view && state.view.channel.kind === "dm";
  state.member = member;
  state.channel = channel || (inDms ? "dm" : state.channel);
  state.digest = "";
  state.errors = {};
  state.drawn.messages = new Map();
  state.drawn.controls = new Map();
  hideSuggestions();
  $("error").textContent = "";
  if (state.poller) state.poller.abort();
}

async function pollForever() {
  for (;;) {
    const poller = new AbortController();
    state.poller = poller;
    const query = new URLSearchParams({member: state.member || "", channel: state.channel || "", after: state.digest});
    try {
      const response = await fetch(`/api/view?${query}`, {signal: poller.signal});
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error);
      if (poller.signal.aborted) continue;
      state.member = answer.view.member;
      state.digest = answer.digest;
      draw(answer.view);
      document.body.dataset.ready = "1";
    } catch (e) {
      if (poller.signal.aborted) continue;
      $("where").textContent = "The emulator is not answering (did `python -m bot try` stop?)";
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

// -- the command box -------------------------------------------------------------------------

function hideSuggestions() {
  state.completion.items = [];
  state.completion.active = -1;
  $("suggestions").hidden = true;
  $("suggestions").replaceChildren();
}

function showSuggestions(items) {
  const box = $("suggestions");
  state.completion.items = items;
  state.completion.active = items.length ? 0 : -1;
  state.completion.chosen = false;
  box.replaceChildren(...items.map((s, i) => {
    const item = el("li", {role: "option", class: `suggestion ${s.kind}`, "aria-selected": String(i === 0), dataset: {text: s.text}},
      el("span", {class: "label"}, s.label), el("span", {class: "detail"}, s.detail));
    item.addEventListener("mousedown", (event) => { event.preventDefault(); take(s); });
    return item;
  }));
  box.hidden = !items.length;
}

function mark(index) {
  const items = $("suggestions").children;
  state.completion.active = index;
  state.completion.chosen = true;
  [...items].forEach((item, i) => item.setAttribute("aria-selected", String(i === index)));
}

function take(suggestion) {
  const input = $("command");
  input.value = suggestion.text;
  input.focus();
  suggest();
}

async function suggest() {
  const text = $("command").value;
  const seq = ++state.completion.seq;
  if (!text.startsWith("/")) { hideSuggestions(); return; }
  const query = new URLSearchParams({member: state.member || "", channel: state.channel || "", text});
  try {
    const answer = await (await fetch(`/api/complete?${query}`)).json();
    if (seq === state.completion.seq) showSuggestions(answer.suggestions || []);
  } catch (e) { hideSuggestions(); }
}

async function send() {
  const input = $("command");
  const text = input.value.trim();
  if (!text) return;
  hideSuggestions();
  input.disabled = true;
  $("error").textContent = "";
  try {
    const answer = await post("/api/command", {member: state.member, channel: state.channel, text});
    if (answer.ok) input.value = "";
    else $("error").textContent = answer.error;
  } finally {
    input.disabled = false;
    input.focus();
  }
}

function keys(event) {
  const {items, active} = state.completion;
  if (event.key === "ArrowDown" && items.length) { event.preventDefault(); mark((active + 1) % items.length); }
  else if (event.key === "ArrowUp" && items.length) { event.preventDefault(); mark((active - 1 + items.length) % items.length); }
  else if (event.key === "Tab" && items.length) { event.preventDefault(); take(items[Math.max(active, 0)]); }
  else if (event.key === "Escape") hideSuggestions();
  else if (event.key === "Enter") {
    event.preventDefault();
    if (state.completion.chosen && items[active]) take(items[active]);
    else send();
  }
}

function start() {
  const input = $("command");
  input.addEventListener("input", suggest);
  input.addEventListener("focus", suggest);
  input.addEventListener("keydown", keys);
  input.addEventListener("blur", () => setTimeout(hideSuggestions, 150));
  $("composer").addEventListener("submit", (event) => { event.preventDefault(); send(); });
  setInterval(tick, 1000);
  pollForever();
}

document.addEventListener("DOMContentLoaded", start);
