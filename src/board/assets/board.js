// Koma board: the page. It draws what the server sends and never decides
// legality: the server lists the legal moves (each with the squares and
// choices that make it with the mouse), the page turns clicks into one of
// those move strings and sends it back.
'use strict';

// ---------- what each game says of itself (display only) ----------

// The server's `/api/games` gives each game's title, pieces (letter,
// name, movement, drawing), names in hand, help, marked squares, and the
// words of its choices; where a game has no words of its own for a
// move's marks (the server's `paths` and `levels`) or a promotion, the
// page says these. In words, {piece}, {entry}, {to} and {via} stand for
// the moving piece, the square clicked on its path, where it comes to
// rest and the squares it may have passed.
const MARK_WORDS = {
  path: {
    ask: 'Your {piece} passes {entry}. Where does it come to rest?',
    stay: { label: '→ {to}', small: '' },
    up: { label: '→ {to}', small: '' },
    down: { label: '→ {to}', small: '' },
    told: ' (by {via} to {to})',
  },
  levels: 'Changes',
  promotion: {
    yes: { label: 'Promote', small: '' },
    no: { label: 'Do not promote', small: '' },
  },
};

function markWords(kind) {
  const g = gameInfo();
  return g[kind] || MARK_WORDS[kind];
}

function fill(words, vars) {
  return words.replace(/\{(\w+)\}/g, (all, k) => (k in vars ? vars[k] : all));
}

function choiceWords(c, vars) { return { label: fill(c.label, vars), small: fill(c.small, vars) }; }

// The game named `name` as the server describes it.
function gameOf(name) {
  return app.games.find((g) => g.name === name) ||
    { name, title: name, rules: [], pieces: [], promoted: [], hand: [], help: [], marks: [] };
}

function pieceFacts(g, letter, promoted) {
  return (promoted ? g.promoted : g.pieces).find((f) => f.letter === letter);
}

function markOn(mark, name) {
  const { file, rank } = parseSq(name);
  const at = mark.place;
  return at.file !== undefined ? at.file === file : at.square.file === file && at.square.rank === rank;
}

const SIDE_NAMES = ['First player', 'Second player'];

// ---------- state ----------

const app = {
  games: [],
  engine: '',
  levels: [],
  table: null,        // id
  own: new Set(),     // tables this tab opened
  state: null,        // latest full state
  viewPly: null,      // null: the latest position
  viewData: null,     // the view of an earlier ply
  flipped: false,
  sel: null,          // the move being made
  clocksAt: 0,        // when the clocks were received
  clocks: null,
  thinking: null,
  pollTimer: null,
  anim: null,         // running animation of a move's levels
  animatedPly: -1,
  lastRenderedPly: -1,
  stepTarget: null,   // the ply being fetched by stepTo
  stepSeq: 0,
  mode: 'game',       // 'game', 'analysis' (app.an) or 'editor' (app.ed)
  an: null,
  ed: null,
};

const $ = (id) => document.getElementById(id);

// ---------- server ----------

// The server's secret, written into the page: every API request carries
// it, so no other page can start programs through the server.
const SECRET = document.querySelector('meta[name="koma-secret"]').content;

async function api(method, url, body) {
  const opts = { method, headers: { 'X-Koma-Secret': SECRET } };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(url, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const msg = (data && data.error) || `${res.status} ${res.statusText}`;
    throw new Error(msg);
  }
  return data;
}

// Downloads a game's record: fetched with the secret, then saved under
// the name the server gives it.
async function saveRecord(id) {
  const res = await fetch(`/api/tables/${id}/record`, { headers: { 'X-Koma-Secret': SECRET } });
  if (!res.ok) {
    let msg = `${res.status} ${res.statusText}`;
    try { msg = (await res.json()).error || msg; } catch (e) { /* not JSON */ }
    throw new Error(msg);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') || '');
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name ? name[1] : `koma-${id}.pgn`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function showError(msg) {
  const e = $('error');
  e.textContent = msg;
  e.classList.remove('hidden');
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => e.classList.add('hidden'), 8000);
}

// ---------- coordinates ----------

function sqName(file, rank) { return String.fromCharCode(97 + file) + (rank + 1); }
function parseSq(s) { return { file: s.charCodeAt(0) - 97, rank: parseInt(s.slice(1), 10) - 1 }; }

function pieceAt(board, sq) {
  const { file, rank } = parseSq(sq);
  const row = board.ranks - 1 - rank;
  const r = board.squares[row];
  return r ? r[file] || null : null;
}

// The game on the board: the analysis's or the editor's in those modes.
function shownGame() {
  if (app.mode === 'analysis' && app.an) return app.an.game;
  if (app.mode === 'editor' && app.ed) return app.ed.game;
  return app.state.game;
}

function gameInfo() { return gameOf(shownGame()); }

function pieceName(p) {
  if (!p) return 'piece';
  const g = gameInfo();
  const f = (p.p && pieceFacts(g, p.l, true)) || pieceFacts(g, p.l, false);
  return f ? f.name : p.l;
}

function letterName(l) {
  const f = pieceFacts(gameInfo(), l, false);
  return f ? f.name : l;
}

function handName(l) {
  const h = gameInfo().hand.find((x) => x.letter === l);
  return h ? h.name : letterName(l);
}

// ---------- drawing ----------

const S = 60;           // square size in SVG units
const M = { l: 26, t: 10, r: 10, b: 26 };

function svgEl(tag, attrs, inner) {
  const a = Object.entries(attrs).map(([k, v]) => `${k}="${v}"`).join(' ');
  return `<${tag} ${a}>${inner || ''}</${tag}>`;
}

// The drawings of a piece a game may name (`art`), each at (0, 0), `up`
// when it faces the top of the screen; `swatch` the sides' colours beside
// the players' names where they differ from the five-sided pieces'.
const PIECE_ART = {
  stone: {
    draw: (p, up, first) => svgEl('circle', { r: S * 0.38, fill: first ? '#f6f2ea' : '#262626', stroke: '#222', 'stroke-width': 2 }) +
      svgEl('circle', { r: S * 0.26, fill: 'none', stroke: first ? '#d8cfc0' : '#444', 'stroke-width': 2 }),
    swatch: ['#f6f2ea', '#262626'],
  },
  curl: {
    draw: (p, up, first, c) => {
      const dir = up ? -1 : 1;
      const body = svgEl('path', {
        d: `M ${-S * 0.3} ${dir * -S * 0.05} Q 0 ${dir * S * 0.45} ${S * 0.3} ${dir * -S * 0.05} Q ${S * 0.18} ${dir * -S * 0.38} 0 ${dir * -S * 0.36} Q ${-S * 0.2} ${dir * -S * 0.36} ${-S * 0.3} ${dir * -S * 0.05} Z`,
        fill: first ? '#ffd9cc' : '#7a2f22', stroke: c.stroke, 'stroke-width': 2,
      });
      return body + svgEl('text', { class: 'pl', y: S * 0.09, 'text-anchor': 'middle', 'font-size': S * 0.3, 'font-weight': 700, fill: c.ink }, p.l);
    },
  },
  claws: {
    // It walks sideways: claws towards the opponent's home column.
    draw: (p, up, first, c) => {
      const cx = (first !== app.flipped) ? 1 : -1;
      const claws = [-1, 1].map((sy) => svgEl('circle', { cx: cx * S * 0.3, cy: sy * S * 0.24, r: S * 0.1, fill: c.fill, stroke: c.stroke, 'stroke-width': 2 })).join('');
      const body = svgEl('ellipse', { rx: S * 0.3, ry: S * 0.34, fill: c.fill, stroke: c.stroke, 'stroke-width': 2 });
      return claws + body + svgEl('text', { class: 'pl', y: S * 0.1, 'text-anchor': 'middle', 'font-size': S * 0.3, 'font-weight': 700, fill: c.ink }, p.l);
    },
  },
  shogi: {
    // Pointing towards the opponent.
    draw: (p, up, first, c) => {
      const k = up ? 1 : -1;
      const pts = [[0, -0.42], [0.3, -0.28], [0.36, 0.4], [-0.36, 0.4], [-0.3, -0.28]]
        .map(([x, y]) => `${x * S},${y * S * k}`).join(' ');
      const label = (p.p ? '+' : '') + p.l;
      const color = p.p ? (first ? '#b3261e' : '#ff8a80') : c.ink;
      return svgEl('polygon', { points: pts, fill: first ? '#f3ddb0' : '#5a4a3a', stroke: c.stroke, 'stroke-width': 2 }) +
        svgEl('text', { class: 'pl', y: S * 0.12, 'text-anchor': 'middle', 'font-size': S * (label.length > 1 ? 0.28 : 0.34), 'font-weight': 700, fill: color }, label);
    },
    swatch: ['#f3ddb0', '#5a4a3a'],
  },
};

// The drawing the game names for a piece's letter.
function pieceArt(game, letter) {
  const f = pieceFacts(gameOf(game), letter, false);
  return PIECE_ART[f && f.art] || PIECE_ART.shogi;
}

// A piece of `game` drawn at (0, 0), `up` when it faces the top of the screen.
function pieceSvg(game, p, up) {
  const first = p.c === 0;
  const c = {
    fill: first ? '#f7efdc' : '#3b332c',
    ink: first ? '#2b2620' : '#f7efdc',
    stroke: first ? '#5a4630' : '#14100c',
  };
  return pieceArt(game, p.l).draw(p, up, first, c);
}

// The drawings of a marked place a game may name (`art`): `fill` its
// squares, `over` drawn on them, `ink` its label's colour.
const MARK_ART = {
  water: { fill: 'var(--water)', ink: '#2d5c78' },
  cross: {
    over: svgEl('path', { d: `M ${S * 0.15} ${S * 0.15} L ${S * 0.85} ${S * 0.85} M ${S * 0.85} ${S * 0.15} L ${S * 0.15} ${S * 0.85}`, stroke: 'rgba(120,90,50,0.25)', 'stroke-width': 3 }),
  },
};

function faceUp(color) { return (color === 0) !== app.flipped; }

// Draws `board` with overlays; returns the SVG text.
function boardSvg(board, o) {
  const files = board.files, ranks = board.ranks;
  const W = M.l + files * S + M.r, H = M.t + ranks * S + M.b;
  const game = shownGame();
  const info = gameInfo();
  const parts = [];
  const xy = (file, rank) => {
    const col = app.flipped ? files - 1 - file : file;
    const row = app.flipped ? rank : ranks - 1 - rank;
    return [M.l + col * S, M.t + row * S];
  };
  for (let rank = 0; rank < ranks; rank++) {
    for (let file = 0; file < files; file++) {
      const name = sqName(file, rank);
      const [x, y] = xy(file, rank);
      const p = board.squares[ranks - 1 - rank][file];
      let fill = (file + rank) % 2 ? 'var(--sq)' : 'var(--sq-alt)';
      const marks = info.marks.filter((m) => markOn(m, name)).map((m) => MARK_ART[m.art] || {});
      for (const m of marks) if (m.fill) fill = m.fill;
      const g = [];
      g.push(svgEl('rect', { x: 0, y: 0, width: S, height: S, fill, stroke: '#8d7a5a', 'stroke-width': 1 }));
      for (const m of marks) if (m.over) g.push(m.over);
      if (o.last && o.last.includes(name)) g.push(svgEl('rect', { x: 0, y: 0, width: S, height: S, fill: 'var(--last)' }));
      if (o.selected === name) g.push(svgEl('rect', { x: 0, y: 0, width: S, height: S, fill: 'var(--sel)' }));
      if (o.movable && o.movable.includes(name)) g.push(svgEl('rect', { x: 3, y: 3, width: S - 6, height: S - 6, fill: 'none', stroke: '#3b8a3b', 'stroke-width': 2, 'stroke-dasharray': '5 4' }));
      if (p) g.push(`<g transform="translate(${S / 2},${S / 2})">${pieceSvg(game, p, faceUp(p.c))}</g>`);
      if (o.captured && o.captured.includes(name)) {
        // A piece taken off the board: a cross on its square; taken by
        // the piece now standing there: a cross in the corner.
        const [c, r] = p ? [S - 12, 9] : [S / 2, S * 0.2];
        g.push(svgEl('path', { d: `M ${c - r} ${(p ? 12 : S / 2) - r} L ${c + r} ${(p ? 12 : S / 2) + r} M ${c + r} ${(p ? 12 : S / 2) - r} L ${c - r} ${(p ? 12 : S / 2) + r}`, stroke: '#c0392b', 'stroke-width': p ? 3 : 4, 'stroke-linecap': 'round' }));
      }
      if (o.level && o.level[name]) {
        g.push(svgEl('circle', { cx: S - 12, cy: 12, r: 10, fill: '#6a1b9a' }) +
          svgEl('text', { x: S - 12, y: 16.5, 'text-anchor': 'middle', 'font-size': 13, 'font-weight': 700, fill: '#fff' }, o.level[name]));
      }
      if (o.dests && o.dests.includes(name)) {
        g.push(p ? svgEl('circle', { cx: S / 2, cy: S / 2, r: S * 0.44, fill: 'none', stroke: 'var(--dest)', 'stroke-width': 4 })
          : svgEl('circle', { cx: S / 2, cy: S / 2, r: S * 0.13, fill: 'var(--dest)' }));
      }
      let data = p ? `data-piece="${p.l}" data-color="${p.c}" data-promoted="${p.p ? 1 : 0}"` : 'data-piece="" data-color="" data-promoted=""';
      if (o.dests && o.dests.includes(name)) data += ' data-dest="1"';
      if (o.level && o.level[name]) data += ` data-level="${o.level[name]}"`;
      parts.push(`<g class="sq" data-square="${name}" ${data} transform="translate(${x},${y})">${g.join('')}</g>`);
    }
  }
  for (let file = 0; file < files; file++) {
    const [x] = xy(file, 0);
    parts.push(svgEl('text', { x: x + S / 2, y: M.t + ranks * S + 18, 'text-anchor': 'middle', 'font-size': 14, fill: '#5a4630' }, String.fromCharCode(97 + file)));
  }
  for (let rank = 0; rank < ranks; rank++) {
    const [, y] = xy(0, rank);
    parts.push(svgEl('text', { x: M.l - 8, y: y + S / 2 + 5, 'text-anchor': 'end', 'font-size': 14, fill: '#5a4630' }, String(rank + 1)));
  }
  for (const m of info.marks) {
    if (!m.label || m.place.file === undefined) continue;
    const [x] = xy(m.place.file, 0);
    parts.push(svgEl('text', { x: x + S / 2, y: M.t + 12, 'text-anchor': 'middle', 'font-size': 10, fill: (MARK_ART[m.art] || {}).ink || '#5a4630', 'letter-spacing': 2 }, escapeHtml(m.label)));
  }
  if (o.arrows && o.arrows.length) {
    const center = (sq) => { const { file, rank } = parseSq(sq); const [x, y] = xy(file, rank); return [x + S / 2, y + S / 2]; };
    parts.push('<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#1f6fb2"/></marker></defs>');
    for (const a of o.arrows) {
      const [x2, y2] = center(a.to);
      const common = `class="arrow" data-arrow="${escapeHtml(a.move)}" data-line="${a.line}" opacity="${a.opacity}" pointer-events="none"`;
      if (a.from) {
        const [x1, y1] = center(a.from);
        parts.push(`<line ${common} x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#1f6fb2" stroke-width="${a.width}" stroke-linecap="round" marker-end="url(#arrowhead)"/>`);
      } else {
        parts.push(`<circle ${common} cx="${x2}" cy="${y2}" r="${S * 0.4}" fill="none" stroke="#1f6fb2" stroke-width="${a.width}"/>`);
      }
    }
  }
  const attrs = `viewBox="0 0 ${W} ${H}" class="${game}${files >= 9 ? ' wide' : ''}" data-ply="${o.ply}" data-position="${o.position}"${o.animating ? ' data-animating="1"' : ''}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" ${attrs}>${parts.join('')}</svg>`;
}

// ---------- the move being made ----------

// The legal moves while a person may move in the shown position.
function legal() {
  if (app.mode !== 'game') return null;
  const s = app.state;
  if (!s || !s.legal || app.viewPly !== null || s.end) return null;
  return s.legal;
}

function clickable(step) { return step.via.length ? step.via : [step.to]; }

function stepKey(st) { return st.from + st.to + (st.promote ? '+' : ''); }

function clearSel() {
  app.sel = null;
  hideChoice();
}

// The board shown while a move is being made (after the first movement
// during a Bond).
function shownBoard() {
  if (app.sel && app.sel.bondBoard) return app.sel.bondBoard;
  return currentView().board;
}

function currentView() {
  return app.viewPly === null ? app.state.view : app.viewData;
}

function onSquare(name) {
  if (app.mode === 'editor') { edClick(name); return; }
  const lg = legal();
  if (!lg || app.anim) return;
  const sel = app.sel;
  if (sel && sel.stage === 'dest' && sel.dests.includes(name)) {
    chooseDest(name);
    return;
  }
  const i = sel && sel.bond ? 1 : 0;
  const pool = sel && sel.bond ? sel.bond : lg.moves;
  const cands = pool.filter((m) => m.steps && m.steps[i] && m.steps[i].from === name);
  if (cands.length) {
    app.sel = { stage: 'dest', step: i, from: name, cands, dests: uniq(cands.flatMap((m) => clickable(m.steps[i]))),
      bond: sel && sel.bond, bondBoard: sel && sel.bondBoard, single: sel && sel.single, first: sel && sel.first };
    hideChoice();
  } else if (sel && sel.bond) {
    // Stay in the Bond stage.
    app.sel = { stage: 'bond', bond: sel.bond, bondBoard: sel.bondBoard, single: sel.single, first: sel.first };
  } else {
    clearSel();
  }
  render();
}

function onHand(side, letter) {
  const lg = legal();
  if (!lg || app.anim || app.sel && app.sel.bond) return;
  if (side !== (app.state.toMove === 'first' ? 0 : 1)) return;
  const cands = lg.moves.filter((m) => m.drop && m.drop.hand === letter);
  if (!cands.length) {
    showError(`No legal drop of this piece now.`);
    return;
  }
  app.sel = { stage: 'dest', drop: letter, cands, dests: uniq(cands.map((m) => m.drop.to)) };
  hideChoice();
  render();
}

function uniq(a) { return [...new Set(a)]; }

function chooseDest(name) {
  const sel = app.sel;
  if (sel.drop) {
    const cands = sel.cands.filter((m) => m.drop.to === name);
    const pieces = uniq(cands.map((m) => m.drop.piece));
    if (pieces.length > 1) {
      const g = gameInfo();
      askChoice(`Drop the ${handName(sel.drop)} on ${name} in which state? It keeps that state until it moves.`,
        pieces.map((l) => ({ value: l, label: `${letterName(l)} (${l})`, small: (pieceFacts(g, l, false) || { moves: '' }).moves })),
        (l) => send(cands.find((m) => m.drop.piece === l).t));
      app.sel = { stage: 'choice', cands: sel.cands, dests: [], drop: sel.drop, target: name };
      render();
      return;
    }
    send(cands[0].t);
    return;
  }
  const i = sel.step;
  const cands = sel.cands.filter((m) => clickable(m.steps[i]).includes(name));
  const base = { ...sel, stage: 'choice', dests: [], target: name };
  app.sel = base;
  render();
  resolveRest(i, cands, name);
}

// Where the piece comes to rest, when the square clicked is one of its
// path's (`entry`) and the movement may end on several.
function resolveRest(i, cands, entry) {
  const rests = uniq(cands.map((m) => m.steps[i].to));
  if (rests.length > 1) {
    const er = parseSq(entry).rank;
    const words = markWords('path');
    const way = (to) => [words.down, words.stay, words.up][Math.sign(parseSq(to).rank - er) + 1];
    const opts = rests.map((to) => ({ value: to, ...choiceWords(way(to), { to }) }));
    const who = pieceName(pieceAt(shownBoard(), app.sel.from));
    askChoice(fill(words.ask, { piece: who, entry }), opts,
      (to) => resolvePromotion(i, cands.filter((m) => m.steps[i].to === to)));
    return;
  }
  resolvePromotion(i, cands);
}

function resolvePromotion(i, cands) {
  const proms = uniq(cands.map((m) => m.steps[i].promote));
  if (proms.length > 1) {
    const to = cands[0].steps[i].to;
    const words = markWords('promotion');
    askChoice(`Your piece ends on ${to}, in the promotion zone. Promote it?`, [
      { value: 'yes', ...choiceWords(words.yes, { to }) },
      { value: 'no', ...choiceWords(words.no, { to }) },
    ], (v) => afterStep(i, cands.filter((m) => m.steps[i].promote === (v === 'yes'))));
    return;
  }
  afterStep(i, cands);
}

function afterStep(i, cands) {
  hideChoice();
  if (i === 0) {
    const single = cands.find((m) => m.steps.length === 1) || null;
    const bond = cands.filter((m) => m.steps.length === 2);
    if (bond.length) {
      const first = stepKey(cands[0].steps[0]);
      const bb = app.state.legal.bondBoards[first];
      app.sel = { stage: 'bond', bond, single, first, bondBoard: bb || null };
      render();
      return;
    }
    if (single) send(single.t);
    return;
  }
  if (cands.length) send(cands[0].t);
}

function declineBond() {
  if (app.sel && app.sel.single) send(app.sel.single.t);
}

function askChoice(text, options, done) {
  $('choice-text').textContent = text;
  const box = $('choice-buttons');
  box.innerHTML = '';
  for (const o of options) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.value = o.value;
    b.innerHTML = `${escapeHtml(o.label)}${o.small ? `<small>${escapeHtml(o.small)}</small>` : ''}`;
    b.addEventListener('click', () => done(o.value));
    box.appendChild(b);
  }
  const c = document.createElement('button');
  c.type = 'button';
  c.dataset.value = 'cancel';
  c.textContent = 'Cancel';
  c.addEventListener('click', () => { clearSel(); render(); });
  box.appendChild(c);
  $('choice').classList.remove('hidden');
}

function hideChoice() { $('choice').classList.add('hidden'); }

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

async function send(move) {
  clearSel();
  render();
  try {
    const st = await api('POST', `/api/tables/${app.table}/move`, { move, ply: app.state.plies });
    accept(st);
  } catch (e) {
    showError(e.message);
    poll();
  }
}

// ---------- receiving state ----------

function accept(st) {
  if (!st) return;
  app.clocks = st.clocks;
  app.clocksAt = performance.now();
  app.thinking = st.thinking;
  if (st.full) {
    const prev = app.state;
    const changed = !prev || prev.version !== st.version || prev.id !== st.id;
    app.state = st;
    if (changed) {
      if (app.sel) clearSel();
      if (app.viewPly !== null && app.viewPly > st.plies) app.viewPly = null;
      const newMove = prev && prev.id === st.id && st.plies === prev.plies + 1 && app.viewPly === null;
      if (newMove && st.view.last && st.view.last.levels.length) startLevelAnimation(st.view);
    }
    render();
  } else {
    renderLive();
  }
}

async function poll() {
  if (app.table === null) return;
  const since = app.state && app.state.id === app.table ? app.state.version : '';
  try {
    const st = await api('GET', `/api/tables/${app.table}?since=${since}`);
    accept(st);
  } catch (e) {
    if (/no game/.test(e.message)) {
      stopPolling();
      $('prompt').textContent = 'This game was closed. Start a new one.';
    }
  }
}

function startPolling() {
  stopPolling();
  app.pollTimer = setInterval(poll, 250);
}

function stopPolling() {
  if (app.pollTimer) clearInterval(app.pollTimer);
  app.pollTimer = null;
}

async function openTable(id, st) {
  if (app.mode !== 'game') {
    await closeAnalysisEngine();
    app.an = null;
    app.ed = null;
    app.mode = 'game';
    document.body.dataset.mode = 'game';
  }
  app.table = id;
  app.state = null;
  app.viewPly = null;
  app.viewData = null;
  clearSel();
  location.hash = `table=${id}`;
  if (st) accept(st); else await poll();
  startPolling();
}

// The ply shown, or the one being fetched: two quick clicks on < step two
// moves back, not twice to the same one.
function shownPly() {
  if (app.stepTarget !== null && app.stepTarget !== undefined) return app.stepTarget;
  return app.viewPly === null ? app.state.plies : app.viewPly;
}

async function stepTo(ply) {
  const s = app.state;
  if (!s) return;
  clearSel();
  const seq = (app.stepSeq = (app.stepSeq || 0) + 1);
  if (ply === null || ply >= s.plies) {
    app.stepTarget = null;
    app.viewPly = null;
    app.viewData = null;
    render();
    return;
  }
  ply = Math.max(0, ply);
  app.stepTarget = ply;
  try {
    const st = await api('GET', `/api/tables/${app.table}?ply=${ply}`);
    // Only the latest step is shown.
    if (seq !== app.stepSeq) return;
    app.viewPly = ply;
    app.viewData = st.view;
    if (st.view.last && st.view.last.levels.length) startLevelAnimation(st.view);
    render();
  } catch (e) {
    showError(e.message);
  } finally {
    if (seq === app.stepSeq) app.stepTarget = null;
  }
}

// ---------- the squares a move changed, level by level ----------

function startLevelAnimation(view) {
  const last = view.last;
  const levels = last.levels;
  const frames = [];
  const copy = (b) => ({ ...b, squares: b.squares.map((r) => r.slice()) });
  const set = (b, sq, p) => { const { file, rank } = parseSq(sq); b.squares[b.ranks - 1 - rank][file] = p; };
  let b = copy(last.before);
  for (const sq of last.squares) set(b, sq, pieceAt(view.board, sq));
  frames.push(copy(b));
  for (const level of levels) {
    for (const sq of level) set(b, sq, pieceAt(view.board, sq));
    frames.push(copy(b));
  }
  if (app.anim) clearTimeout(app.anim.timer);
  app.anim = { frames, index: 0, ply: view.ply, timer: null };
  const tick = () => {
    if (!app.anim) return;
    app.anim.index += 1;
    if (app.anim.index >= app.anim.frames.length) {
      app.anim = null;
    } else {
      app.anim.timer = setTimeout(tick, 650);
    }
    render();
  };
  app.anim.timer = setTimeout(tick, 650);
}

// ---------- rendering ----------

function sideIndex(name) { return name === 'first' ? 0 : 1; }

function render() {
  if (app.mode === 'analysis') { renderAnalysis(); return; }
  if (app.mode === 'editor') { renderEditor(); return; }
  const s = app.state;
  if (!s) return;
  const view = currentView();
  if (!view) return;
  const info = gameInfo();
  $('title').textContent = `${info.title}${s.review ? ' — record' : ''}`;

  // The board and its overlays.
  const o = { ply: view.ply, position: escapeHtml(view.position) };
  let board = shownBoard();
  if (app.anim && app.anim.ply === view.ply) {
    board = app.anim.frames[app.anim.index];
    o.animating = true;
  }
  const last = view.last;
  if (last && !(app.sel && app.sel.bondBoard)) {
    o.last = last.squares;
    o.captured = last.captured;
    if (last.levels.length) {
      o.level = {};
      const upto = o.animating ? app.anim.index : last.levels.length;
      last.levels.forEach((lv, k) => { if (k < upto) for (const sq of lv) o.level[sq] = k + 1; });
    }
  }
  const sel = app.sel;
  if (sel && sel.stage === 'dest') {
    o.selected = sel.from;
    o.dests = sel.dests;
  }
  if (sel && (sel.stage === 'bond' || sel.bond)) {
    o.movable = uniq(sel.bond.map((m) => m.steps[1].from));
    if (sel.stage === 'dest') o.movable = o.movable.filter((x) => x !== sel.from);
  }
  if (sel && sel.stage === 'choice' && sel.target) o.dests = [sel.target];
  $('board').innerHTML = boardSvg(board, o);
  for (const g of $('board').querySelectorAll('.sq')) {
    g.addEventListener('click', () => onSquare(g.dataset.square));
  }

  renderHands(board);
  renderPlayers();
  renderEnd();
  renderLastMove(view);
  renderMoves();
  renderPrompt();
  renderHelp();
  renderReview();
  renderGameReview();
  renderLive();
  const notes = $('notes');
  notes.innerHTML = (s.notes || []).map((n) => `<li>${escapeHtml(n)}</li>`).join('');
  $('btn-undo').disabled = !s.canUndo || s.closed;
  $('btn-save').disabled = false;
  const lg = legal();
  const canPass = lg && lg.moves.some((m) => m.pass) && !(sel && sel.bond);
  $('btn-pass').classList.toggle('hidden', !canPass);
  $('btn-cancel').classList.toggle('hidden', !sel);
}

function renderHands(board) {
  const s = app.state;
  const top = $('hand-top'), bottom = $('hand-bottom');
  if (!board.hands) {
    top.innerHTML = '';
    bottom.innerHTML = '';
    top.classList.add('hidden');
    bottom.classList.add('hidden');
    return;
  }
  top.classList.remove('hidden');
  bottom.classList.remove('hidden');
  const lg = legal();
  const toMove = sideIndex(s.toMove);
  const bottomSide = app.flipped ? 1 : 0;
  for (const [el, side] of [[bottom, bottomSide], [top, 1 - bottomSide]]) {
    const items = board.hands[side];
    const active = lg && side === toMove && !(app.sel && app.sel.bond);
    let html = `<span class="who">${escapeHtml(s.players[side].name)}'s hand:</span>`;
    if (!items.length) html += '<span class="who">(empty)</span>';
    for (const h of items) {
      const selected = app.sel && app.sel.drop === h.l && side === toMove;
      const p = { l: h.l, c: side, p: false };
      const name = handName(h.l);
      html += `<button type="button" class="hand-piece${active ? ' active' : ''}${selected ? ' selected' : ''}" data-side="${side}" data-hand="${h.l}" title="${escapeHtml(name)}">` +
        `<svg viewBox="${-S / 2} ${-S / 2} ${S} ${S}">${pieceSvg(s.game, p, faceUp(side))}</svg>` +
        (h.n > 1 ? `<span class="count">${h.n}</span>` : '') + '</button>';
    }
    el.innerHTML = html;
  }
  for (const b of document.querySelectorAll('.hand-piece')) {
    b.addEventListener('click', () => onHand(parseInt(b.dataset.side, 10), b.dataset.hand));
  }
}

function swatch(side) {
  const first = gameOf(app.state.game).pieces[0];
  const colors = (first && pieceArt(app.state.game, first.letter).swatch) || PIECE_ART.shogi.swatch;
  return `<span class="swatch" style="background:${colors[side]}"></span>`;
}

function renderPlayers() {
  const s = app.state;
  const box = $('players');
  const topSide = app.flipped ? 0 : 1;
  const order = [topSide, 1 - topSide];
  box.innerHTML = order.map((side) => {
    const p = s.players[side];
    const kind = p.kind === 'engine' ? `engine: ${p.command}${p.level ? `, level ${p.level}` : ''}` : p.kind === 'human' ? 'person at the board' : 'from the record';
    const limits = p.limits ? ` · ${p.limits}` : '';
    const toMove = !s.end && !s.review && sideIndex(s.toMove) === side;
    return `<div class="player-box${toMove ? ' to-move' : ''}" data-side="${side}">` +
      `<div class="name">${swatch(side)}${escapeHtml(p.name)} <small>(${SIDE_NAMES[side].toLowerCase()})</small></div>` +
      `<div class="clock idle" data-clock="${side}"></div>` +
      `<div class="meta">${escapeHtml(kind)}${escapeHtml(limits)}</div></div>`;
  }).join('');
}

function fmtMs(ms) {
  if (ms === null || ms === undefined) return '';
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000), sec = Math.floor((t % 60000) / 1000);
  if (t < 10000) return `${m}:${String(sec).padStart(2, '0')}.${Math.floor((t % 1000) / 100)}`;
  return `${m}:${String(sec).padStart(2, '0')}`;
}

// Clocks and thinking: every poll, and counted down between polls.
function renderLive() {
  const s = app.state;
  if (!s || !app.clocks || app.mode !== 'game') return;
  const spent = performance.now() - app.clocksAt;
  app.clocks.forEach((c, side) => {
    const el = document.querySelector(`[data-clock="${side}"]`);
    if (!el) return;
    const run = c.running ? spent : 0;
    let text = '';
    let low = false;
    if (c.ms !== null) {
      const left = c.ms - run;
      text = fmtMs(left);
      low = c.running && left < 10000;
    } else if (c.moveMs !== null) {
      text = c.running ? fmtMs(c.moveMs - run) : 'per move';
    } else {
      text = '∞';
    }
    el.textContent = text;
    el.classList.toggle('idle', !c.running);
    el.classList.toggle('low', low);
  });
  const th = app.thinking;
  const box = $('thinking');
  if (!th || s.end) {
    box.classList.add('hidden');
    return;
  }
  box.classList.remove('hidden');
  const who = s.players[th.side].name;
  const bits = [];
  if (th.depth) bits.push(`depth ${th.depth}${th.seldepth ? `/${th.seldepth}` : ''}`);
  if (th.score) bits.push(th.score.mate !== undefined ? `mate ${th.score.mate}` : `score ${(th.score.cp >= 0 ? '+' : '') + (th.score.cp / 100).toFixed(2)}`);
  if (th.nodes) bits.push(`${th.nodes} nodes`);
  if (th.nps) bits.push(`${th.nps} nodes/s`);
  const secs = th.ms !== null ? ` (${(th.ms / 1000).toFixed(1)} s)` : '';
  box.innerHTML = `<div><b>${escapeHtml(who)}</b> is thinking${secs}${bits.length ? ': ' + bits.join(' · ') : ''}</div>` +
    (th.pv.length ? `<div class="pv">PV: ${th.pv.map(escapeHtml).join(' ')}</div>` : '') +
    (th.string ? `<div class="pv">${escapeHtml(th.string)}</div>` : '');
  box.dataset.depth = th.depth || '';
}

function renderEnd() {
  const s = app.state;
  const el = $('end');
  if (s.review) {
    const r = s.review;
    el.classList.remove('hidden');
    el.innerHTML = `<div class="result">Recorded: ${escapeHtml(r.result)}</div>` +
      `<div>${escapeHtml(r.sentence || '')}</div>`;
    return;
  }
  if (!s.end) {
    el.classList.add('hidden');
    el.innerHTML = '';
    return;
  }
  el.classList.remove('hidden');
  el.innerHTML = `<div class="result" data-result="${escapeHtml(s.end.result)}">${escapeHtml(s.end.result)} · game over</div>` +
    `<div class="sentence">${escapeHtml(s.end.sentence)}</div>` +
    (s.end.detail ? `<div class="detail">${escapeHtml(s.end.detail)}</div>` : '');
}

function describeStep(board, st, path) {
  const p = pieceAt(board, st.from);
  let s = `${pieceName(p)} ${st.from}→${st.to}`;
  if (path) s += fill(markWords('path').told, { via: path.via.join(' or '), to: st.to });
  if (st.promote) s += ', promotes';
  return s;
}

function renderLastMove(view) {
  const el = $('lastmove');
  const last = view.last;
  if (!last) {
    el.innerHTML = view.ply === 0 ? '<i>Start position.</i>' : '';
    return;
  }
  const mv = last.text;
  let words = '';
  const pathFor = (st) => last.paths.find((r) => r.from === st.from && r.to === st.to);
  if (mv === 'pass') {
    words = 'pass';
  } else if (last.drop) {
    words = `drop of a ${letterName(last.drop.piece)} on ${last.drop.to}`;
  } else if (last.steps.length) {
    words = describeStep(last.before, last.steps[0], pathFor(last.steps[0]));
    if (last.steps[1]) words += `; Bond: ${describeStep(last.before, last.steps[1], pathFor(last.steps[1]))}`;
  }
  let html = `<b>Last move</b> (${last.side} player): <code>${escapeHtml(mv)}</code> — ${escapeHtml(words)}`;
  if (last.captured.length) html += `; captured on ${last.captured.join(', ')}`;
  if (last.levels.length) {
    html += `<div class="levels">${markWords('levels')}: ${last.levels.map((lv, k) => `<span>level ${k + 1}: ${lv.join(' ')}</span>`).join('')}</div>`;
  }
  const caps = view.captures;
  if (!view.board.hands) html += `<div>Captures so far: ${escapeHtml(app.state.players[0].name)} ${caps[0]}, ${escapeHtml(app.state.players[1].name)} ${caps[1]}</div>`;
  el.innerHTML = html;
}

function renderMoves() {
  const s = app.state;
  const list = $('moves');
  const shown = app.viewPly === null ? s.plies : app.viewPly;
  let html = '';
  const startSide = s.start.split(' ')[1] === 'b' ? 1 : 0;
  let k = 0;
  let number = 1;
  const ms = s.moves;
  while (k < ms.length) {
    const cells = [];
    let side = (k + startSide) % 2;
    if (side === 1 && k === 0) cells.push('<span class="mv">…</span>');
    do {
      const m = ms[k];
      const cur = k + 1 === shown ? ' current' : '';
      const mark = s.analysis ? s.analysis.marks.find((x) => x.ply === k + 1) : null;
      const mk = mark ? ` mark-${mark.kind}` : '';
      cells.push(`<span class="mv${cur}${mk}" data-ply="${k + 1}">${escapeHtml(m.text)}</span>` +
        (m.comment ? `<span class="cmt">${escapeHtml(m.comment)}</span>` : ''));
      k += 1;
      side = (k + startSide) % 2;
    } while (k < ms.length && side === 1);
    html += `<li value="${number}">${cells.join('')}</li>`;
    number += 1;
  }
  list.innerHTML = html;
  for (const m of list.querySelectorAll('.mv[data-ply]')) {
    m.addEventListener('click', () => stepTo(parseInt(m.dataset.ply, 10)));
  }
  const cur = list.querySelector('.current');
  if (cur && app.viewPly !== null) cur.scrollIntoView({ block: 'nearest' });
  else list.scrollTop = list.scrollHeight;
  $('step-label').textContent = `move ${shown} of ${s.plies}`;
  $('step-first').disabled = shown === 0;
  $('step-back').disabled = shown === 0;
  $('step-fwd').disabled = shown >= s.plies;
  $('step-last').disabled = shown >= s.plies;
}

function renderPrompt() {
  const s = app.state;
  const el = $('prompt');
  const sel = app.sel;
  const name = (side) => s.players[side].name;
  const toMove = sideIndex(s.toMove);
  let text = '';
  if (s.closed) text = 'This game was closed.';
  else if (s.review) text = 'A record: step through it with the arrows (or the ← → keys), or click a move.';
  else if (app.viewPly !== null) text = `Showing the position after move ${app.viewPly}. Press >| to go back to the game.`;
  else if (s.end) text = `Game over: ${s.end.sentence}.`;
  else if (!s.humanToMove) text = `${name(toMove)} (${SIDE_NAMES[toMove].toLowerCase()}) to move${s.players[toMove].kind === 'engine' ? ': the engine is thinking…' : '.'}`;
  else if (!sel) text = `${name(toMove)} to move (${SIDE_NAMES[toMove].toLowerCase()}): click one of your pieces${app.state.view.board.hands ? ' or a piece in your hand' : ''}.`;
  else if (sel.stage === 'dest' && sel.drop) text = `Click a marked square to drop the ${handName(sel.drop)}.`;
  else if (sel.stage === 'dest') {
    const p = pieceAt(shownBoard(), sel.from);
    const hints = gameInfo().marks.filter((m) => m.hint && sel.dests.some((d) => markOn(m, d))).map((m) => ` ${m.hint}`);
    text = `${sel.bond ? 'Bond step: ' : ''}${pieceName(p)} on ${sel.from}: click a marked square.` +
      hints.join('');
  } else if (sel.stage === 'bond') {
    text = 'Bond: you may move one piece of the group (dashed) one step diagonally. Click it, or "No Bond" to end your turn.';
  } else if (sel.stage === 'choice') text = 'Choose in the box on the board.';
  el.textContent = text;
  let bondBtn = $('btn-nobond');
  if (sel && sel.stage === 'bond' && sel.single) {
    if (!bondBtn) {
      bondBtn = document.createElement('button');
      bondBtn.id = 'btn-nobond';
      bondBtn.type = 'button';
      bondBtn.textContent = 'No Bond (end the turn)';
      bondBtn.addEventListener('click', declineBond);
      $('actions').appendChild(bondBtn);
    }
  } else if (bondBtn) {
    bondBtn.remove();
  }
}

function renderHelp() {
  const g = gameInfo();
  const key = app.state.game;
  if ($('help-text').dataset.game === key) return;
  $('help-text').dataset.game = key;
  let html = g.help.map((p) => `<p>${p}</p>`).join('');
  const line = (f, prefix) => `<b>${prefix}${f.letter}</b> ${escapeHtml(f.name)}: ${escapeHtml(f.moves)}`;
  const pieces = g.pieces.map((f) => line(f, '')).concat(g.promoted.map((f) => line(f, '+')));
  html += `<p>${pieces.join('<br>')}</p>`;
  $('help-text').innerHTML = html;
}

function renderReview() {
  const s = app.state;
  const el = $('review');
  if (!s.review) {
    el.classList.add('hidden');
    return;
  }
  const r = s.review;
  el.classList.remove('hidden');
  const rows = r.tags.map(([n, v]) => `<tr><td>${escapeHtml(n)}</td><td>${escapeHtml(v)}</td></tr>`).join('');
  el.innerHTML = `<div><b>Record</b> — ${r.valid ? 'valid by the rules (as koma-referee --replay checks)' : `not valid: ${escapeHtml(r.check || '')}`}</div>` +
    (r.error ? `<div class="error">${escapeHtml(r.error)}</div>` : '') +
    (r.rulesEnd ? `<div>The rules end it: ${escapeHtml(r.rulesEnd)}</div>` : '') +
    `<table>${rows}</table>`;
}

// ---------- setup ----------

function playerFields(side, defaults) {
  const fs = document.querySelector(`#setup-players .player[data-side="${side}"]`);
  const levels = app.levels.map((l) => `<option value="${l}"${l === defaults.level ? ' selected' : ''}>${l}</option>`).join('');
  fs.insertAdjacentHTML('beforeend', `
    <label>Played by <select name="kind">
      <option value="human"${defaults.kind === 'human' ? ' selected' : ''}>a person</option>
      <option value="engine"${defaults.kind === 'engine' ? ' selected' : ''}>an engine</option></select></label>
    <label>Name <input name="name" type="text" placeholder="(default)"></label>
    <div class="engine-only">
      <label>Engine command <input name="command" type="text" placeholder="${escapeHtml(app.engine)}"></label>
      <label>Level <select name="level">${levels}<option value="default">(engine's own; for other engines)</option></select></label>
    </div>
    <label>Time <select name="time">
      <option value="none">no clock</option>
      <option value="move">seconds per move</option>
      <option value="clock">clock: minutes + seconds per move</option></select></label>
    <label class="inline time-move">Seconds per move <input name="seconds" type="number" min="0.05" step="0.05" value="1"></label>
    <label class="inline time-clock">Minutes <input name="base" type="number" min="0" step="0.5" value="5">
      + increment (s) <input name="inc" type="number" min="0" step="0.5" value="3"></label>`);
  const kind = fs.querySelector('[name=kind]');
  const time = fs.querySelector('[name=time]');
  const sync = () => {
    const engine = kind.value === 'engine';
    fs.querySelector('.engine-only').classList.toggle('hidden', !engine);
    time.querySelector('option[value=none]').disabled = engine;
    if (engine && time.value === 'none') time.value = 'move';
    fs.querySelector('.time-move').classList.toggle('hidden', time.value !== 'move');
    fs.querySelector('.time-clock').classList.toggle('hidden', time.value !== 'clock');
  };
  kind.addEventListener('change', sync);
  time.addEventListener('change', sync);
  time.value = defaults.time;
  sync();
}

function ruleFields() {
  const name = $('setup-game').value;
  const g = app.games.find((x) => x.name === name);
  const box = $('setup-rules');
  box.innerHTML = '<legend>Rules</legend>';
  if (!g.rules.length) {
    box.insertAdjacentHTML('beforeend', '<p>This game has no rule options.</p>');
    return;
  }
  for (const r of g.rules) {
    const help = r.help ? `<span class="rule-help">${escapeHtml(r.help)}</span>` : '';
    let input = '';
    if (r.kind === 'check') input = `<input type="checkbox" data-rule="${r.name}"${r.default ? ' checked' : ''}>`;
    else if (r.kind === 'spin') input = `<input type="number" data-rule="${r.name}" min="${r.min}" max="${r.max}" value="${r.default}">`;
    else if (r.kind === 'combo') input = `<select data-rule="${r.name}">${r.values.map((v) => `<option${v === r.default ? ' selected' : ''}>${v}</option>`).join('')}</select>`;
    else input = `<input type="text" data-rule="${r.name}" value="${escapeHtml(r.default || '')}">`;
    box.insertAdjacentHTML('beforeend', `<label>${input} ${r.name}${help}</label>`);
  }
}

function buildSetup() {
  const sel = $('setup-game');
  sel.innerHTML = app.games.map((g) => `<option value="${g.name}">${escapeHtml(g.title)}</option>`).join('');
  sel.addEventListener('change', ruleFields);
  ruleFields();
  playerFields(0, { kind: 'human', level: 'normal', time: 'none' });
  playerFields(1, { kind: 'engine', level: 'normal', time: 'move' });
}

function readSetup() {
  const rules = {};
  for (const el of document.querySelectorAll('#setup-rules [data-rule]')) {
    rules[el.dataset.rule] = el.type === 'checkbox' ? el.checked : el.value;
  }
  const players = [0, 1].map((side) => {
    const fs = document.querySelector(`#setup-players .player[data-side="${side}"]`);
    const v = (n) => fs.querySelector(`[name=${n}]`).value;
    const p = { kind: v('kind') };
    if (v('name').trim()) p.name = v('name').trim();
    if (p.kind === 'engine') {
      if (v('command').trim()) p.command = v('command').trim();
      p.level = v('level');
    }
    const mode = v('time');
    if (mode === 'move') p.time = { mode, seconds: parseFloat(v('seconds')) };
    else if (mode === 'clock') p.time = { mode, base: parseFloat(v('base')) * 60, inc: parseFloat(v('inc')) };
    else p.time = { mode: 'none' };
    return p;
  });
  const setup = { game: $('setup-game').value, rules, players, maxPlies: parseInt($('setup-maxplies').value || '0', 10) };
  const start = $('setup-startpos').value.trim();
  if (start) setup.start = start;
  return setup;
}

async function startGame(ev) {
  if (ev) ev.preventDefault();
  $('setup-error').classList.add('hidden');
  try {
    const st = await api('POST', '/api/tables', readSetup());
    $('setup').close();
    await leaveOwnTable();
    app.own.add(st.id);
    await openTable(st.id, st);
  } catch (e) {
    $('setup-error').textContent = e.message;
    $('setup-error').classList.remove('hidden');
  }
}

// A new game from this tab ends the previous game this tab started.
async function leaveOwnTable() {
  if (app.table !== null && app.own.has(app.table)) {
    const id = app.table;
    app.own.delete(id);
    try { await api('POST', `/api/tables/${id}/close`, {}); } catch (e) { /* already gone */ }
  }
}

// ---------- records ----------

async function loadFile(file) {
  $('load-error').classList.add('hidden');
  const list = $('load-list');
  list.innerHTML = '';
  let text;
  try {
    text = await file.text();
    const r = await api('POST', '/api/records', { text });
    if (!r.records.length) throw new Error('the file holds no record');
    for (const item of r.records) {
      const li = document.createElement('li');
      if (!item.ok) {
        li.innerHTML = `<span class="error">Record at line ${item.line} cannot be read: ${escapeHtml(item.error)}</span>`;
      } else {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = 'Open';
        b.dataset.index = item.index;
        b.addEventListener('click', () => openRecord(text, item.index));
        li.appendChild(b);
        li.insertAdjacentHTML('beforeend', ` ${escapeHtml(item.variant || '?')}: ${escapeHtml(item.first || '?')} – ${escapeHtml(item.second || '?')}, ${escapeHtml(item.result)}` +
          `${item.termination ? ` (${escapeHtml(item.termination)})` : ''}, ${item.plies} moves` +
          (item.valid ? '' : ` <span class="error">${escapeHtml(item.check || 'invalid')}</span>`));
      }
      list.appendChild(li);
    }
  } catch (e) {
    $('load-error').textContent = e.message;
    $('load-error').classList.remove('hidden');
  }
}

async function openRecord(text, index) {
  try {
    const st = await api('POST', '/api/tables', { review: { text, index } });
    $('load').close();
    await leaveOwnTable();
    app.own.add(st.id);
    await openTable(st.id, st);
    stepTo(0);
  } catch (e) {
    $('load-error').textContent = e.message;
    $('load-error').classList.remove('hidden');
  }
}

async function showWatch() {
  const list = $('watch-list');
  list.innerHTML = '';
  try {
    const r = await api('GET', '/api/tables');
    if (!r.tables.length) list.innerHTML = '<li>No game is open.</li>';
    for (const t of r.tables) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = t.id === app.table ? 'Showing' : 'Watch';
      b.disabled = t.id === app.table;
      b.addEventListener('click', () => { $('watch').close(); openTable(t.id); });
      li.appendChild(b);
      const title = gameOf(t.game).title;
      li.insertAdjacentHTML('beforeend', ` #${t.id} ${escapeHtml(title)}${t.review ? ' (record)' : ''}: ${escapeHtml(t.players[0])} – ${escapeHtml(t.players[1])}, ${t.plies} moves${t.end ? `, ${escapeHtml(t.end.sentence)}` : ''}`);
      list.appendChild(li);
    }
  } catch (e) {
    list.innerHTML = `<li class="error">${escapeHtml(e.message)}</li>`;
  }
  $('watch').showModal();
}


// ---------- analysis ----------

// The rule options of a table as the API takes them.
function rulesOf(state) {
  const r = {};
  for (const [n, v] of state.rules) r[n] = v;
  return r;
}

function scoreText(sc) {
  if (!sc) return '?';
  if (sc.mate !== undefined) return `#${sc.mate}`;
  return `${sc.cp >= 0 ? '+' : ''}${(sc.cp / 100).toFixed(2)}`;
}

function negScore(sc) {
  if (!sc) return sc;
  return sc.mate !== undefined ? { mate: -sc.mate } : { cp: -sc.cp };
}

// A score as centipawns for the bar and the graph: clamped to ±1000, a
// mate at the edge.
function clampScore(sc) {
  if (!sc) return 0;
  if (sc.mate !== undefined) return sc.mate >= 0 ? 1000 : -1000;
  if (sc.end !== undefined) return sc.end * 1000;
  return Math.max(-1000, Math.min(1000, sc.cp));
}

// The squares a move's arrows join: [{from, to}] (a drop has no from).
function moveArrows(mv) {
  if (!mv || mv === 'pass') return [];
  if (mv.includes('@')) return [{ to: mv.split('@')[1] }];
  return mv.split(',').map((part) => {
    const sq = part.match(/[a-z][0-9]+/g) || [];
    return sq.length >= 2 ? { from: sq[0], to: sq[1] } : null;
  }).filter(Boolean);
}

// Starts analysing `pos` ({game, rules, start, moves}).
async function startAnalysis(pos) {
  await closeAnalysisEngine();
  clearSel();
  app.an = { game: pos.game, rules: pos.rules, start: pos.start, moves: pos.moves.slice(), line: (pos.base || pos.moves).slice(), id: null, data: null, view: null, preview: null, error: null, timer: null };
  app.mode = 'analysis';
  document.body.dataset.mode = 'analysis';
  await anFetchView();
  await anOpen();
}

function anPositionBody() {
  const an = app.an;
  const depth = parseInt($('an-depth').value, 10);
  return { start: an.start, moves: an.moves, lines: parseInt($('an-lines-n').value, 10), depth: depth > 0 ? depth : undefined };
}

async function anFetchView() {
  const an = app.an;
  try {
    const r = await api('POST', '/api/positions', { game: an.game, rules: an.rules, start: an.start, moves: an.moves });
    an.view = r.view;
    an.end = r.end;
  } catch (e) {
    an.error = e.message;
  }
  render();
}

// Opens the analysis on the server (its engine starts) and polls it.
async function anOpen() {
  const an = app.an;
  an.error = null;
  an.data = null;
  try {
    const body = { game: an.game, rules: an.rules, ...anPositionBody() };
    const cmd = $('an-command').value.trim();
    if (cmd) body.command = cmd;
    an.data = await api('POST', '/api/analyses', body);
    an.id = an.data.id;
  } catch (e) {
    an.error = e.message;
    an.id = null;
  }
  anPollStart();
  render();
}

function anPollStart() {
  const an = app.an;
  if (an.timer) clearInterval(an.timer);
  an.timer = setInterval(anPoll, 250);
}

async function anPoll() {
  const an = app.an;
  if (!an || an.id === null || app.mode !== 'analysis') return;
  try {
    const d = await api('GET', `/api/analyses/${an.id}`);
    if (app.an !== an || d.id !== an.id) return;
    const changed = !an.data || an.data.updates !== d.updates || an.data.state !== d.state || an.data.generation !== d.generation;
    an.data = d;
    if (changed) render();
  } catch (e) {
    an.error = e.message;
    an.id = null;
    render();
  }
}

// The position changed: the analysis restarts on it.
async function anRestart() {
  const an = app.an;
  an.preview = null;
  await anFetchView();
  if (an.id === null) return anOpen();
  try {
    an.data = await api('POST', `/api/analyses/${an.id}/position`, anPositionBody());
    an.error = null;
  } catch (e) {
    an.error = e.message;
  }
  render();
}

async function closeAnalysisEngine() {
  const an = app.an;
  if (!an) return;
  if (an.timer) clearInterval(an.timer);
  an.timer = null;
  if (an.id !== null) {
    const id = an.id;
    an.id = null;
    try { await api('POST', `/api/analyses/${id}/close`, {}); } catch (e) { /* gone already */ }
  }
}

async function leaveAnalysis() {
  await closeAnalysisEngine();
  app.an = null;
  app.mode = 'game';
  document.body.dataset.mode = 'game';
  render();
}

async function anPreview(line, k) {
  const an = app.an;
  const l = an.data.lines.find((x) => x.multipv === line);
  if (!l) return;
  const pv = l.pv.slice(0, k + 1);
  try {
    const r = await api('POST', '/api/positions', { game: an.game, rules: an.rules, start: an.start, moves: an.moves.concat(pv) });
    an.preview = { line, k, view: r.view, pv };
  } catch (e) {
    showError(e.message);
  }
  render();
}

async function anPlay(line) {
  const an = app.an;
  const l = an.data && an.data.lines.find((x) => x.multipv === line);
  if (!l || !l.pv.length) return;
  an.moves.push(l.pv[0]);
  await anRestart();
}

function renderPlainHands(board, names) {
  const top = $('hand-top'), bottom = $('hand-bottom');
  if (!board.hands) {
    for (const el of [top, bottom]) { el.innerHTML = ''; el.classList.add('hidden'); }
    return;
  }
  const bottomSide = app.flipped ? 1 : 0;
  for (const [el, side] of [[bottom, bottomSide], [top, 1 - bottomSide]]) {
    el.classList.remove('hidden');
    const items = board.hands[side];
    let html = `<span class="who">${escapeHtml(names[side])}'s hand:</span>`;
    if (!items.length) html += '<span class="who">(empty)</span>';
    for (const h of items) {
      const p = { l: h.l, c: side, p: false };
      html += `<span class="hand-piece" data-side="${side}" data-hand="${h.l}"><svg viewBox="${-S / 2} ${-S / 2} ${S} ${S}">${pieceSvg(shownGame(), p, faceUp(side))}</svg>` +
        (h.n > 1 ? `<span class="count">${h.n}</span>` : '') + '</span>';
    }
    el.innerHTML = html;
  }
}

function renderEvalBar(sc) {
  const bar = $('evalbar');
  bar.classList.remove('hidden');
  bar.classList.toggle('flipped', app.flipped);
  const v = clampScore(sc);
  $('evalbar-fill').style.height = `${50 + v / 20}%`;
  $('evalbar-text').textContent = sc ? scoreText(sc) : '';
  bar.dataset.eval = sc ? String(v) : '';
}

function renderAnalysis() {
  const an = app.an;
  const info = gameInfo();
  $('title').textContent = `${info.title} — analysis`;
  $('btn-undo').disabled = true;
  const d = an.data;
  // After a refused position change the lines are the old position's.
  const lines = d && !an.error ? d.lines.slice().sort((a, b) => a.multipv - b.multipv) : [];
  const view = an.preview ? an.preview.view : an.view;
  if (view) {
    const o = { ply: view.ply, position: escapeHtml(view.position) };
    if (view.last) o.last = view.last.squares;
    if (!an.preview) {
      o.arrows = [];
      lines.forEach((l, i) => {
        for (const a of moveArrows(l.pv[0])) {
          o.arrows.push({ ...a, move: l.pv[0], line: l.multipv, width: i === 0 ? 11 : 7, opacity: i === 0 ? 0.85 : Math.max(0.25, 0.6 - 0.1 * i) });
        }
      });
    }
    $('board').innerHTML = boardSvg(view.board, o);
    renderPlainHands(view.board, SIDE_NAMES);
  }
  const first = lines[0];
  const firstView = (sc) => (d && d.side === 'second' ? negScore(sc) : sc);
  renderEvalBar(first ? firstView(first.score) : null);
  const status = $('an-status');
  let text = '';
  status.classList.toggle('failed', !!an.error || (d && d.state === 'failed'));
  if (an.error) text = an.error;
  else if (!d) text = 'Starting…';
  else if (d.state === 'starting') text = `Starting the engine (${d.engine})…`;
  else if (d.state === 'failed') text = `The analysis stopped: ${d.detail}`;
  else if (d.state === 'done') text = `The engine finished its search (${(d.ms / 1000).toFixed(1)} s).`;
  else text = `Thinking for ${d.side === 'first' ? 'the first' : 'the second'} player to move (${(d.ms / 1000).toFixed(1)} s)${d.lines.length < d.multipv && d.lines.length ? `; the engine shows ${d.lines.length} of ${d.multipv} lines` : ''}.`;
  if (d && d.warnings && d.warnings.length) text += ` (${d.warnings.join('; ')})`;
  status.textContent = text;
  status.dataset.state = an.error ? 'error' : d ? d.state : '';
  const box = $('an-lines');
  box.dataset.updates = d ? d.updates : 0;
  box.dataset.generation = d ? d.generation : 0;
  box.innerHTML = lines.map((l) => {
    const pv = l.pv.map((m, k) => {
      const on = an.preview && an.preview.line === l.multipv && an.preview.k === k;
      return `<span class="pvm${on ? ' previewed' : ''}" data-line="${l.multipv}" data-k="${k}">${escapeHtml(m)}</span>`;
    }).join(' ');
    const meta = [l.depth ? `depth ${l.depth}${l.seldepth ? `/${l.seldepth}` : ''}` : '', l.nodes ? `${l.nodes} nodes` : '', l.nps ? `${l.nps} nodes/s` : ''].filter(Boolean).join(' · ');
    return `<li data-line="${l.multipv}" data-depth="${l.depth || ''}"><span class="score" title="from the side to move's view">${scoreText(l.score)}</span> ` +
      `<small>(first player: ${scoreText(firstView(l.score))})</small> <span class="meta">${meta}</span> ` +
      `<button type="button" class="an-play" data-line="${l.multipv}" title="Play this line's first move">play ${escapeHtml(l.pv[0] || '')}</button><div>${pv}</div></li>`;
  }).join('');
  for (const m of box.querySelectorAll('.pvm')) m.addEventListener('click', () => anPreview(parseInt(m.dataset.line, 10), parseInt(m.dataset.k, 10)));
  for (const b of box.querySelectorAll('.an-play')) b.addEventListener('click', () => anPlay(parseInt(b.dataset.line, 10)));
  const pr = $('an-preview');
  pr.classList.toggle('hidden', !an.preview);
  if (an.preview) $('an-preview-text').textContent = `Preview: line ${an.preview.line} after ${an.preview.pv.join(' ')}`;
  $('an-toggle').textContent = an.id === null ? 'Start' : 'Stop';
  $('an-back').disabled = an.moves.length === 0;
  renderAnalysisMoves();
  $('prompt').textContent = an.preview ? 'Previewing a line: the analysis goes on for the position before it.' :
    `Analysing the position after ${an.moves.length} move${an.moves.length === 1 ? '' : 's'}.`;
}

// The line the analysis steps along: the game it started from, until a
// move played in the analysis leaves it; then the moves played.
function analysisLine() {
  const an = app.an;
  const onLine = an.moves.length <= an.line.length && an.moves.every((m, k) => m === an.line[k]);
  if (!onLine) an.line = an.moves.slice();
  return an.line;
}

function renderAnalysisMoves() {
  const an = app.an;
  const line = analysisLine();
  const cur = an.moves.length;
  const item = (ply, text) => `<span class="anm${ply === cur ? ' current' : ''}${ply > cur ? ' future' : ''}" data-ply="${ply}">${escapeHtml(text)}</span>`;
  $('an-moves').innerHTML = [item(0, 'start')].concat(line.map((m, k) => item(k + 1, `${k + 1}. ${m}`))).join(' ');
  for (const el of $('an-moves').querySelectorAll('.anm')) el.addEventListener('click', () => anGoto(parseInt(el.dataset.ply, 10)));
}

// Analyses the position after `ply` moves of the analysis's line.
function anGoto(ply) {
  const an = app.an;
  const line = analysisLine();
  if (ply < 0 || ply > line.length || ply === an.moves.length) return;
  an.moves = line.slice(0, ply);
  anRestart();
}

// ---------- game review ----------

function renderGameReview() {
  const s = app.state;
  const box = $('gamereview');
  if (!s || !(s.end || s.review)) { box.classList.add('hidden'); return; }
  box.classList.remove('hidden');
  const a = s.analysis;
  $('rv-start').disabled = !!(a && a.running);
  $('rv-stop').classList.toggle('hidden', !(a && a.running));
  const prog = $('rv-progress');
  prog.classList.toggle('hidden', !a);
  box.dataset.state = !a ? 'none' : a.running ? 'running' : 'done';
  if (!a) {
    $('rv-status').textContent = 'Run an engine over every position of the game, then see its evaluation graph and the moves that lost the most.';
    $('rv-graph').innerHTML = '';
    $('rv-marks').innerHTML = '';
    $('rv-thresholds').textContent = '';
    return;
  }
  prog.max = a.total;
  prog.value = a.done;
  $('rv-status').textContent = `${a.running ? 'Analysing' : 'Analysed'}: ${a.done} of ${a.total} positions, ${a.limit} each, by ${a.engine}${a.error ? ` — ${a.error}` : ''}.`;
  const t = a.thresholds;
  $('rv-thresholds').textContent = `Marks by the score drop for the side that moved (centipawns, scores clamped to ±${t.clamp}, a mate counting as ${t.clamp}): inaccuracy ${t.inaccuracy}–${t.mistake - 1}, mistake ${t.mistake}–${t.blunder - 1}, blunder ${t.blunder} or more; only where the engine preferred another move. The graph is from the first player's view.`;
  $('rv-graph').innerHTML = reviewGraph(a, s);
  const svg = $('rv-graph').querySelector('svg');
  if (svg) {
    svg.addEventListener('click', (ev) => {
      const r = svg.getBoundingClientRect();
      const n = a.total - 1;
      const ply = Math.round(((ev.clientX - r.left) / r.width * GRAPH.W - GRAPH.pad) / (GRAPH.W - 2 * GRAPH.pad) * n);
      stepTo(Math.max(0, Math.min(n, ply)));
    });
  }
  $('rv-marks').innerHTML = a.marks.map((m) => {
    return `<li class="mark-${m.kind}" data-ply="${m.ply}" data-kind="${m.kind}">${m.ply}. ${escapeHtml(m.played)}: ${m.kind} (−${m.drop})${m.best ? `; the engine preferred <code>${escapeHtml(m.best)}</code>` : ''}</li>`;
  }).join('') || (a.running ? '' : '<li class="none">No move passes a threshold.</li>');
  for (const li of $('rv-marks').querySelectorAll('li[data-ply]')) li.addEventListener('click', () => stepTo(parseInt(li.dataset.ply, 10)));
}

const GRAPH = { W: 400, H: 120, pad: 6 };

// The evaluation graph: one point per position, first player's view.
function reviewGraph(a, s) {
  const { W, H, pad } = GRAPH;
  const n = Math.max(1, a.total - 1);
  const x = (k) => pad + (W - 2 * pad) * k / n;
  const y = (v) => H / 2 - (H / 2 - pad) * v / 1000;
  const parts = [`<rect x="0" y="0" width="${W}" height="${H / 2}" fill="#f7f3ea"/>`, `<rect x="0" y="${H / 2}" width="${W}" height="${H / 2}" fill="#e9e4da"/>`,
    `<line x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}" stroke="#999" stroke-width="0.5"/>`];
  const shown = app.viewPly === null ? s.plies : app.viewPly;
  parts.push(`<line class="cursor" x1="${x(shown)}" y1="0" x2="${x(shown)}" y2="${H}" stroke="#b5542c" stroke-width="1"/>`);
  const pts = [];
  a.points.forEach((p, k) => { if (p && p.eval) pts.push([k, clampScore(p.eval)]); });
  if (pts.length) parts.push(`<polyline points="${pts.map(([k, v]) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}" fill="none" stroke="#2f2a24" stroke-width="1.5"/>`);
  const marks = Object.fromEntries(a.marks.map((m) => [m.ply, m.kind]));
  const colors = { inaccuracy: '#b58a00', mistake: '#d2691e', blunder: '#c0392b' };
  for (const [k, v] of pts) {
    const kind = marks[k];
    parts.push(`<circle class="point${kind ? ' mark' : ''}" data-ply="${k}" data-value="${v}"${kind ? ` data-kind="${kind}"` : ''} cx="${x(k).toFixed(1)}" cy="${y(v).toFixed(1)}" r="${kind ? 4 : 2}" fill="${kind ? colors[kind] : '#2f2a24'}"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" data-points="${pts.length}">${parts.join('')}</svg>`;
}

async function startGameReview() {
  const kind = $('rv-kind').value;
  const value = parseInt($('rv-value').value, 10);
  const body = { [kind]: value };
  const cmd = $('rv-command').value.trim();
  if (cmd) body.command = cmd;
  try {
    accept(await api('POST', `/api/tables/${app.table}/review`, body));
  } catch (e) {
    showError(e.message);
  }
}

// ---------- position editor ----------

// A position string as the editor holds it: the grid (highest rank
// first), the hands (letter -> count per side, null without hands), the
// side to move and the counters after it, kept as written.
function parseEditable(text) {
  const [boardPart, side, ...counters] = text.trim().split(/\s+/);
  const bracket = boardPart.indexOf('[');
  const rows = (bracket >= 0 ? boardPart.slice(0, bracket) : boardPart).split('/');
  const squares = rows.map((row) => {
    const out = [];
    let digits = '';
    let promoted = false;
    const flush = () => { if (digits) { for (let k = 0; k < parseInt(digits, 10); k++) out.push(null); digits = ''; } };
    for (const ch of row) {
      if (/[0-9]/.test(ch)) { digits += ch; continue; }
      flush();
      if (ch === '+') { promoted = true; continue; }
      out.push({ l: ch.toUpperCase(), c: ch === ch.toUpperCase() ? 0 : 1, p: promoted });
      promoted = false;
    }
    flush();
    return out;
  });
  let hands = null;
  if (bracket >= 0) {
    hands = [{}, {}];
    for (const ch of boardPart.slice(bracket + 1, boardPart.indexOf(']'))) {
      if (ch === '-') continue;
      const c = ch === ch.toUpperCase() ? 0 : 1;
      hands[c][ch.toUpperCase()] = (hands[c][ch.toUpperCase()] || 0) + 1;
    }
  }
  return { squares, hands, side: side || 'w', counters: counters.join(' ') };
}

function editableText(ed) {
  const rows = ed.squares.map((row) => {
    let out = '';
    let run = 0;
    for (const p of row) {
      if (!p) { run += 1; continue; }
      if (run) { out += run; run = 0; }
      out += (p.p ? '+' : '') + (p.c === 0 ? p.l : p.l.toLowerCase());
    }
    if (run) out += run;
    return out;
  });
  let text = rows.join('/');
  if (ed.hands) {
    let h = '';
    for (const c of [0, 1]) for (const [l, n] of Object.entries(ed.hands[c])) h += (c === 0 ? l : l.toLowerCase()).repeat(n);
    text += `[${h}]`;
  }
  text += ` ${ed.side}`;
  if (ed.counters) text += ` ${ed.counters}`;
  return text;
}

function edBoard(ed) {
  const files = ed.squares[0].length, ranks = ed.squares.length;
  const hands = ed.hands ? [0, 1].map((c) => Object.entries(ed.hands[c]).filter(([, n]) => n > 0).map(([l, n]) => ({ l, n }))) : null;
  return { files, ranks, squares: ed.squares, hands };
}

async function openEditor(game, text) {
  await closeAnalysisEngine();
  app.an = null;
  clearSel();
  const g = app.games.find((x) => x.name === game) || app.games[0];
  if (!text) text = (await api('POST', '/api/positions', { game: g.name })).position;
  app.ed = { game: g.name, ...parseEditable(text), tool: null, rules: app.ed && app.ed.game === g.name ? app.ed.rules : {}, result: null };
  app.mode = 'editor';
  document.body.dataset.mode = 'editor';
  $('ed-game').value = g.name;
  edBuildControls();
  render();
}

// The pieces the editor places: every letter of the game in both
// colours, promoted where the game promotes it.
function edPieces(game) {
  const info = gameOf(game);
  const out = [];
  for (const c of [0, 1]) {
    for (const f of info.pieces) out.push({ l: f.letter, c, p: false });
    for (const f of info.promoted) out.push({ l: f.letter, c, p: true });
  }
  return out;
}

function edBuildControls() {
  const ed = app.ed;
  const pal = $('ed-palette');
  const pieces = edPieces(ed.game);
  pal.innerHTML = pieces.map((p, i) => `<button type="button" data-i="${i}" data-piece="${(p.p ? '+' : '') + (p.c === 0 ? p.l : p.l.toLowerCase())}" title="${SIDE_NAMES[p.c]}: ${escapeHtml(pieceFacts(gameOf(ed.game), p.l, p.p).name)}">` +
    `<svg viewBox="${-S / 2} ${-S / 2} ${S} ${S}">${pieceSvg(ed.game, p, faceUp(p.c))}</svg></button>`).join('') +
    '<button type="button" data-i="-1" data-piece="" title="Remove pieces">✕ remove</button>';
  for (const b of pal.querySelectorAll('button')) {
    b.addEventListener('click', () => {
      const i = parseInt(b.dataset.i, 10);
      ed.tool = i < 0 ? 'erase' : pieces[i];
      for (const x of pal.querySelectorAll('button')) x.classList.toggle('selected', x === b);
    });
  }
  const hands = $('ed-hands');
  const inHand = gameOf(ed.game).hand;
  hands.innerHTML = ed.hands ? [0, 1].map((c) => `<span>${SIDE_NAMES[c]}'s hand:</span>` + inHand.map(({ letter: l, name }) =>
    `<label>${escapeHtml(name)} <input type="number" min="0" max="40" data-side="${c}" data-hand="${l}" value="${ed.hands[c][l] || 0}"></label>`).join('')).join('<br>') : '';
  for (const inp of hands.querySelectorAll('input')) {
    inp.addEventListener('change', () => {
      ed.hands[parseInt(inp.dataset.side, 10)][inp.dataset.hand] = Math.max(0, parseInt(inp.value, 10) || 0);
      edChanged();
    });
  }
  const g = app.games.find((x) => x.name === ed.game);
  $('ed-rules').innerHTML = g.rules.map((r) => {
    const v = ed.rules[r.name] !== undefined ? ed.rules[r.name] : r.default;
    let input = '';
    if (r.kind === 'check') input = `<input type="checkbox" data-rule="${r.name}"${v === true || v === 'true' ? ' checked' : ''}>`;
    else if (r.kind === 'spin') input = `<input type="number" data-rule="${r.name}" min="${r.min}" max="${r.max}" value="${v}">`;
    else if (r.kind === 'combo') input = `<select data-rule="${r.name}">${r.values.map((x) => `<option${x === v ? ' selected' : ''}>${x}</option>`).join('')}</select>`;
    else input = `<input type="text" data-rule="${r.name}" value="${escapeHtml(v || '')}">`;
    return `<label>${input} ${r.name}</label>`;
  }).join('');
  for (const el of $('ed-rules').querySelectorAll('[data-rule]')) {
    el.addEventListener('change', () => { ed.rules[el.dataset.rule] = el.type === 'checkbox' ? el.checked : el.value; edChanged(); });
  }
  $('ed-side').value = ed.side;
}

function edChanged() {
  app.ed.result = null;
  render();
}

function edClick(name) {
  const ed = app.ed;
  if (!ed.tool) { showError('Choose a piece (or ✕ remove) above the board first.'); return; }
  const { file, rank } = parseSq(name);
  const row = ed.squares.length - 1 - rank;
  const cur = ed.squares[row][file];
  const t = ed.tool;
  const same = cur && t !== 'erase' && cur.l === t.l && cur.c === t.c && cur.p === t.p;
  ed.squares[row][file] = t === 'erase' || same ? null : { l: t.l, c: t.c, p: t.p };
  edChanged();
}

// Asks the rules library about the position: the refusal with its
// reason, or the side to move and the legal moves.
async function edCheck() {
  const ed = app.ed;
  const text = editableText(ed);
  try {
    const r = await api('POST', '/api/positions', { game: ed.game, rules: ed.rules, start: text });
    ed.result = { ok: true, text: `A legal position: ${r.toMove} player to move, ${r.legal.length} legal move${r.legal.length === 1 ? '' : 's'}${r.end ? `; the game is over (${r.end})` : ''}.`, position: r.position };
  } catch (e) {
    ed.result = { ok: false, text: e.message };
  }
  render();
  return ed.result.ok;
}

function renderEditor() {
  const ed = app.ed;
  $('title').textContent = `${gameInfo().title} — position editor`;
  $('btn-undo').disabled = true;
  const text = editableText(ed);
  const board = edBoard(ed);
  $('board').innerHTML = boardSvg(board, { ply: 0, position: escapeHtml(text) });
  for (const g of $('board').querySelectorAll('.sq')) g.addEventListener('click', () => onSquare(g.dataset.square));
  renderPlainHands(board, SIDE_NAMES);
  if (document.activeElement !== $('ed-text')) $('ed-text').value = text;
  const res = $('ed-result');
  res.textContent = ed.result ? ed.result.text : 'Click a piece above, then squares of the board (a second click on the same piece removes it).';
  res.className = ed.result ? (ed.result.ok ? 'accepted' : 'refused') : '';
  res.dataset.state = ed.result ? (ed.result.ok ? 'accepted' : 'refused') : '';
  $('prompt').textContent = '';
}

// Opens the New game dialog set to a game, its rules and a start position.
function setupFrom(game, rules, position) {
  $('setup-game').value = game;
  ruleFields();
  for (const [name, v] of Object.entries(rules)) {
    const el = document.querySelector(`#setup-rules [data-rule="${name}"]`);
    if (!el) continue;
    if (el.type === 'checkbox') el.checked = v === true || v === 'true'; else el.value = v;
  }
  $('setup-startpos').value = position;
  $('setup-error').classList.add('hidden');
  $('setup').showModal();
}

async function edPlay() {
  const ed = app.ed;
  if (!await edCheck()) return;
  setupFrom(ed.game, ed.rules, ed.result.position);
}

async function edAnalyse() {
  const ed = app.ed;
  if (!await edCheck()) return;
  await startAnalysis({ game: ed.game, rules: ed.rules, start: ed.result.position, moves: [] });
}

async function edCopy() {
  const text = editableText(app.ed);
  $('ed-text').value = text;
  try {
    await navigator.clipboard.writeText(text);
    app.ed.result = { ok: true, text: `Copied: ${text}` };
  } catch (e) {
    $('ed-text').select();
    app.ed.result = { ok: true, text: 'Selected above: copy it with Ctrl+C.' };
  }
  render();
}

function leaveEditor() {
  app.ed = null;
  app.mode = 'game';
  document.body.dataset.mode = 'game';
  if (app.state) render();
  else $('board').innerHTML = '';
}

// What the Analyse button analyses: the game's shown position, or the
// start of a game when none is open.
async function analyseShown() {
  const s = app.state;
  if (s) {
    const ply = app.viewPly === null ? s.plies : app.viewPly;
    const all = s.moves.map((m) => m.text);
    await startAnalysis({ game: s.game, rules: rulesOf(s), start: s.start, moves: all.slice(0, ply), base: all });
  } else {
    await startAnalysis({ game: app.games[0].name, rules: {}, start: undefined, moves: [] });
  }
}

// ---------- start ----------

async function init() {
  $('btn-new').addEventListener('click', () => { $('setup-error').classList.add('hidden'); $('setup').showModal(); });
  $('setup-form').addEventListener('submit', startGame);
  $('setup-close').addEventListener('click', () => $('setup').close());
  $('btn-load').addEventListener('click', () => { $('load-list').innerHTML = ''; $('load-file').value = ''; $('load').showModal(); });
  $('load-file').addEventListener('change', (e) => { if (e.target.files[0]) loadFile(e.target.files[0]); });
  $('btn-watch').addEventListener('click', showWatch);
  $('btn-flip').addEventListener('click', () => { app.flipped = !app.flipped; render(); });
  $('btn-undo').addEventListener('click', async () => {
    try { accept(await api('POST', `/api/tables/${app.table}/undo`, {})); } catch (e) { showError(e.message); }
  });
  $('btn-save').addEventListener('click', () => { if (app.table !== null) saveRecord(app.table).catch((e) => showError(e.message)); });
  $('btn-pass').addEventListener('click', () => send('pass'));
  $('btn-cancel').addEventListener('click', () => { clearSel(); render(); });
  $('step-first').addEventListener('click', () => stepTo(0));
  $('step-back').addEventListener('click', () => stepTo(shownPly() - 1));
  $('step-fwd').addEventListener('click', () => stepTo(shownPly() + 1));
  $('step-last').addEventListener('click', () => stepTo(null));
  $('btn-analyse').addEventListener('click', () => (app.mode === 'editor' ? edAnalyse() : analyseShown()).catch((e) => showError(e.message)));
  $('an-close').addEventListener('click', () => leaveAnalysis());
  $('an-playfrom').addEventListener('click', () => { const an = app.an; if (an && an.view) setupFrom(an.game, an.rules, an.view.position); });
  $('an-toggle').addEventListener('click', async () => {
    if (app.an.id === null) await anOpen(); else { await closeAnalysisEngine(); render(); }
  });
  $('an-lines-n').addEventListener('change', () => { if (app.an) anRestart(); });
  $('an-depth').addEventListener('change', () => { if (app.an) anRestart(); });
  $('an-back').addEventListener('click', () => { if (app.an && app.an.moves.length) { app.an.moves.pop(); anRestart(); } });
  $('an-preview-back').addEventListener('click', () => { app.an.preview = null; render(); });
  $('rv-start').addEventListener('click', startGameReview);
  $('rv-stop').addEventListener('click', async () => {
    try { accept(await api('POST', `/api/tables/${app.table}/review/stop`, {})); } catch (e) { showError(e.message); }
  });
  $('btn-editor').addEventListener('click', () => {
    const s = app.state;
    const text = s ? (app.viewPly === null ? s.view.position : app.viewData.position) : null;
    openEditor(s ? s.game : app.games[0].name, text).catch((e) => showError(e.message));
  });
  $('ed-game').addEventListener('change', () => openEditor($('ed-game').value).catch((e) => showError(e.message)));
  $('ed-close').addEventListener('click', leaveEditor);
  $('ed-side').addEventListener('change', () => { app.ed.side = $('ed-side').value; edChanged(); });
  $('ed-apply').addEventListener('click', () => {
    try { Object.assign(app.ed, parseEditable($('ed-text').value)); edBuildControls(); edChanged(); } catch (e) { showError(`not a position string: ${e.message}`); }
  });
  $('ed-clear').addEventListener('click', () => { const ed = app.ed; ed.squares = ed.squares.map((r) => r.map(() => null)); if (ed.hands) ed.hands = [{}, {}]; edBuildControls(); edChanged(); });
  $('ed-reset').addEventListener('click', () => openEditor(app.ed.game).catch((e) => showError(e.message)));
  $('ed-check').addEventListener('click', edCheck);
  $('ed-analyse').addEventListener('click', () => edAnalyse().catch((e) => showError(e.message)));
  $('ed-play').addEventListener('click', () => edPlay().catch((e) => showError(e.message)));
  $('ed-copy').addEventListener('click', edCopy);
  // A closed page's analysis engine is stopped at once (the server also
  // closes an analysis nobody polls).
  window.addEventListener('pagehide', () => {
    if (app.an && app.an.id !== null) {
      fetch(`/api/analyses/${app.an.id}/close`, { method: 'POST', keepalive: true, headers: { 'X-Koma-Secret': SECRET, 'Content-Type': 'application/json' }, body: '{}' });
    }
  });
  document.addEventListener('keydown', (e) => {
    if (document.querySelector('dialog[open]')) return;
    if (app.mode === 'analysis' && app.an && e.target.tagName !== 'INPUT') {
      if (e.key === 'ArrowLeft') anGoto(app.an.moves.length - 1);
      else if (e.key === 'ArrowRight') anGoto(app.an.moves.length + 1);
      return;
    }
    if (app.mode !== 'game' || !app.state) return;
    if (e.key === 'ArrowLeft') $('step-back').click();
    else if (e.key === 'ArrowRight') $('step-fwd').click();
    else if (e.key === 'Escape') { clearSel(); render(); }
  });
  setInterval(renderLive, 100);
  const g = await api('GET', '/api/games');
  app.games = g.games;
  app.engine = g.engine;
  app.levels = g.levels;
  buildSetup();
  $('ed-game').innerHTML = app.games.map((g) => `<option value="${g.name}">${escapeHtml(g.title)}</option>`).join('');
  const m = /table=(\d+)/.exec(location.hash);
  if (m) {
    await openTable(parseInt(m[1], 10));
  } else {
    $('setup').showModal();
  }
}

init().catch((e) => showError(`The page could not start: ${e.message}`));
