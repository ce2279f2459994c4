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

// The legal moves while a person may move in the shown position (in an
// analysis, in the position analysed).
function legal() {
  if (app.mode === 'analysis') {
    const an = app.an;
    return an && !an.preview && !an.end ? an.legal : null;
  }
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
  if (app.mode === 'analysis' && app.an) return app.an.preview ? app.an.preview.view : app.an.view;
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
  if (side !== sideToMove()) return;
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

function sideToMove() {
  if (app.mode === 'analysis') return app.an.toMove === 'first' ? 0 : 1;
  return app.state.toMove === 'first' ? 0 : 1;
}

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
      const bb = legal().bondBoards[first];
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
  if (app.mode === 'analysis') {
    // The server checks it when it sets up the position after it.
    anMove(move);
    return;
  }
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

// Takes an answer about a table, if it still describes the game shown:
// an answer about another table (the one shown before New game or Load
// record, arriving late) or older than the state held is dropped.
function accept(st) {
  if (!st || st.id !== app.table) return;
  const held = app.state;
  if (held && held.id === st.id && st.version < held.version) return;
  // Clocks and thinking alone belong to the version they were read at.
  if (!st.full && (!held || held.id !== st.id || held.version !== st.version)) return;
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
  const id = app.table;
  if (id === null) return;
  const since = app.state && app.state.id === id ? app.state.version : '';
  try {
    accept(await api('GET', `/api/tables/${id}?since=${since}`));
  } catch (e) {
    // A game closed after another was opened says nothing of this one.
    if (id !== app.table) return;
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
  app.stepSeq += 1;
  app.stepTarget = null;
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
  if (app.mode === 'analysis' && app.an) {
    // The graph and the marks stay in view during an analysis: a click
    // there moves the analysis.
    anGoto(ply === null ? analysisLine().length : Math.min(ply, analysisLine().length));
    return;
  }
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
  const id = app.table;
  try {
    const st = await api('GET', `/api/tables/${id}?ply=${ply}`);
    // Only the latest step of the game shown is shown.
    if (seq !== app.stepSeq || id !== app.table) return;
    app.viewPly = ply;
    app.viewData = st.view;
    if (st.view.last && st.view.last.levels.length) startLevelAnimation(st.view);
    render();
  } catch (e) {
    if (id === app.table) showError(e.message);
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
  if (!sel) o.arrows = markArrows(view.ply);
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
  renderEndgame({ game: s.game, rules: rulesOf(s), start: view.position, moves: [] });
  const notes = $('notes');
  notes.innerHTML = (s.notes || []).map((n) => `<li>${escapeHtml(n)}</li>`).join('');
  $('btn-undo').disabled = !s.canUndo || s.closed;
  const refusal = analysisRefusal();
  $('btn-analyse').disabled = !!refusal;
  $('btn-analyse').title = refusal || 'Let an engine think about the position shown, with several lines (x)';
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

// One numbering everywhere on the page, the records': moves numbered in
// pairs, "12." the first player's twelfth move and "12…" the second
// player's reply; a count of single moves says "plies".
function startSideOf(position) { return position.split(' ')[1] === 'b' ? 1 : 0; }

function moveNumber(ply, startSide) {
  const i = ply - 1 + startSide;
  return `${Math.floor(i / 2) + 1}${i % 2 ? '…' : '.'}`;
}

// "12… c5c4": the move that made ply `ply` of the shown game.
function plyName(ply) {
  const s = app.state;
  if (!ply) return 'the start';
  const m = s.moves[ply - 1];
  return `${moveNumber(ply, startSideOf(s.start))} ${m ? m.text : ''}`.trim();
}

// Scrolls a list (positioned, so offsets are from its top) so that `el`
// is in view; the page itself does not move.
function scrollWithin(list, el) {
  if (!el) return;
  const top = el.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + el.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + el.offsetHeight - list.clientHeight;
}

function renderMoves() {
  const s = app.state;
  const list = $('moves');
  const shown = app.viewPly === null ? s.plies : app.viewPly;
  let html = '';
  const startSide = startSideOf(s.start);
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
    html += `<li><span class="num">${number}.</span>${cells.join('')}</li>`;
    number += 1;
  }
  list.innerHTML = html;
  for (const m of list.querySelectorAll('.mv[data-ply]')) {
    m.addEventListener('click', () => stepTo(parseInt(m.dataset.ply, 10)));
  }
  // The list follows the board: the start at the top, else the move shown.
  if (shown === 0) list.scrollTop = 0;
  else scrollWithin(list, list.querySelector('.current'));
  const label = $('step-label');
  label.textContent = `${shown ? plyName(shown) : 'start'} · ply ${shown} of ${s.plies}`;
  label.dataset.ply = shown;
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
  else if (app.viewPly !== null) text = `Showing the position after ${plyName(app.viewPly)}. Press >| (or End) to go back to the game.`;
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
    // No more questions about a game being closed.
    stopPolling();
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
          `${item.termination ? ` (${escapeHtml(item.termination)})` : ''}, ${item.plies} plies` +
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
      li.insertAdjacentHTML('beforeend', ` #${t.id} ${escapeHtml(title)}${t.review ? ' (record)' : ''}: ${escapeHtml(t.players[0])} – ${escapeHtml(t.players[1])}, ${t.plies} plies${t.end ? `, ${escapeHtml(t.end.sentence)}` : ''}`);
      list.appendChild(li);
    }
  } catch (e) {
    list.innerHTML = `<li class="error">${escapeHtml(e.message)}</li>`;
  }
  $('watch').showModal();
}


// ---------- the endgame tables' panel ----------

// The tables' verdict on the position shown and on each of its moves
// (POST /api/endgame), asked again only when the position changes; hidden
// where the game has no tables or the position is not in them.
function verdictText(v) {
  if (!v) return '?';
  if (v.result === 'draw') return 'draw';
  return `${v.result} in ${v.plies}`;
}

function renderEndgame(req) {
  const key = JSON.stringify(req);
  const box = $('endgame');
  if (app.egKey === key) return;
  app.egKey = key;
  box.classList.add('hidden');
  if (!gameOf(req.game).endgame) return;
  api('POST', '/api/endgame', req).then((r) => {
    if (app.egKey !== key) return;
    if (!r.verdict) { box.classList.add('hidden'); return; }
    const rows = r.moves.map((m) => `<li class="eg-${m.verdict ? m.verdict.result : 'unknown'}"><span class="eg-move">${escapeHtml(m.move)}</span> <span class="eg-value">${escapeHtml(verdictText(m.verdict))}</span></li>`).join('');
    box.innerHTML = `<div class="eg-head"><b>Endgame tables</b> <span class="eg-sig">${escapeHtml(r.signature)}</span></div>` +
      `<div class="eg-verdict eg-${r.verdict.result}">Side to move: <b>${escapeHtml(verdictText(r.verdict))}</b></div>` +
      '<div class="eg-note">plies to the next capture or promotion (or the end); each move for the side making it</div>' +
      `<ol id="eg-moves">${rows}</ol>`;
    box.classList.remove('hidden');
  }).catch(() => { if (app.egKey === key) box.classList.add('hidden'); });
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
  app.an = { game: pos.game, rules: pos.rules, start: pos.start, moves: [], id: null, data: null, view: null, preview: null, error: null, timer: null, legal: null, opening: true };
  // The moves as a tree: the game's own line first, the moves tried here
  // as variations beside it.
  const root = anNode(null, null);
  const before = [root];
  for (const m of pos.base || pos.moves) before.push(anChild(before[before.length - 1], m));
  anAddVariations(before, pos.variations || []);
  app.an.root = root;
  // An analysis of a game saves its variations with the game.
  app.an.base = pos.base || null;
  app.an.table = pos.base ? app.table : null;
  anSetNode(anNodeAt(root, pos.moves));
  app.mode = 'analysis';
  document.body.dataset.mode = 'analysis';
  // The game's players, clocks and review stay in view beside an
  // analysis of that game (not of a position from the editor).
  document.body.dataset.anGame = pos.base ? '1' : '';
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
  // Only the latest position asked for is drawn, whatever order the
  // answers come in.
  const seq = (an.viewSeq = (an.viewSeq || 0) + 1);
  try {
    const r = await api('POST', '/api/positions', { game: an.game, rules: an.rules, start: an.start, moves: an.moves });
    if (app.an !== an || seq !== an.viewSeq) return;
    an.view = r.view;
    an.legal = r.choices;
    an.toMove = r.toMove;
    an.end = r.end;
  } catch (e) {
    if (app.an !== an || seq !== an.viewSeq) return;
    an.error = e.message;
  }
  render();
}

// Opens the analysis on the server (its engine starts) and polls it.
async function anOpen() {
  const an = app.an;
  an.error = null;
  an.data = null;
  // Start/Stop waits for the engine's analysis to exist: a click meanwhile
  // would open a second one.
  an.opening = true;
  try {
    const body = { game: an.game, rules: an.rules, ...anPositionBody() };
    const cmd = $('an-command').value.trim();
    if (cmd) body.command = cmd;
    const d = await api('POST', '/api/analyses', body);
    if (app.an !== an) {
      // The page left this analysis while its engine was starting.
      api('POST', `/api/analyses/${d.id}/close`, {}).catch(() => {});
      return;
    }
    an.data = d;
    an.id = d.id;
  } catch (e) {
    if (app.an !== an) return;
    an.error = e.message;
    an.id = null;
  } finally {
    an.opening = false;
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
    // An answer from before the latest position change is the old one's.
    if (app.an !== an || d.id !== an.id || (an.data && d.generation < an.data.generation)) return;
    const changed = !an.data || an.data.updates !== d.updates || an.data.state !== d.state || an.data.generation !== d.generation;
    an.data = d;
    if (changed) render();
  } catch (e) {
    if (app.an !== an) return;
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
    const d = await api('POST', `/api/analyses/${an.id}/position`, anPositionBody());
    if (app.an !== an || (an.data && d.generation < an.data.generation)) return;
    an.data = d;
    an.error = null;
  } catch (e) {
    if (app.an !== an) return;
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
  anMove(l.pv[0]);
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
  // In an analysis a piece in hand is dropped as in a game.
  if (app.mode !== 'analysis') return;
  const lg = legal();
  for (const b of document.querySelectorAll('.hand-piece')) {
    const side = parseInt(b.dataset.side, 10);
    if (lg && side === sideToMove()) b.classList.add('active');
    b.addEventListener('click', () => onHand(side, b.dataset.hand));
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
    const sel = app.sel;
    if (sel && sel.stage === 'dest') { o.selected = sel.from; o.dests = sel.dests; }
    if (sel && (sel.stage === 'bond' || sel.bond)) o.movable = uniq(sel.bond.map((m) => m.steps[1].from)).filter((x) => sel.stage !== 'dest' || x !== sel.from);
    if (sel && sel.stage === 'choice' && sel.target) o.dests = [sel.target];
    if (!an.preview && !sel) {
      o.arrows = [];
      lines.forEach((l, i) => {
        for (const a of moveArrows(l.pv[0])) {
          o.arrows.push({ ...a, move: l.pv[0], line: l.multipv, width: i === 0 ? 11 : 7, opacity: i === 0 ? 0.85 : Math.max(0.25, 0.6 - 0.1 * i) });
        }
      });
    }
    $('board').innerHTML = boardSvg(shownBoard(), o);
    for (const g of $('board').querySelectorAll('.sq')) g.addEventListener('click', () => onSquare(g.dataset.square));
    renderPlainHands(view.board, SIDE_NAMES);
    if (!an.preview) renderEndgame({ game: an.game, rules: an.rules, start: an.start, moves: an.moves });
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
  $('an-toggle').textContent = an.id === null && !an.opening ? 'Start' : 'Stop';
  $('an-toggle').disabled = !!an.opening;
  $('an-back').disabled = an.moves.length === 0;
  renderAnalysisMoves();
  $('prompt').textContent = an.preview ? 'Previewing a line: the analysis goes on for the position before it.' :
    `Analysing the position after ${an.moves.length ? `${moveNumber(an.moves.length, an.start ? startSideOf(an.start) : 0)} ${an.moves[an.moves.length - 1]}` : 'no move'} (ply ${an.moves.length}).`;
}

// ---------- the analysis's tree of moves ----------

let anNodes = 0;

function anNode(parent, move) {
  anNodes += 1;
  return { id: anNodes, parent, move, children: [], ply: parent ? parent.ply + 1 : 0 };
}

// The child of `node` by `move`, made (after the others: a variation)
// when it is new.
function anChild(node, move) {
  let c = node.children.find((x) => x.move === move);
  if (!c) { c = anNode(node, move); node.children.push(c); }
  return c;
}

// The node reached by `moves` from `root` (made where missing).
function anNodeAt(root, moves) {
  let n = root;
  for (const m of moves) n = anChild(n, m);
  return n;
}

function anSetNode(node) {
  const an = app.an;
  an.node = node;
  // No move until the server has said which are legal here.
  an.legal = null;
  const path = [];
  for (let n = node; n.parent; n = n.parent) path.unshift(n.move);
  an.moves = path;
}

function anFind(id, n = app.an.root) {
  if (n.id === id) return n;
  for (const c of n.children) { const f = anFind(id, c); if (f) return f; }
  return null;
}

// The line the arrows step along: the way to the current node, then on
// by each node's first child.
function analysisLineNodes() {
  const out = [];
  for (let n = app.an.node; n; n = n.parent) out.unshift(n);
  for (let n = app.an.node; n.children.length; n = n.children[0]) out.push(n.children[0]);
  return out;
}

function analysisLine() { return analysisLineNodes().slice(1).map((n) => n.move); }

// Analyses the position after `ply` moves of the line shown.
function anGoto(ply) {
  const an = app.an;
  const nodes = analysisLineNodes();
  if (ply < 0 || ply >= nodes.length || nodes[ply] === an.node) return;
  anSetNode(nodes[ply]);
  anRestart();
}

function anGotoNode(node) {
  if (!node || node === app.an.node) return;
  anSetNode(node);
  anRestart();
}

// A move made in the analysis: along the tree where it is there, a new
// variation where it is not.
function anMove(move) {
  const an = app.an;
  an.preview = null;
  const known = an.node.children.some((c) => c.move === move);
  anGotoNode(anChild(an.node, move));
  if (!known) anSaveTree();
}

// ↑ ↓: the variation before or after the current one at its branch.
function anSibling(step) {
  const n = app.an.node;
  if (!n.parent) return;
  const sib = n.parent.children;
  const k = sib.indexOf(n) + step;
  if (k >= 0 && k < sib.length) anGotoNode(sib[k]);
}

// Puts variations (as a record holds them) into the tree: `before[k]` is
// the node before move k of the line they branch from.
function anAddVariations(before, vars) {
  for (const v of vars) {
    if (v.at >= before.length - 1) continue;
    const chain = [before[v.at]];
    for (const m of v.moves) chain.push(anChild(chain[chain.length - 1], m));
    anAddVariations(chain, v.variations || []);
  }
}

// The tree's lines beside the game's moves, as the record keeps them: at
// each move of the game its siblings, each with what follows it (the
// first child on, the others as variations of their own).
function anTreeVariations() {
  const an = app.an;
  const line = (first, at) => {
    const v = { at, moves: [], variations: [] };
    for (let n = first, j = 0; n; n = n.children[0], j++) {
      v.moves.push(n.move);
      for (const o of n.children.slice(1)) v.variations.push(line(o, j + 1));
    }
    return v;
  };
  const out = [];
  let node = an.root;
  for (let k = 0; k < an.base.length && node; k++) {
    const next = node.children.find((c) => c.move === an.base[k]);
    for (const c of node.children) if (c !== next) out.push(line(c, k));
    node = next;
  }
  return out;
}

// Sends the tree's variations to the game's table, so that Save record
// writes them.
async function anSaveTree() {
  const an = app.an;
  if (!an || !an.base || an.table === null || an.table !== app.table) return;
  try {
    accept(await api('POST', `/api/tables/${an.table}/variations`, { variations: anTreeVariations() }));
  } catch (e) {
    showError(`The variations are not saved with the game: ${e.message}`);
  }
}

// Makes the variation the current node is in the main line at its branch.
function anPromote() {
  let n = app.an.node;
  while (n.parent && n.parent.children[0] === n) n = n.parent;
  if (!n.parent) return;
  const sib = n.parent.children;
  sib.splice(sib.indexOf(n), 1);
  sib.unshift(n);
  render();
  anSaveTree();
}

// Deletes the current move and what follows it; the analysis goes back
// to the position before it.
function anDelete() {
  const n = app.an.node;
  if (!n.parent) return;
  const sib = n.parent.children;
  sib.splice(sib.indexOf(n), 1);
  anGotoNode(n.parent);
  anSaveTree();
}

// The tree as a record writes it: the main line, each variation in
// parentheses after the move it replaces.
function anTreeHtml(first) {
  const an = app.an;
  const onPath = new Set();
  for (let n = an.node; n; n = n.parent) onPath.add(n);
  const item = (n, numbered) => {
    const label = numbered || n.ply % 2 === (first ? 0 : 1) ? `${moveNumber(n.ply, first)} ` : '';
    const cls = `anm${n === an.node ? ' current' : ''}${onPath.has(n) ? ' path' : ''}${n.parent.children[0] !== n ? ' varstart' : ''}`;
    return `<span class="${cls}" data-ply="${n.ply}" data-node="${n.id}">${escapeHtml(label + n.move)}</span>`;
  };
  // The line from `n` on: its moves, and after each move the other
  // children of the node before it.
  const line = (n, numbered) => {
    const out = [];
    let number = numbered;
    while (n.children.length) {
      const [main, ...vars] = n.children;
      out.push(item(main, number));
      for (const v of vars) out.push(`<span class="var">(${[item(v, true)].concat(line(v, false)).join(' ')})</span>`);
      // After a variation the main line's next move carries its number.
      number = vars.length > 0;
      n = main;
    }
    return out;
  };
  const start = `<span class="anm${an.node === an.root ? ' current' : ''}" data-ply="0" data-node="${an.root.id}">start</span>`;
  return [start].concat(line(an.root, true)).join(' ');
}

function renderAnalysisMoves() {
  const an = app.an;
  const first = an.start ? startSideOf(an.start) : 0;
  $('an-moves').innerHTML = anTreeHtml(first);
  for (const el of $('an-moves').querySelectorAll('.anm')) el.addEventListener('click', () => anGotoNode(anFind(parseInt(el.dataset.node, 10))));
  const cur = $('an-moves').querySelector('.current');
  scrollWithin($('an-moves'), cur);
  const n = an.node;
  $('an-promote').disabled = !n.parent || analysisLineNodes().every((x) => !x.parent || x.parent.children[0] === x);
  $('an-delete').disabled = !n.parent;
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
  $('rv-next').classList.toggle('hidden', !(a && a.marks.length));
  if (!a) {
    $('rv-status').textContent = 'Run an engine over every position of the game, then see its evaluation graph and the moves that lost the most.';
    for (const id of ['rv-graph', 'rv-marks', 'rv-summary']) $(id).innerHTML = '';
    $('rv-thresholds').textContent = '';
    return;
  }
  prog.max = a.total;
  prog.value = a.done;
  $('rv-status').textContent = `${a.running ? 'Analysing' : 'Analysed'}: ${a.done} of ${a.total} positions, ${a.limit} each, by ${a.engine}${a.error ? ` — ${a.error}` : ''}.`;
  const t = a.thresholds;
  $('rv-thresholds').textContent = `Marks by the score drop for the side that moved (centipawns, scores clamped to ±${t.clamp}, a mate counting as ${t.clamp}): inaccuracy ${t.inaccuracy}–${t.mistake - 1}, mistake ${t.mistake}–${t.blunder - 1}, blunder ${t.blunder} or more; only where the engine preferred another move. The graph is the first player's chance to win (the game's own curve from Koma's match records); accuracy is lichess's, on that curve.`;
  $('rv-graph').innerHTML = reviewGraph(a, s);
  const svg = $('rv-graph').querySelector('svg');
  if (svg) {
    svg.addEventListener('click', (ev) => stepTo(graphPly(svg, ev, a)));
    svg.addEventListener('mousemove', (ev) => graphHover(svg, ev, a));
    svg.addEventListener('mouseleave', () => $('rv-hover').classList.add('hidden'));
  }
  const sum = a.summary || [];
  $('rv-summary').innerHTML = sum.length ? '<tr><th></th><th>inaccuracies</th><th>mistakes</th><th>blunders</th><th>accuracy</th></tr>' + sum.map((p, side) =>
    `<tr data-side="${side}"><td>${swatch(side)}${escapeHtml(s.players[side].name)}</td><td class="mark-inaccuracy">${p.inaccuracies}</td><td class="mark-mistake">${p.mistakes}</td>` +
    `<td class="mark-blunder">${p.blunders}</td><td class="acc" data-accuracy="${p.accuracy === null ? '' : p.accuracy.toFixed(1)}">${p.accuracy === null ? '–' : `${Math.round(p.accuracy)}%`}</td></tr>`).join('') : '';
  $('rv-marks').innerHTML = a.marks.map((m) => {
    return `<li class="mark-${m.kind}" data-ply="${m.ply}" data-kind="${m.kind}">${escapeHtml(moveNumber(m.ply, startSideOf(s.start)))} ${escapeHtml(m.played)}: ${m.kind} (−${m.drop})${m.best ? `; the engine preferred <code>${escapeHtml(m.best)}</code> (the arrow)` : ''}</li>`;
  }).join('') || (a.running ? '' : '<li class="none">No move passes a threshold.</li>');
  for (const li of $('rv-marks').querySelectorAll('li[data-ply]')) li.addEventListener('click', () => stepTo(parseInt(li.dataset.ply, 10)));
}

// The next marked move after the one shown (from the start again after
// the last).
function nextMistake() {
  const a = app.state && app.state.analysis;
  if (!a || !a.marks.length) return;
  const shown = shownPly();
  const next = a.marks.find((m) => m.ply > shown) || a.marks[0];
  stepTo(next.ply);
}

// The engine's preferred move where the move shown was marked: an arrow.
function markArrows(ply) {
  const a = app.state && app.state.analysis;
  const m = a && a.marks.find((x) => x.ply === ply);
  if (!m || !m.best) return [];
  return moveArrows(m.best).map((x) => ({ ...x, move: m.best, line: 'best', width: 9, opacity: 0.8 }));
}

const GRAPH = { W: 600, H: 170, l: 34, r: 8, t: 8, b: 22 };

// The first player's chance to win, 0-100, of a point's score.
function winPercent(a, ev) {
  if (!ev) return null;
  if (ev.mate !== undefined) return ev.mate >= 0 ? 100 : 0;
  if (ev.end !== undefined) return 50 + 50 * ev.end;
  return 100 / (1 + Math.exp(-a.winScale * ev.cp));
}

function graphX(k, n) { return GRAPH.l + (GRAPH.W - GRAPH.l - GRAPH.r) * k / n; }

function graphY(w) { return GRAPH.t + (GRAPH.H - GRAPH.t - GRAPH.b) * (100 - w) / 100; }

// The ply under the mouse.
function graphPly(svg, ev, a) {
  const r = svg.getBoundingClientRect();
  const n = Math.max(1, a.total - 1);
  const x = (ev.clientX - r.left) / r.width * GRAPH.W;
  return Math.max(0, Math.min(n, Math.round((x - GRAPH.l) / (GRAPH.W - GRAPH.l - GRAPH.r) * n)));
}

function evalWords(ev) {
  if (!ev) return 'not searched';
  if (ev.end !== undefined) return ev.end > 0 ? 'first player won' : ev.end < 0 ? 'second player won' : 'drawn';
  return scoreText(ev);
}

function graphHover(svg, ev, a) {
  const ply = graphPly(svg, ev, a);
  const p = a.points[ply];
  const w = p ? winPercent(a, p.eval) : null;
  const tip = $('rv-hover');
  tip.textContent = `${ply ? plyName(ply) : 'start'} (ply ${ply}): ${evalWords(p && p.eval)}${w === null ? '' : `, first player ${Math.round(w)}%`}`;
  tip.dataset.ply = ply;
  tip.classList.remove('hidden');
  const box = $('rv-graph-box').getBoundingClientRect();
  const r = svg.getBoundingClientRect();
  const cx = r.left - box.left + graphX(ply, Math.max(1, a.total - 1)) / GRAPH.W * r.width;
  tip.style.left = `${Math.max(0, Math.min(box.width - tip.offsetWidth, cx - tip.offsetWidth / 2))}px`;
  const cur = svg.querySelector('.hover');
  const x = graphX(ply, Math.max(1, a.total - 1)).toFixed(1);
  cur.setAttribute('x1', x);
  cur.setAttribute('x2', x);
  cur.setAttribute('visibility', 'visible');
}

// The graph: the first player's chance to win at every position, with
// axes (percent; move numbers, a tick per ply).
function reviewGraph(a, s) {
  const { W, H, l, r, t, b } = GRAPH;
  const n = Math.max(1, a.total - 1);
  const x = (k) => graphX(k, n);
  const y = graphY;
  const parts = [`<rect x="${l}" y="${t}" width="${W - l - r}" height="${y(50) - t}" fill="#f7f3ea"/>`,
    `<rect x="${l}" y="${y(50)}" width="${W - l - r}" height="${H - b - y(50)}" fill="#e9e4da"/>`];
  for (const w of [0, 25, 50, 75, 100]) {
    parts.push(`<line x1="${l}" y1="${y(w)}" x2="${W - r}" y2="${y(w)}" stroke="${w === 50 ? '#999' : '#ddd'}" stroke-width="${w === 50 ? 0.8 : 0.5}"/>`);
    parts.push(`<text class="axis" x="${l - 4}" y="${y(w) + 3.5}" text-anchor="end" font-size="10" fill="#7a7064">${w}%</text>`);
  }
  const startSide = startSideOf(s.start);
  const every = Math.max(1, Math.ceil(n / 100));
  const labelEvery = [1, 2, 5, 10, 20, 25, 50, 100].find((m) => n / 2 / m <= 12) || 200;
  for (let k = 1; k <= n; k++) {
    const i = k - 1 + startSide;
    const num = Math.floor(i / 2) + 1;
    const firstOfPair = i % 2 === 0;
    const labelled = firstOfPair && num % labelEvery === 0;
    if (k % every && !labelled) continue;
    parts.push(`<line class="tick" data-ply="${k}" x1="${x(k)}" y1="${H - b}" x2="${x(k)}" y2="${H - b + (labelled ? 5 : 2.5)}" stroke="#8d8273" stroke-width="0.6"/>`);
    if (labelled) parts.push(`<text class="axis" x="${x(k)}" y="${H - 6}" text-anchor="middle" font-size="10" fill="#7a7064">${num}</text>`);
  }
  parts.push(`<line x1="${l}" y1="${H - b}" x2="${W - r}" y2="${H - b}" stroke="#8d8273" stroke-width="0.8"/>`);
  parts.push(`<line x1="${l}" y1="${t}" x2="${l}" y2="${H - b}" stroke="#8d8273" stroke-width="0.8"/>`);
  const shown = app.viewPly === null ? s.plies : app.viewPly;
  parts.push(`<line class="cursor" x1="${x(shown)}" y1="${t}" x2="${x(shown)}" y2="${H - b}" stroke="#b5542c" stroke-width="1.2"/>`);
  parts.push(`<line class="hover" x1="0" y1="${t}" x2="0" y2="${H - b}" stroke="#1f6fb2" stroke-width="1" stroke-dasharray="3 2" visibility="hidden" pointer-events="none"/>`);
  const pts = [];
  a.points.forEach((p, k) => { if (p && p.eval) pts.push([k, winPercent(a, p.eval), clampScore(p.eval)]); });
  if (pts.length) {
    const line = pts.map(([k, w]) => `${x(k).toFixed(1)},${y(w).toFixed(1)}`).join(' ');
    parts.push(`<polygon points="${x(pts[0][0]).toFixed(1)},${y(0)} ${line} ${x(pts[pts.length - 1][0]).toFixed(1)},${y(0)}" fill="rgba(246,242,234,0.9)" stroke="none"/>`);
    parts.push(`<polyline points="${line}" fill="none" stroke="#2f2a24" stroke-width="1.5"/>`);
  }
  const marks = Object.fromEntries(a.marks.map((m) => [m.ply, m.kind]));
  const colors = { inaccuracy: '#b58a00', mistake: '#d2691e', blunder: '#c0392b' };
  for (const [k, w, v] of pts) {
    const kind = marks[k];
    parts.push(`<circle class="point${kind ? ' mark' : ''}" data-ply="${k}" data-value="${v}" data-win="${w.toFixed(1)}"${kind ? ` data-kind="${kind}"` : ''} cx="${x(k).toFixed(1)}" cy="${y(w).toFixed(1)}" r="${kind ? 4 : 1.6}" fill="${kind ? colors[kind] : '#2f2a24'}"/>`);
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
  // The editor's position can always be analysed, whatever game is open.
  $('btn-analyse').disabled = false;
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

// Why the game shown cannot be analysed now, or null: an engine's game
// still on moves by itself (and an analysis beside it would advise a
// player), so analysis waits for its end.
function analysisRefusal() {
  const s = app.state;
  if (!s || s.end || s.review || s.closed) return null;
  if (!s.players.some((p) => p.kind === 'engine')) return null;
  return 'Analysis opens when this game is over: an engine plays in it, and an analysis beside a game on would advise a player.';
}

// What the Analyse button analyses: the game's shown position, or the
// start of a game when none is open.
async function analyseShown() {
  const s = app.state;
  const why = analysisRefusal();
  if (why) { showError(why); return; }
  if (s) {
    const ply = app.viewPly === null ? s.plies : app.viewPly;
    const all = s.moves.map((m) => m.text);
    await startAnalysis({ game: s.game, rules: rulesOf(s), start: s.start, moves: all.slice(0, ply), base: all, variations: s.variations });
  } else {
    await startAnalysis({ game: app.games[0].name, rules: {}, start: undefined, moves: [] });
  }
}

// ---------- keyboard ----------

// The keys, as `?` lists them.
const KEYS = [
  ['← →', 'one move back, one forward'],
  ['Home End', 'the start, the last move'],
  ['f', 'flip the board'],
  ['x', 'analysis on and off (of the position shown)'],
  ['space', 'in analysis: play the best line\'s move'],
  ['n', 'in a review: the next marked move'],
  ['↑ ↓', 'in analysis: the variation before, after'],
  ['Esc', 'cancel the move being made'],
  ['?', 'this list'],
];

function showKeys() {
  $('keys-list').innerHTML = KEYS.map(([k, what]) => `<tr><td><kbd>${escapeHtml(k)}</kbd></td><td>${escapeHtml(what)}</td></tr>`).join('');
  $('keys').showModal();
}

function onKey(e) {
  if (document.querySelector('dialog[open]')) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
  const key = e.key;
  const run = (p) => { if (p && p.catch) p.catch((err) => showError(err.message)); };
  if (key === '?') { showKeys(); return; }
  if (key === 'f') { app.flipped = !app.flipped; render(); return; }
  if (key === 'x') {
    if (app.mode === 'analysis') run(leaveAnalysis());
    else if (app.mode === 'game') run(analyseShown());
    return;
  }
  if (app.mode === 'analysis' && app.an) {
    const an = app.an;
    const steps = { ArrowLeft: an.moves.length - 1, ArrowRight: an.moves.length + 1, Home: 0, End: analysisLine().length };
    if (key in steps) { e.preventDefault(); anGoto(steps[key]); } else if (key === ' ') { e.preventDefault(); run(anPlay(1)); }
    else if (key === 'ArrowUp' || key === 'ArrowDown') { e.preventDefault(); anSibling(key === 'ArrowUp' ? -1 : 1); }
    else if (key === 'Escape') { clearSel(); render(); }
    return;
  }
  if (app.mode !== 'game' || !app.state) return;
  const steps = { ArrowLeft: 'step-back', ArrowRight: 'step-fwd', Home: 'step-first', End: 'step-last' };
  if (key in steps) { e.preventDefault(); $(steps[key]).click(); } else if (key === 'Escape') { clearSel(); render(); } else if (key === 'n') nextMistake();
}

// ---------- start ----------

async function init() {
  $('btn-new').addEventListener('click', () => { $('setup-error').classList.add('hidden'); $('setup').showModal(); });
  $('setup-form').addEventListener('submit', startGame);
  $('setup-close').addEventListener('click', () => $('setup').close());
  $('btn-load').addEventListener('click', () => { $('load-list').innerHTML = ''; $('load-file').value = ''; $('load').showModal(); });
  $('load-file').addEventListener('change', (e) => { if (e.target.files[0]) loadFile(e.target.files[0]); });
  $('btn-watch').addEventListener('click', showWatch);
  $('btn-keys').addEventListener('click', showKeys);
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
  $('an-back').addEventListener('click', () => { if (app.an && app.an.node.parent) anGotoNode(app.an.node.parent); });
  $('an-promote').addEventListener('click', () => { if (app.an) anPromote(); });
  $('an-delete').addEventListener('click', () => { if (app.an) anDelete(); });
  $('an-preview-back').addEventListener('click', () => { app.an.preview = null; render(); });
  $('rv-start').addEventListener('click', startGameReview);
  $('rv-next').addEventListener('click', nextMistake);
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
  document.addEventListener('keydown', onKey);
  $('keys-close').addEventListener('click', () => $('keys').close());
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
