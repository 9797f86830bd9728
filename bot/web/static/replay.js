// The game page: follows a live game and replays a finished one move by move.
// Everything shown comes from the server already escaped (board, log) or is set as text.
"use strict";

(() => {
  const here = location.pathname.replace(/\/+$/, "");
  const POLL_MS = 1000;
  const PLAY_MS = 700;
  const $ = (id) => document.getElementById(id);
  const ui = {
    status: $("status"), players: $("players"), controls: $("controls"), slider: $("slider"),
    step: $("step"), board: $("board"), result: $("result"), picture: $("picture"),
    raw: $("raw"), log: $("log"), play: $("play"), main: $("main"), zoom: $("zoom"),
    zoomed: $("zoomed"), zoomedPicture: $("zoomed-picture"), unzoom: $("unzoom"),
  };

  const game = { steps: 0, status: "", started: false, picture: false, moves: 0 };
  let current = -1;      // the step shown
  let following = true;  // at the newest step: new moves move the page along
  let wanted = 0;        // the step last asked for (answers for older asks are dropped)
  let player = null;     // the "Play" timer
  const frames = new Map();

  async function getJSON(path) {
    const response = await fetch(here + path, { cache: "no-store" });
    if (!response.ok) throw new Error(`${response.status} ${path}`);
    return response.json();
  }

  function statusText() {
    const n = `${game.steps} move${game.steps === 1 ? "" : "s"}`;
    switch (game.status) {
      case "lobby": return "Waiting for players to join…";
      case "playing": return `● Live — ${n} so far`;
      case "finished": return `Finished — ${n}`;
      case "cancelled": return game.started ? `Cancelled — ${n}` : "Cancelled before it started";
      default: return game.status;
    }
  }

  function addMoves(moves) {
    for (const move of moves) {
      const item = document.createElement("li");
      item.value = move.step;
      item.dataset.step = String(move.step);
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = move.who;
      const text = document.createElement("span");
      text.className = "lines";
      text.innerHTML = move.html;  // every move comes in words (P-60)
      item.append(who, " ", text);
      item.tabIndex = 0;
      item.addEventListener("click", () => { stopPlaying(); show(move.step); });
      item.addEventListener("keydown", (e) => {
        if (e.key === "Enter") { stopPlaying(); show(move.step); }
      });
      ui.log.append(item);
    }
    game.moves += moves.length;
  }

  function applySummary(summary) {
    game.steps = summary.steps;
    game.status = summary.status;
    game.started = summary.started;
    game.picture = summary.picture;
    ui.main.classList.toggle("pictured", Boolean(summary.picture));
    ui.players.textContent = summary.players.length ? `Players: ${summary.players.join(", ")}` : "";
    addMoves(summary.moves);
    ui.status.textContent = statusText();
    ui.status.dataset.status = summary.status;
    ui.controls.hidden = !summary.started;
    ui.slider.max = String(game.steps);
    if (!summary.started) {
      ui.board.innerHTML = summary.lobby || "";
      accents();
    }
  }

  function accents() {
    for (const embed of ui.board.querySelectorAll("[data-accent]")) {
      embed.style.setProperty("--accent", embed.dataset.accent);
    }
  }

  function renderResult(result) {
    ui.result.replaceChildren();
    ui.result.hidden = !result;
    if (!result) return;
    const heading = document.createElement("h2");
    heading.textContent = "Final scores";
    const table = document.createElement("table");
    for (const row of result) {
      const tr = document.createElement("tr");
      if (row.winner) tr.className = "winner";
      const name = document.createElement("td");
      name.textContent = (row.winner ? "🏆 " : "") + row.name;
      const score = document.createElement("td");
      score.className = "score";
      score.textContent = String(row.score);
      tr.append(name, score);
      table.append(tr);
    }
    ui.result.append(heading, table);
  }

  // Scroll the move list (and only it: the page stays where the reader put it).
  function keepInSight(item) {
    const top = item.offsetTop;  // #log is positioned, so this is within it
    if (top < ui.log.scrollTop || top + item.offsetHeight > ui.log.scrollTop + ui.log.clientHeight) {
      // In the middle if it fits, else from its first line (a long move reads from its start).
      const room = ui.log.clientHeight - item.offsetHeight;
      ui.log.scrollTop = Math.max(0, room > 0 ? top - room / 2 : top);
    }
  }

  function markLog() {
    for (const item of ui.log.children) {
      const step = Number(item.dataset.step);
      item.classList.toggle("done", step < current);
      item.classList.toggle("current", step === current);
      if (step === current) keepInSight(item);
    }
  }

  async function show(step) {
    step = Math.max(0, Math.min(game.steps, step));
    wanted = step;
    following = step === game.steps;
    ui.slider.value = String(step);
    ui.step.textContent = `Step ${step} of ${game.steps}`;
    let frame = frames.get(step);
    if (!frame) {
      try {
        frame = await getJSON(`/steps/${step}`);
      } catch (error) {
        ui.status.textContent = "Could not load that position; trying again…";
        setTimeout(() => { if (wanted === step) show(step); }, POLL_MS);
        return;
      }
      frames.set(step, frame);
    }
    if (wanted !== step) return;  // the reader moved on meanwhile
    current = step;
    ui.board.innerHTML = frame.board;
    accents();
    ui.board.dataset.step = String(step);
    renderResult(frame.result);
    ui.raw.textContent = JSON.stringify(frame.view, null, 1);
    if (game.picture) {
      const src = `${here}/board.png?step=${step}`;
      ui.picture.src = src;
      ui.picture.alt = `The board after move ${step} of ${game.steps} (tap to see it full size)`;
      ui.zoom.href = src;
      ui.zoom.hidden = false;
      if (ui.zoomed.open) ui.zoomedPicture.src = src;
    }
    ui.step.textContent = `Step ${step} of ${game.steps}`;
    markLog();
  }

  function stopPlaying() {
    if (player !== null) clearInterval(player);
    player = null;
    ui.play.textContent = "▶ Play";
  }

  function startPlaying() {
    if (current >= game.steps) show(0);
    ui.play.textContent = "⏸ Pause";
    player = setInterval(() => {
      if (current >= game.steps) stopPlaying();
      else show(current + 1);
    }, PLAY_MS);
  }

  function unfinished() {
    return game.status === "lobby" || game.status === "playing";
  }

  async function poll() {
    try {
      const wasStarted = game.started;
      const summary = await getJSON(`/moves?since=${game.moves}`);
      const before = game.steps;
      applySummary(summary);
      if (summary.started && (!wasStarted || (following && game.steps !== before))) {
        await show(game.steps);
      } else if (summary.started && !unfinished() && following) {
        await show(game.steps);
      } else {
        ui.step.textContent = `Step ${Math.max(current, 0)} of ${game.steps}`;
      }
    } catch (error) {
      ui.status.textContent = "Connection lost; trying again…";
    }
    if (unfinished()) setTimeout(poll, POLL_MS);
  }

  // Tap the picture: the same picture full size in a dialog (the link alone, without script).
  ui.zoom.addEventListener("click", (e) => {
    if (typeof ui.zoomed.showModal !== "function") return;
    e.preventDefault();
    ui.zoomedPicture.src = ui.picture.src;
    ui.zoomedPicture.alt = ui.picture.alt;
    ui.zoomed.showModal();
    ui.unzoom.focus();
  });
  ui.unzoom.addEventListener("click", () => ui.zoomed.close());
  ui.zoomed.addEventListener("click", (e) => { if (e.target === ui.zoomed) ui.zoomed.close(); });

  ui.slider.addEventListener("input", () => { stopPlaying(); show(Number(ui.slider.value)); });
  $("first").addEventListener("click", () => { stopPlaying(); show(0); });
  $("prev").addEventListener("click", () => { stopPlaying(); show(current - 1); });
  $("next").addEventListener("click", () => { stopPlaying(); show(current + 1); });
  $("last").addEventListener("click", () => { stopPlaying(); show(game.steps); });
  ui.play.addEventListener("click", () => (player === null ? startPlaying() : stopPlaying()));
  document.addEventListener("keydown", (e) => {
    if (e.target === ui.slider || e.altKey || e.ctrlKey || e.metaKey || ui.zoomed.open) return;
    const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: game.steps };
    if (e.key in moves && game.started) {
      e.preventDefault();
      stopPlaying();
      show(moves[e.key]);
    }
  });

  poll();
})();
