// Browser tests of the Koma board: headless Chromium opens the page and
// plays a complete short game of each of the four games by clicking (a
// River choice, a Bond, a promotion, a drop in a chosen state, a Negaeri
// chain among them; also a declined Bond and a forced Negaeri pass),
// checking the drawn board after every move against the rules library
// (the server's stateless /api/positions, which replays the moves with the
// rules, and `koma`'s own `d` output), and saves screenshots under
// target/browser-shots/ (`bash tools/browser/test.sh --refresh-screenshots`
// copies the docs' screenshots into docs/screenshots/). Then a game against
// the engine (thinking shown, undo), two engines watched from two tabs, a
// crashing and a hanging engine, a saved record loaded back and stepped
// through, analyses (lines, a tree of variations made by clicking), a game
// review (graph, hover, marks, summary), the numbering and the keys, phone
// and tablet viewports, and 20 new games and 10 records opened with 150 ms
// of network latency on every request (none may get stuck).
//
//   bash tools/browser/test.sh      (what CI runs: installs what is missing, builds, runs)
//   node tools/browser/board.test.mjs   (with the release binaries built and npm ci done)
//   (KOMA_BOARD=/path/to/koma-board picks other binaries; koma must sit beside it)
//
// Chromium is found by chromium.mjs. Without it the tests are skipped with
// one line, except in CI (CI or KOMA_CI set), where that is a failure.

import { chromium } from 'playwright-core';
import { findChromium } from './chromium.mjs';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const set = (v) => Boolean(v) && v !== 'false' && v !== '0';
const inCI = set(process.env.CI) || set(process.env.KOMA_CI);
// Every screenshot goes under the build directory, so that running the
// tests leaves the working tree as it was; the docs' screenshots are named as
// the files in docs/screenshots/.
const shots = path.join(root, 'target', 'browser-shots');

const { path: chromiumPath, problem } = findChromium();
if (!chromiumPath) {
  if (inCI) {
    console.error(`browser tests: FAIL: ${problem}; in CI they must run`);
    process.exit(1);
  }
  console.log(`browser tests: SKIPPED (nothing checked in a browser): ${problem}`);
  process.exit(0);
}

const boardBin = process.env.KOMA_BOARD || path.join(root, 'target', 'release', 'koma-board');
const komaBin = path.join(path.dirname(boardBin), 'koma');
for (const b of [boardBin, komaBin]) {
  if (!fs.existsSync(b)) {
    console.error(`FAIL: ${b} is missing: run cargo build --release --bins first (or set KOMA_BOARD=/path/to/koma-board)`);
    process.exit(1);
  }
}

// ---------- the server ----------

function startServer() {
  return new Promise((resolve, reject) => {
    // The endgame tables' folder test.sh writes (made-up values); without
    // it an empty folder, so that the user's own tables never show.
    const tables = process.env.KOMA_BROWSER_TABLES || fs.mkdtempSync(path.join(os.tmpdir(), 'koma-no-tables-'));
    const child = spawn(boardBin, ['--port', '0', '--heartbeat', '300', '--stall-timeout', '1500', '--tables', tables], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${out}`)), 15000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /open (http:\/\/\S+) in a browser/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
    child.stderr.on('data', (d) => process.stderr.write(`[server] ${d}`));
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}: ${out}`)));
  });
}

// ---------- checks ----------

let failures = 0;
const results = [];
// Script errors on any page fail the test that caused them.
const pageErrors = [];

function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}

// JSON with object keys sorted, so equal values print equal.
function canon(v) {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])]));
  return v;
}

function eq(a, b, msg) {
  const ja = JSON.stringify(canon(a)), jb = JSON.stringify(canon(b));
  if (ja !== jb) throw new Error(`${msg}\n  got:      ${ja}\n  expected: ${jb}`);
}

// KOMA_BROWSER_ONLY=<text> runs only the tests whose names contain it.
const only = process.env.KOMA_BROWSER_ONLY || '';

async function test(name, fn) {
  if (only && !name.includes(only)) return;
  const t0 = Date.now();
  try {
    pageErrors.length = 0;
    await fn();
    assert(!pageErrors.length, `no script errors on the page (got: ${pageErrors.join('; ')})`);
    results.push({ name, ok: true });
    console.log(`ok    ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    if (pageErrors.length) e.message += `\n  script errors on the page: ${pageErrors.join('; ')}`;
    failures += 1;
    results.push({ name, ok: false, message: e.message });
    console.error(`FAIL  ${name}\n${e.stack}`);
  }
}

// The board part of a position string, as square -> piece.
function parsePosition(pos) {
  const [boardPart] = pos.split(' ');
  const bracket = boardPart.indexOf('[');
  const ranksText = (bracket >= 0 ? boardPart.slice(0, bracket) : boardPart).split('/');
  const hand = bracket >= 0 ? boardPart.slice(bracket + 1, boardPart.indexOf(']')) : null;
  const squares = {};
  const nranks = ranksText.length;
  ranksText.forEach((row, i) => {
    const rank = nranks - i;
    let file = 0;
    let promoted = false;
    let digits = '';
    const flush = () => { if (digits) { for (let k = 0; k < parseInt(digits, 10); k++) squares[String.fromCharCode(97 + file++) + rank] = null; digits = ''; } };
    for (const ch of row) {
      if (/[0-9]/.test(ch)) { digits += ch; continue; }
      flush();
      if (ch === '+') { promoted = true; continue; }
      const color = ch === ch.toUpperCase() ? 0 : 1;
      squares[String.fromCharCode(97 + file++) + rank] = { l: ch.toUpperCase(), c: color, p: promoted };
      promoted = false;
    }
    flush();
  });
  let hands = null;
  if (hand !== null) {
    hands = [{}, {}];
    for (const ch of hand.replace('-', '')) {
      const c = ch === ch.toUpperCase() ? 0 : 1;
      const l = ch.toUpperCase();
      hands[c][l] = (hands[c][l] || 0) + 1;
    }
  }
  return { squares, hands };
}

// The square drawn at the top left (the board may be flipped).
async function topLeftSquare(page) {
  return page.$$eval('#board g.sq', (gs) => {
    let best = null;
    for (const g of gs) {
      const r = g.getBoundingClientRect();
      if (!best || r.top + r.left < best.k) best = { k: r.top + r.left, sq: g.dataset.square };
    }
    return best.sq;
  });
}

// The server's secret, read from its page as the page's script reads it;
// every API request carries it (the server refuses the others).
let secret = null;

async function readSecret(base) {
  const page = await (await fetch(base)).text();
  const m = /<meta name="koma-secret" content="([0-9a-f]+)">/.exec(page);
  if (!m) throw new Error('the page carries no secret');
  return m[1];
}

async function rulesPosition(base, game, rules, moves, start) {
  const res = await fetch(`${base}api/positions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Koma-Secret': secret },
    body: JSON.stringify({ game, rules, moves, start }),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(`the rules library refused ${moves.join(' ')}: ${data.error}`);
  return data;
}

// The same position from the engine program itself: `koma`'s `d` command
// (a second way into the rules library, not through the board's code).
function komaPosition(game, rules, moves, start) {
  const lines = [`setoption name UCI_Variant value ${game}`];
  for (const [k, v] of Object.entries(rules)) lines.push(`setoption name ${k} value ${v}`);
  lines.push(`position ${start ? `fen ${start}` : 'startpos'}${moves.length ? ` moves ${moves.join(' ')}` : ''}`, 'd', 'quit');
  const r = spawnSync(komaBin, { input: `${lines.join('\n')}\n`, encoding: 'utf8', timeout: 20000 });
  const m = /^Position: (.*)$/m.exec(r.stdout || '');
  if (!m) throw new Error(`koma printed no position for ${lines.join(' | ')}: ${r.stdout} ${r.stderr}`);
  return m[1].trim();
}

async function drawnBoard(page) {
  return page.$$eval('#board g.sq', (gs) => {
    const out = {};
    for (const g of gs) {
      out[g.dataset.square] = g.dataset.piece ? { l: g.dataset.piece, c: parseInt(g.dataset.color, 10), p: g.dataset.promoted === '1' } : null;
    }
    return out;
  });
}

async function drawnHands(page) {
  return page.$$eval('.hand-piece', (bs) => {
    const hands = [{}, {}];
    for (const b of bs) {
      const n = b.querySelector('.count');
      hands[parseInt(b.dataset.side, 10)][b.dataset.hand] = n ? parseInt(n.textContent, 10) : 1;
    }
    return hands;
  });
}

// Waits until the board shows `ply` moves, settled (no flip animation).
async function settled(page, ply) {
  try {
    await page.waitForSelector(`#board svg[data-ply="${ply}"]:not([data-animating])`, { timeout: 20000 });
  } catch (e) {
    const end = await page.textContent('#end').catch(() => '');
    const shown = await page.getAttribute('#board svg', 'data-ply').catch(() => '?');
    throw new Error(`the board never showed ply ${ply} (it shows ply ${shown}; end: ${end || 'none'})`);
  }
}

// The drawn board (and hands) after `moves` must be the rules library's.
async function checkBoard(page, base, game, rules, moves, start) {
  await settled(page, moves.length);
  const want = await rulesPosition(base, game, rules, moves, start);
  eq(komaPosition(game, rules, moves, start), want.position, `koma's d after ${moves.join(' ')}`);
  const drawnPos = await page.getAttribute('#board svg', 'data-position');
  eq(drawnPos, want.position, `position string shown after ${moves.join(' ')}`);
  const expected = parsePosition(want.position);
  eq(await drawnBoard(page), expected.squares, `board drawn after ${moves.join(' ') || 'the start'}`);
  if (expected.hands) eq(await drawnHands(page), expected.hands, `hands drawn after ${moves.join(' ')}`);
  return want;
}

// ---------- the page ----------

// KOMA_BOARD_ASSETS=<dir> serves the page's index.html, board.js and
// board.css from that directory instead of the server's built-in copies
// (the secret written in as the server does): to try a change to the page
// without rebuilding the server, or an older page against this server.
const assetsDir = process.env.KOMA_BOARD_ASSETS || '';

async function newPage(browser, viewport = { width: 1280, height: 880 }, more = {}) {
  const context = await browser.newContext({ viewport, acceptDownloads: true, ...more });
  if (assetsDir) {
    const types = { 'board.js': 'text/javascript', 'board.css': 'text/css', 'index.html': 'text/html' };
    await context.route(/\/(board\.js|board\.css|index\.html)?(#.*)?$/, async (route) => {
      const name = /\/([a-z.]*)(#.*)?$/.exec(new URL(route.request().url()).pathname)[1] || 'index.html';
      const body = fs.readFileSync(path.join(assetsDir, name), 'utf8').replace('{{KOMA_SECRET}}', secret);
      await route.fulfill({ status: 200, contentType: `${types[name]}; charset=utf-8`, body });
    });
  }
  const page = await context.newPage();
  // A wait's limit is a safety net, never what a test measures: on a loaded
  // 2-core machine (CI) a wait beside a running analysis engine took over
  // Playwright's default 30 s once, so every wait without its own limit
  // gets 120 s.
  page.setDefaultTimeout(120000);
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') console.error(`[page] ${m.text()}`); });
  return page;
}

// Every request of the page waits `ms` more, as on a slow network
// (Chromium's own emulation, through the DevTools protocol).
async function slowNetwork(page, ms) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: ms, downloadThroughput: -1, uploadThroughput: -1 });
}

// Fills in the setup dialog and starts the game.
async function setup(page, base, { game, rules = {}, players, maxPlies, start }) {
  await page.goto(base);
  await page.waitForSelector('#setup[open]');
  await page.selectOption('#setup-game', game);
  for (const [name, value] of Object.entries(rules)) {
    const sel = `#setup-rules [data-rule="${name}"]`;
    const type = await page.getAttribute(sel, 'type');
    if (type === 'checkbox') await page.setChecked(sel, value);
    else if (await page.$eval(sel, (e) => e.tagName) === 'SELECT') await page.selectOption(sel, String(value));
    else await page.fill(sel, String(value));
  }
  for (const [side, p] of players.entries()) {
    const fs = `#setup-players .player[data-side="${side}"]`;
    await page.selectOption(`${fs} [name=kind]`, p.kind);
    if (p.name) await page.fill(`${fs} [name=name]`, p.name);
    if (p.command) await page.fill(`${fs} [name=command]`, p.command);
    if (p.level) await page.selectOption(`${fs} [name=level]`, p.level);
    const time = p.time || { mode: 'none' };
    await page.selectOption(`${fs} [name=time]`, time.mode);
    if (time.mode === 'move') await page.fill(`${fs} [name=seconds]`, String(time.seconds));
    if (time.mode === 'clock') {
      await page.fill(`${fs} [name=base]`, String(time.minutes));
      await page.fill(`${fs} [name=inc]`, String(time.inc));
    }
  }
  if (maxPlies !== undefined) await page.fill('#setup-maxplies', String(maxPlies));
  if (start !== undefined) await page.fill('#setup-startpos', start);
  await page.click('#setup-start');
  await page.waitForFunction(() => !document.getElementById('setup').open);
  await page.waitForSelector('#board svg');
  return page.evaluate(() => app.table);
}

const human = { kind: 'human' };

async function clickSquare(page, sq) {
  await page.click(`#board g.sq[data-square="${sq}"]`);
}

async function choiceShown(page) {
  return page.isVisible('#choice');
}

async function choose(page, value, seen, kind) {
  await page.waitForSelector('#choice:not(.hidden)');
  const options = await page.$$eval('#choice-buttons button', (bs) => bs.map((b) => b.dataset.value));
  assert(options.includes(value), `the ${kind} choice offers ${value} (it offers ${options.join(', ')})`);
  seen.push(kind);
  if (seen.shoot) await seen.shoot(kind);
  await page.click(`#choice-buttons button[data-value="${value}"]`);
}

const NANA_HAND = { K: 'K', R: 'R', V: 'R', W: 'R', G: 'R', B: 'B', T: 'B', C: 'B', D: 'B' };

function parseMove(mv) {
  if (mv === 'pass') return { pass: true };
  if (mv.includes('@')) return { drop: mv[0], to: mv.split('@')[1] };
  return {
    steps: mv.split(',').map((s) => {
      const sq = s.replace('+', '').match(/[a-z][0-9]+/g);
      return { from: sq[0], to: sq[1], promote: s.endsWith('+') };
    }),
  };
}

// Makes one movement with the mouse as a person would: the piece, then a
// marked square (for a movement that rests in the River, the marked River
// square it enters by), then whatever the page asks.
async function makeStep(page, game, st, seen) {
  await clickSquare(page, st.from);
  const dests = await page.$$eval('#board g.sq[data-dest]', (gs) => gs.map((g) => g.dataset.square));
  let target = st.to;
  const river = game === 'kaninariebi' && st.to[0] === 'c' && st.from[0] !== 'c';
  if (river) {
    const r = parseInt(st.from.slice(1), 10);
    const entries = [r, r + 1, r - 1].map((k) => `c${k}`).filter((s) => dests.includes(s));
    assert(entries.length, `a River entry is marked for ${st.from}${st.to} (marked: ${dests.join(' ')})`);
    target = entries[0];
  }
  assert(dests.includes(target), `${target} is marked after clicking ${st.from} (marked: ${dests.join(' ')})`);
  await clickSquare(page, target);
  if (river && await choiceShown(page) && await page.$('#choice-buttons button[data-value^="c"]')) {
    await choose(page, st.to, seen, 'river');
  }
  if (await choiceShown(page) && await page.$('#choice-buttons button[data-value="yes"]')) {
    await choose(page, st.promote ? 'yes' : 'no', seen, 'promotion');
  }
}

async function playMove(page, game, mv, seen) {
  const m = parseMove(mv);
  if (m.pass) {
    await page.click('#btn-pass');
    seen.push('pass');
    return;
  }
  if (m.drop) {
    const side = await page.evaluate(() => (app.state.toMove === 'first' ? 0 : 1));
    const hand = game === 'nana' ? NANA_HAND[m.drop] : m.drop;
    await page.click(`.hand-piece[data-side="${side}"][data-hand="${hand}"]`);
    await clickSquare(page, m.to);
    if (await choiceShown(page)) await choose(page, m.drop, seen, 'state');
    return;
  }
  await makeStep(page, game, m.steps[0], seen);
  const noBond = await page.waitForSelector('#btn-nobond', { timeout: 700 }).catch(() => null);
  if (m.steps[1]) {
    assert(noBond, `the Bond is offered after ${mv.split(',')[0]}`);
    seen.push('bond');
    if (seen.shoot) await seen.shoot('bond');
    await makeStep(page, game, m.steps[1], seen);
  } else if (noBond) {
    seen.push('declined bond');
    await page.click('#btn-nobond');
  }
}

// Plays a whole line by clicking, checking the board after every move.
async function playLine(page, base, game, rules, line, opts = {}) {
  const moves = [];
  const seen = [];
  seen.shoot = opts.shoot;
  await checkBoard(page, base, game, rules, moves, opts.start);
  for (const mv of line) {
    const passShown = await page.isVisible('#btn-pass');
    eq(passShown, mv === 'pass', `the Pass button is shown before ${mv} only when passing is the legal move`);
    await playMove(page, game, mv, seen);
    moves.push(mv);
    const want = await checkBoard(page, base, game, rules, moves, opts.start);
    const listed = await page.$$eval('#moves .mv[data-ply]', (ms) => ms.map((m) => m.textContent));
    eq(listed, moves, 'the move list');
    if (opts.after) await opts.after(moves, want);
  }
  return { seen, moves };
}

async function endSentence(page) {
  await page.waitForSelector('#end:not(.hidden) .sentence', { timeout: 30000 });
  return page.textContent('#end .sentence');
}

// ---------- the games ----------

const LINES = Object.fromEntries(
  Object.entries(JSON.parse(fs.readFileSync(path.join(here, 'lines.json'), 'utf8')))
    .filter(([k]) => !k.startsWith('_'))
    .map(([k, v]) => [k, v.split(' ')]),
);

async function main() {
  fs.mkdirSync(shots, { recursive: true });
  const server = await startServer();
  const base = server.url;
  secret = await readSecret(base);
  console.log(`server at ${base}, Chromium ${chromiumPath}`);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let kaniTable = null;
  let kaniSaved = null;
  try {
    await test('the API refuses a request without the page\'s secret', async () => {
      for (const headers of [{}, { 'X-Koma-Secret': '0'.repeat(32) }]) {
        const res = await fetch(`${base}api/games`, { headers });
        eq(res.status, 403, 'no secret, no answer');
        assert((await res.json()).error.includes('X-Koma-Secret'), 'the refusal names the secret');
      }
      eq((await fetch(`${base}api/games`, { headers: { 'X-Koma-Secret': secret } })).status, 200, 'with the secret');
    });

    await test('Kani Nari Ebi: a whole game by clicking, with River choices, Bonds and a promotion', async () => {
      const page = await newPage(browser);
      kaniTable = await setup(page, base, { game: 'kaninariebi', players: [human, human] });
      let shot = false;
      const { seen } = await playLine(page, base, 'kaninariebi', {}, LINES.kaninariebi, {
        shoot: async (kind) => {
          await page.screenshot({ path: path.join(shots, `kaninariebi-${kind}.png`) });
          if (kind === 'river' && !shot) {
            shot = true;
            await page.screenshot({ path: path.join(shots, 'kaninariebi.png') });
          }
        },
      });
      for (const f of ['river', 'bond', 'promotion']) assert(seen.includes(f), `the game had a ${f} (seen: ${seen.join(', ')})`);
      eq(await endSentence(page), 'Human 1 wins by enough captures', 'the end');
      eq(await topLeftSquare(page), 'a5', 'the board draws a5 top left');
      await page.click('#btn-flip');
      eq(await topLeftSquare(page), 'e1', 'a flipped board draws e1 top left');
      await page.screenshot({ path: path.join(shots, 'kaninariebi-end-flipped.png') });
      // Save record: the page fetches the record with its secret and
      // downloads it.
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-save')]);
      eq(download.suggestedFilename(), `koma-kaninariebi-${kaniTable}.pgn`, 'the saved file\'s name');
      kaniSaved = fs.readFileSync(await download.path(), 'utf8');
      await page.context().close();
    });

    await test('Hasami Shogi: a whole game by clicking', async () => {
      const page = await newPage(browser);
      await setup(page, base, { game: 'hasami', rules: { HasamiWin: 'five' }, players: [human, human] });
      await playLine(page, base, 'hasami', { HasamiWin: 'five' }, LINES.hasami);
      eq(await endSentence(page), 'Human 1 wins by enough captures', 'the end');
      await page.screenshot({ path: path.join(shots, 'hasami.png') });
      await page.context().close();
    });

    await test('Nana Shogi: King drops, a cube dropped in a chosen state, King captured', async () => {
      const page = await newPage(browser);
      await setup(page, base, { game: 'nana', players: [human, human] });
      const { seen } = await playLine(page, base, 'nana', {}, LINES.nana, {
        shoot: async (kind) => page.screenshot({ path: path.join(shots, `nana-${kind}.png`) }),
      });
      assert(seen.includes('state'), `a drop asked for the cube's state (seen: ${seen.join(', ')})`);
      eq(await endSentence(page), 'Human 1 wins by King captured', 'the end');
      await page.screenshot({ path: path.join(shots, 'nana.png') });
      await page.context().close();
    });

    await test('Negaeri Shogi: drops, a flip chain shown level by level, King captured', async () => {
      const page = await newPage(browser);
      await setup(page, base, { game: 'negaeri', players: [human, human] });
      let chain = 0;
      await playLine(page, base, 'negaeri', {}, LINES.negaeri, {
        after: async (moves) => {
          const levels = await page.evaluate(() => (app.state.view.last ? app.state.view.last.levels.length : 0));
          if (levels >= 2 && !chain) {
            chain = levels;
            const badges = await page.$$eval('#board g.sq[data-level]', (gs) => gs.map((g) => g.dataset.level));
            assert(badges.includes('2'), `level-2 flips are marked on the board (${badges.join(',')})`);
            const text = await page.textContent('#lastmove .levels');
            assert(/level 1/.test(text) && /level 2/.test(text), `the flips are listed by level: ${text}`);
            await page.screenshot({ path: path.join(shots, 'negaeri.png') });
          }
        },
      });
      assert(chain >= 2, 'a drop flipped a chain of two levels or more');
      eq(await endSentence(page), 'Human 1 wins by King captured', 'the end');
      await page.context().close();
    });

    await test('Kani Nari Ebi: a Bond declined with the button', async () => {
      const page = await newPage(browser);
      await setup(page, base, { game: 'kaninariebi', players: [human, human] });
      // a3d3 offers a Bond (see the whole game above); this time it is declined.
      const { seen } = await playLine(page, base, 'kaninariebi', {}, ['a2d2', 'e1c1', 'a3d3', 'e5d5']);
      eq(seen, ['river', 'declined bond'], 'the choices made (e1c1 rests in the River)');
      await page.context().close();
    });

    await test('Negaeri Shogi: a forced pass with the Pass button, then King captured', async () => {
      const page = await newPage(browser);
      // The first player's pieces are all blocked and its hand is empty.
      const start = 'KP4/PP4/2k3/6/6/6[] w 0 1';
      await setup(page, base, { game: 'negaeri', players: [human, human], start });
      const { seen } = await playLine(page, base, 'negaeri', {}, ['pass', 'c4b5', 'a6b5'], { start });
      assert(seen.includes('pass'), `a pass was made (seen: ${seen.join(', ')})`);
      eq(await endSentence(page), 'Human 1 wins by King captured', 'the end');
      await page.screenshot({ path: path.join(shots, 'negaeri-pass.png') });
      await page.context().close();
    });

    await test('flips are animated level by level', async () => {
      const page = await newPage(browser);
      await setup(page, base, { game: 'negaeri', players: [human, human] });
      // The fifth move, P@b4, flips b3 at level 1 and a2 at level 2.
      const line = LINES.negaeri.slice(0, 5);
      for (const [k, mv] of line.slice(0, 4).entries()) {
        await playMove(page, 'negaeri', mv, []);
        await settled(page, k + 1);
      }
      await playMove(page, 'negaeri', line[4], []);
      // Caught mid-animation: fewer flips drawn than in the end.
      await page.waitForSelector('#board svg[data-animating]', { timeout: 2000 });
      const during = await page.$$eval('#board g.sq[data-level]', (gs) => gs.length);
      await settled(page, 5);
      const after = await page.$$eval('#board g.sq[data-level]', (gs) => gs.length);
      assert(during < after, `the animation shows the flips in turn (${during} then ${after})`);
      await page.context().close();
    });

    await test('against the engine: its thinking is shown, and undo takes back both moves', async () => {
      const page = await newPage(browser);
      await setup(page, base, {
        game: 'hasami',
        players: [human, { kind: 'engine', level: 'hard', time: { mode: 'move', seconds: 1.5 } }],
      });
      await playMove(page, 'hasami', 'e1e5', []);
      await page.waitForSelector('#thinking:not(.hidden)[data-depth]:not([data-depth=""])', { timeout: 10000 });
      const thinking = await page.textContent('#thinking');
      assert(/depth \d+/.test(thinking) && /PV:/.test(thinking), `thinking shows depth and PV: ${thinking}`);
      await page.screenshot({ path: path.join(shots, 'engine.png') });
      await settled(page, 2);
      const plies = await page.evaluate(() => app.state.plies);
      eq(plies, 2, 'the engine answered');
      await page.click('#btn-undo');
      await checkBoard(page, base, 'hasami', {}, []);
      // Play on after the undo: the engine answers again.
      await playMove(page, 'hasami', 'a1a4', []);
      await settled(page, 2);
      await page.context().close();
    });

    await test('two engines play, watched live from a second tab', async () => {
      const page = await newPage(browser);
      const engine = { kind: 'engine', level: 'easy', time: { mode: 'move', seconds: 0.05 } };
      const id = await setup(page, base, { game: 'nana', players: [engine, engine], maxPlies: 40 });
      const watcher = await page.context().newPage();
      await watcher.goto(base);
      await watcher.waitForSelector('#setup[open]');
      await watcher.click('#setup-close');
      await watcher.click('#btn-watch');
      await watcher.click(`#watch-list li:has-text("#${id} ") button`);
      const [a, b] = [await endSentence(page), await endSentence(watcher)];
      eq(a, b, 'both tabs show the same end');
      const ply = await page.evaluate(() => app.state.plies);
      await checkBoard(watcher, base, 'nana', {}, await page.evaluate(() => app.state.moves.map((m) => m.text)));
      assert(ply > 0, 'moves were played');
      await watcher.screenshot({ path: path.join(shots, 'watch.png') });
      await page.context().close();
    });

    await test('an engine that crashes, or hangs, loses and the page says why', async () => {
      for (const [mode, words] of [['crash-mid', 'disconnects'], ['hang', 'stops answering']]) {
        const page = await newPage(browser);
        await setup(page, base, {
          game: 'hasami',
          players: [human, { kind: 'engine', command: `tests/mock/engine.sh ${komaBin} ${mode} 1`, level: 'default', time: { mode: 'move', seconds: 2 } }],
        });
        await playMove(page, 'hasami', 'a1a2', []);
        const s = await endSentence(page);
        assert(s.includes(words), `${mode}: "${s}" says ${words}`);
        const detail = await page.textContent('#end .detail');
        assert(detail.length > 0, `${mode}: a detail is shown`);
        await page.screenshot({ path: path.join(shots, `engine-${mode}.png`) });
        await page.context().close();
      }
    });

    await test('a saved record loads back and steps move by move', async () => {
      assert(kaniTable !== null, 'the Kani Nari Ebi game was played');
      const res = await fetch(`${base}api/tables/${kaniTable}/record`, { headers: { 'X-Koma-Secret': secret } });
      const text = await res.text();
      eq(kaniSaved, text, 'Save record downloads the record');
      assert(/\[Variant "kaninariebi"\]/.test(text) && /\[Termination "enough captures"\]/.test(text), `record:\n${text}`);
      const file = path.join(os.tmpdir(), `koma-board-test-${process.pid}.pgn`);
      fs.writeFileSync(file, text + text.replace('[Event "koma-board game"]', '[Event "second copy"]'));
      const page = await newPage(browser);
      await page.goto(base);
      await page.waitForSelector('#setup[open]');
      await page.click('#setup-close');
      await page.click('#btn-load');
      await page.setInputFiles('#load-file', file);
      await page.waitForSelector('#load-list button[data-index="1"]');
      await page.click('#load-list button[data-index="1"]');
      await page.waitForSelector('#review:not(.hidden)');
      const review = await page.textContent('#review');
      assert(review.includes('valid by the rules') && review.includes('second copy'), review);
      const line = LINES.kaninariebi;
      await checkBoard(page, base, 'kaninariebi', {}, []);
      for (let k = 1; k <= line.length; k++) {
        await page.click('#step-fwd');
        await checkBoard(page, base, 'kaninariebi', {}, line.slice(0, k));
      }
      // Each click once the one before has shown its board: a click while
      // the side panel is being redrawn can land beside the button.
      await page.click('#step-back');
      await settled(page, line.length - 1);
      await page.click('#step-back');
      await checkBoard(page, base, 'kaninariebi', {}, line.slice(0, line.length - 2));
      await page.click('#moves .mv[data-ply="1"]');
      await checkBoard(page, base, 'kaninariebi', {}, line.slice(0, 1));
      await page.screenshot({ path: path.join(shots, 'record.png') });
      fs.rmSync(file);
      await page.context().close();
    });

    await test('analysis: several lines that update, arrows, a previewed line and its first move played', async () => {
      const page = await newPage(browser);
      await setup(page, base, { game: 'hasami', players: [human, human] });
      await page.click('#btn-analyse');
      // Thinking without a limit: three lines, redrawn as they deepen.
      await page.waitForFunction(() => {
        const b = document.getElementById('an-lines');
        return b.querySelectorAll('li').length === 3 && parseInt(b.dataset.updates, 10) >= 2;
      }, null, { timeout: 60000 });
      const snap = await page.evaluate(() => ({
        firsts: [...document.querySelectorAll('#an-lines li')].map((li) => li.querySelector('.pvm[data-k="0"]').textContent),
        arrows: [...document.querySelectorAll('#board .arrow')].map((a) => a.dataset.arrow),
        bar: document.getElementById('evalbar').dataset.eval,
      }));
      eq(snap.arrows, snap.firsts, 'one arrow per line, for its first move');
      assert(new Set(snap.firsts).size === 3, `three different first moves: ${snap.firsts}`);
      assert(snap.bar !== '', 'the evaluation bar shows a score');
      await page.screenshot({ path: path.join(shots, 'analysis.png') });
      // To a fixed depth from here on, so the lines stay put.
      await page.$eval('#an-depth', (e) => { e.value = '4'; e.dispatchEvent(new Event('change')); });
      await page.waitForSelector('#an-status[data-state="done"]', { timeout: 60000 });
      await page.waitForFunction(() => [...document.querySelectorAll('#an-lines li')].every((li) => li.dataset.depth === '4'));
      const pv = await page.$$eval('#an-lines li[data-line="1"] .pvm', (ms) => ms.map((m) => m.textContent));
      assert(pv.length >= 2, `line 1 has two moves or more: ${pv}`);
      await page.click('#an-lines li[data-line="1"] .pvm[data-k="1"]');
      await page.waitForSelector('#an-preview:not(.hidden)');
      const previewed = await rulesPosition(base, 'hasami', {}, pv.slice(0, 2));
      await page.waitForSelector(`#board svg[data-position="${previewed.position}"]`);
      eq(await drawnBoard(page), parsePosition(previewed.position).squares, 'the previewed board');
      await page.click('#an-preview-back');
      const startPos = await rulesPosition(base, 'hasami', {}, []);
      await page.waitForSelector(`#board svg[data-position="${startPos.position}"]`);
      // The line's first move played into the analysis: it restarts there.
      await page.click('#an-lines li[data-line="1"] .an-play');
      const after = await rulesPosition(base, 'hasami', {}, [pv[0]]);
      await page.waitForSelector(`#board svg[data-position="${after.position}"]`);
      await page.waitForSelector('#an-lines[data-generation="3"]');
      await page.waitForSelector('#an-status[data-state="done"]', { timeout: 60000 });
      const firsts = await page.$$eval('#an-lines li .pvm[data-k="0"]', (ms) => ms.map((m) => m.textContent));
      eq(firsts.length, 3, 'three lines in the new position');
      for (const m of firsts) assert(after.legal.includes(m), `${m} is legal after ${pv[0]}`);
      // Stepping along the analysed moves restarts the analysis too.
      await page.click('#an-moves .anm[data-ply="0"]');
      await page.waitForSelector(`#board svg[data-position="${startPos.position}"]`);
      await page.waitForSelector('#an-lines[data-generation="4"]');
      await page.keyboard.press('ArrowRight');
      await page.waitForSelector(`#board svg[data-position="${after.position}"]`);
      await page.waitForSelector('#an-lines[data-generation="5"]');
      // A game can start from the analysed position.
      await page.click('#an-playfrom');
      await page.waitForSelector('#setup[open]');
      eq(await page.inputValue('#setup-startpos'), after.position, 'the New game dialog starts from the analysed position');
      await page.click('#setup-close');
      await page.click('#an-close');
      await page.waitForSelector('#analysis', { state: 'hidden' });
      await page.context().close();
    });

    await test('analysis: an engine that stops answering ends the analysis, and the page says why', async () => {
      const page = await newPage(browser);
      await page.goto(base);
      await page.waitForSelector('#setup[open]');
      await page.click('#setup-close');
      await page.click('#btn-analyse');
      await page.waitForSelector('#analysis', { state: 'visible' });
      await page.click('#an-toggle');
      await page.waitForSelector('#an-toggle:has-text("Start")');
      await page.fill('#an-command', `tests/mock/engine.sh ${komaBin} hang 1`);
      await page.click('#an-toggle');
      await page.waitForSelector('#an-status[data-state="failed"]', { timeout: 30000 });
      const text = await page.textContent('#an-status');
      assert(/stopped answering: no readyok within 1500 ms/.test(text), `the page says why: ${text}`);
      eq(await page.$$eval('#an-lines li', (ls) => ls.length), 0, 'no lines');
      await page.context().close();
    });

    await test('game review: one graph point per ply, the planted blunder marked, saved into the record and shown again', async () => {
      // The prepared record: the Nana line, whose fourth move (c3c2) walks
      // the second player's King into capture.
      const line = LINES.nana;
      const hdr = { 'Content-Type': 'application/json', 'X-Koma-Secret': secret };
      const made = await (await fetch(`${base}api/tables`, { method: 'POST', headers: hdr, body: JSON.stringify({ game: 'nana' }) })).json();
      for (const [k, mv] of line.entries()) {
        await fetch(`${base}api/tables/${made.id}/move`, { method: 'POST', headers: hdr, body: JSON.stringify({ move: mv, ply: k }) });
      }
      const text = await (await fetch(`${base}api/tables/${made.id}/record`, { headers: { 'X-Koma-Secret': secret } })).text();
      const file = path.join(os.tmpdir(), `koma-review-test-${process.pid}.pgn`);
      fs.writeFileSync(file, text);
      const open = async (page, f) => {
        await page.goto(base);
        await page.waitForSelector('#setup[open]');
        await page.click('#setup-close');
        await page.click('#btn-load');
        await page.setInputFiles('#load-file', f);
        await page.click('#load-list button[data-index="0"]');
        await page.waitForSelector('#gamereview:not(.hidden)');
      };
      const page = await newPage(browser);
      await open(page, file);
      await page.fill('#rv-value', '3');
      await page.click('#rv-start');
      await page.waitForSelector('#gamereview[data-state="done"]', { timeout: 60000 });
      const points = await page.getAttribute('#rv-graph svg', 'data-points');
      eq(points, String(line.length + 1), 'one point per position');
      await page.waitForSelector('#rv-marks li[data-ply="4"][data-kind="blunder"]');
      const thresholds = await page.textContent('#rv-thresholds');
      assert(/blunder 300 or more/.test(thresholds), `the thresholds are stated: ${thresholds}`);
      await page.click('#rv-marks li[data-ply="4"]');
      await checkBoard(page, base, 'nana', {}, line.slice(0, 4));
      // At the mark, the engine's preferred move is an arrow.
      const best = await page.evaluate(() => app.state.analysis.marks.find((m) => m.ply === 4).best);
      assert(best, 'the blunder has a preferred move');
      await page.waitForSelector(`#board .arrow[data-line="best"][data-arrow="${best}"]`, { state: 'attached' });
      // Per player: the marks counted and an accuracy figure.
      const summary = await page.$$eval('#rv-summary tr[data-side]', (rows) => rows.map((r) => ({
        blunders: r.querySelector('.mark-blunder').textContent, accuracy: r.querySelector('.acc').dataset.accuracy })));
      eq(summary.map((r) => r.blunders), ['0', '1'], 'the second player made the blunder');
      const acc = summary.map((r) => parseFloat(r.accuracy));
      assert(acc.every((x) => x >= 0 && x <= 100) && acc[1] < acc[0], `the blunderer is less accurate: ${acc}`);
      // Hovering the graph names the ply, its move and its score; a click
      // jumps there without moving the page.
      const g = await page.$('#rv-graph svg');
      const box = await g.boundingBox();
      const at = async (ply) => {
        const x = await page.evaluate((k) => graphX(k, app.state.analysis.total - 1) / GRAPH.W, ply);
        return { x: box.x + x * box.width, y: box.y + box.height / 2 };
      };
      const p2 = await at(2);
      await page.mouse.move(p2.x, p2.y);
      await page.waitForSelector('#rv-hover:not(.hidden)[data-ply="2"]');
      const hover = await page.textContent('#rv-hover');
      assert(hover.startsWith(`1… ${line[1]} (ply 2)`), `the hover names the ply and its move: ${hover}`);
      assert(/first player \d+%/.test(hover), `and the chances: ${hover}`);
      await page.evaluate(() => { document.body.style.minHeight = '3000px'; window.scrollTo(0, 40); });
      const y0 = await page.evaluate(() => window.scrollY);
      const g2 = await (await page.$('#rv-graph svg')).boundingBox();
      await page.mouse.click(p2.x, g2.y + g2.height / 2);
      await checkBoard(page, base, 'nana', {}, line.slice(0, 2));
      eq(await page.evaluate(() => window.scrollY), y0, 'the page did not scroll');
      await page.click('#moves .mv[data-ply="3"]');
      await checkBoard(page, base, 'nana', {}, line.slice(0, 3));
      eq(await page.evaluate(() => window.scrollY), y0, 'nor on a click on a move');
      // Next mistake: from here, the blunder.
      await page.click('#rv-next');
      await checkBoard(page, base, 'nana', {}, line.slice(0, 4));
      await page.evaluate(() => { window.scrollTo(0, 0); document.body.style.minHeight = ''; });
      await page.mouse.move(p2.x, p2.y);
      await page.waitForSelector('#rv-hover:not(.hidden)');
      await page.screenshot({ path: path.join(shots, 'review.png') });
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-save')]);
      const saved = fs.readFileSync(await download.path(), 'utf8');
      assert(/\[Analysis "/.test(saved) && /\[AnalysisLimit "depth 3"\]/.test(saved), `the review is in the record:\n${saved}`);
      assert(/\[AnalysisEngine "Koma [^"/]*"\]/.test(saved), `the engine by its id name, no path:\n${saved}`);
      await page.context().close();
      const savedFile = `${file}.reviewed.pgn`;
      fs.writeFileSync(savedFile, saved);
      const again = await newPage(browser);
      await open(again, savedFile);
      await again.waitForSelector('#gamereview[data-state="done"]');
      eq(await again.getAttribute('#rv-graph svg', 'data-points'), String(line.length + 1), 'the graph is shown again on load');
      await again.waitForSelector('#rv-marks li[data-ply="4"][data-kind="blunder"]');
      fs.rmSync(file);
      fs.rmSync(savedFile);
      await again.context().close();
    });

    await test('numbers: the records\' numbering everywhere, three-digit move numbers, a list that follows the board, the keys', async () => {
      // A long Hasami game between people, by random legal moves: a
      // record of more than 100 moves (200 plies).
      const hdr = { 'Content-Type': 'application/json', 'X-Koma-Secret': secret };
      let text = null;
      let seed = 7;
      const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
      for (let attempt = 0; attempt < 20 && !text; attempt++) {
        let st = await (await fetch(`${base}api/tables`, { method: 'POST', headers: hdr, body: JSON.stringify({ game: 'hasami', maxPlies: 0 }) })).json();
        while (!st.end && st.plies < 205) {
          const moves = st.legal.moves;
          st = await (await fetch(`${base}api/tables/${st.id}/move`, { method: 'POST', headers: hdr, body: JSON.stringify({ move: moves[rand(moves.length)].t, ply: st.plies }) })).json();
        }
        if (st.plies >= 205) text = await (await fetch(`${base}api/tables/${st.id}/record`, { headers: { 'X-Koma-Secret': secret } })).text();
        await fetch(`${base}api/tables/${st.id}/close`, { method: 'POST', headers: hdr, body: '{}' });
      }
      assert(text, 'a random game reached 205 plies');
      const file = path.join(os.tmpdir(), `koma-numbers-test-${process.pid}.pgn`);
      fs.writeFileSync(file, text);
      const page = await newPage(browser);
      await page.goto(base);
      await page.waitForSelector('#setup[open]');
      await page.click('#setup-close');
      await page.click('#btn-load');
      await page.setInputFiles('#load-file', file);
      await page.click('#load-list button[data-index="0"]');
      await settled(page, 0);
      const nums = await page.$$eval('#moves li .num', (ns) => ns.map((n) => n.textContent));
      eq(nums.length, 103, 'one row per move pair');
      nums.forEach((n, k) => eq(n, `${k + 1}.`, `row ${k + 1}'s number`));
      const num100 = await page.$eval('#moves .mv[data-ply="199"]', (m) => m.parentElement.querySelector('.num').textContent);
      eq(num100, '100.', 'ply 199 is the first player\'s 100th move');
      // The list opens at the start, as the board does.
      eq(await page.$eval('#moves', (l) => l.scrollTop), 0, 'the list is at its top');
      assert((await page.textContent('#step-label')).startsWith('start · ply 0 of 205'), await page.textContent('#step-label'));
      // End, Home: the last move, the start; the list follows.
      await page.keyboard.press('End');
      await settled(page, 205);
      const label = await page.textContent('#step-label');
      const moves = await page.evaluate(() => app.state.moves.map((m) => m.text));
      eq(label, `103. ${moves[204]} · ply 205 of 205`, 'the label names the move');
      const inView = () => page.$eval('#moves', (l) => {
        const c = l.querySelector('.current').getBoundingClientRect();
        const r = l.getBoundingClientRect();
        return c.top >= r.top - 1 && c.bottom <= r.bottom + 1;
      });
      assert(await inView(), 'the last move is in view in the list');
      await page.keyboard.press('Home');
      await settled(page, 0);
      eq(await page.$eval('#moves', (l) => l.scrollTop), 0, 'back at the list\'s top');
      await page.keyboard.press('ArrowRight');
      await settled(page, 1);
      eq(await page.textContent('#step-label'), `1. ${moves[0]} · ply 1 of 205`, 'ply 1');
      await page.keyboard.press('ArrowRight');
      await settled(page, 2);
      eq(await page.textContent('#step-label'), `1… ${moves[1]} · ply 2 of 205`, 'the reply is 1…');
      // f flips the board.
      eq(await topLeftSquare(page), 'a9', 'a9 top left');
      await page.keyboard.press('f');
      eq(await topLeftSquare(page), 'i1', 'flipped by f');
      await page.keyboard.press('f');
      // ? lists the keys.
      await page.keyboard.press('?');
      await page.waitForSelector('#keys[open]');
      const keys = await page.textContent('#keys-list');
      for (const k of ['Home End', 'f', 'x', 'space', '?']) assert(keys.includes(k), `the list names ${k}: ${keys}`);
      await page.click('#keys-close');
      // x: analysis on (the players and the record's graph stay), and off.
      await page.keyboard.press('x');
      await page.waitForSelector('#an-lines li', { timeout: 60000 });
      assert(await page.isVisible('#players'), 'the players stay in view in analysis');
      assert(await page.isVisible('#gamereview'), 'the review stays in view in analysis');
      eq(await page.getAttribute('#board svg', 'data-ply'), '2', 'the analysis is of the position shown');
      // Space plays the best line's move.
      const bestMove = await page.$eval('#an-lines li[data-line="1"] .pvm[data-k="0"]', (m) => m.textContent);
      await page.keyboard.press(' ');
      const after = await rulesPosition(base, 'hasami', {}, moves.slice(0, 2).concat([bestMove]));
      await page.waitForSelector(`#board svg[data-position="${after.position}"]`);
      await page.keyboard.press('x');
      await page.waitForSelector('#analysis', { state: 'hidden' });
      fs.rmSync(file);
      await page.context().close();
    });

    await test('exploration: moves clicked in an analysis make a variation tree to step through, promote and delete', async () => {
      const page = await newPage(browser);
      await setup(page, base, { game: 'hasami', players: [human, human] });
      await playLine(page, base, 'hasami', {}, ['a1a2', 'b9b2']);
      await page.keyboard.press('ArrowLeft');
      await settled(page, 1);
      await page.keyboard.press('x');
      await page.waitForSelector('#analysis', { state: 'visible' });
      const pos = async (moves) => (await rulesPosition(base, 'hasami', {}, moves)).position;
      const shows = async (moves) => page.waitForSelector(`#board svg[data-position="${await pos(moves)}"]`);
      await shows(['a1a2']);
      await page.waitForFunction(() => app.an && app.an.legal);
      // A move of our own, checked by the server: a variation beside b9b2.
      await makeStep(page, 'hasami', { from: 'c9', to: 'c5' }, []);
      await shows(['a1a2', 'c9c5']);
      const tree = () => page.$eval('#an-moves', (e) => e.textContent.replace(/\s+/g, ' ').trim());
      eq(await tree(), 'start 1. a1a2 b9b2 (1… c9c5)', 'the tree');
      eq(await page.textContent('#an-moves .anm.current'), '1… c9c5', 'the variation\'s move is the current one');
      // ↑ ↓ between the variations; ← → along the one shown.
      await page.keyboard.press('ArrowUp');
      await shows(['a1a2', 'b9b2']);
      await page.keyboard.press('ArrowDown');
      await shows(['a1a2', 'c9c5']);
      await page.keyboard.press('ArrowLeft');
      await shows(['a1a2']);
      await page.keyboard.press('ArrowRight');
      await shows(['a1a2', 'b9b2']);
      // A move on from the variation, then it is promoted to the main line.
      await page.click('#an-moves .anm[data-ply="2"].varstart');
      await shows(['a1a2', 'c9c5']);
      await page.waitForFunction(() => app.an && app.an.legal);
      await makeStep(page, 'hasami', { from: 'b1', to: 'b5' }, []);
      await shows(['a1a2', 'c9c5', 'b1b5']);
      eq(await tree(), 'start 1. a1a2 b9b2 (1… c9c5 2. b1b5)', 'the variation goes on');
      await page.waitForFunction(() => document.querySelectorAll('#an-lines li').length === 3, null, { timeout: 60000 });
      await page.screenshot({ path: path.join(shots, 'analysis-variations.png') });
      // Saved with the game: its record carries the variation, and the
      // record loaded again shows it in its analysis.
      const id = await page.evaluate(() => app.table);
      await page.waitForFunction(() => app.state.variations.length === 1 && app.state.variations[0].moves.length === 2);
      const text = await (await fetch(`${base}api/tables/${id}/record`, { headers: { 'X-Koma-Secret': secret } })).text();
      assert(/1\. a1a2( \{[^}]*\})? b9b2( \{[^}]*\})? \(1\.\.\. c9c5 2\. b1b5\) \*/.test(text), `the record has the variation:\n${text}`);
      const file = path.join(os.tmpdir(), `koma-variations-test-${process.pid}.pgn`);
      fs.writeFileSync(file, text);
      const again = await newPage(browser);
      await again.goto(base);
      await again.waitForSelector('#setup[open]');
      await again.click('#setup-close');
      await again.click('#btn-load');
      await again.setInputFiles('#load-file', file);
      await again.click('#load-list button[data-index="0"]');
      await settled(again, 0);
      await again.keyboard.press('x');
      await again.waitForSelector('#analysis', { state: 'visible' });
      await again.waitForFunction(() => document.getElementById('an-moves').textContent.includes('c9c5'));
      eq(await again.$eval('#an-moves', (e) => e.textContent.replace(/\s+/g, ' ').trim()), 'start 1. a1a2 b9b2 (1… c9c5 2. b1b5)', 'the loaded tree');
      fs.rmSync(file);
      await again.context().close();
      await page.click('#an-promote');
      await page.waitForFunction(() => document.getElementById('an-moves').textContent.includes('(1… b9b2)'));
      eq(await tree(), 'start 1. a1a2 c9c5 (1… b9b2) 2. b1b5', 'promoted to the main line');
      // Deleted from c9c5 on: back at a1a2, the game's own line alone.
      await page.click('#an-moves .anm[data-ply="2"]:not(.varstart)');
      await shows(['a1a2', 'c9c5']);
      await page.click('#an-delete');
      await shows(['a1a2']);
      eq(await tree(), 'start 1. a1a2 b9b2', 'deleted');
      await page.context().close();
    });

    await test('analysis waits for the end of a game an engine plays in, and says why', async () => {
      const page = await newPage(browser);
      await setup(page, base, { game: 'nana', players: [human, { kind: 'engine', level: 'easy', time: { mode: 'move', seconds: 0.1 } }] });
      assert(await page.isDisabled('#btn-analyse'), 'Analyse is off during the game');
      assert((await page.getAttribute('#btn-analyse', 'title')).includes('when this game is over'), 'its title says why');
      await page.keyboard.press('x');
      await page.waitForSelector('#error:not(.hidden)');
      assert((await page.textContent('#error')).includes('when this game is over'), 'x says why too');
      eq(await page.evaluate(() => app.mode), 'game', 'no analysis');
      await page.context().close();
    });

    for (const [name, viewport] of [['phone', { width: 390, height: 844 }], ['tablet', { width: 768, height: 1024 }]]) {
      await test(`${name} (${viewport.width}x${viewport.height}): the 9x9 board fits, every control is in reach, tapping plays`, async () => {
        const page = await newPage(browser, viewport, { hasTouch: true, isMobile: true });
        await setup(page, base, { game: 'hasami', players: [human, human] });
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert(width <= viewport.width, `no horizontal scrolling: the page is ${width} px wide`);
        const b = await (await page.$('#board svg')).boundingBox();
        assert(b.x >= 0 && b.x + b.width <= viewport.width, `the board (${b.x}..${b.x + b.width}) fits ${viewport.width} px`);
        for (const id of await page.$$eval('header button, #steps button', (bs) => bs.map((x) => x.id))) {
          const r = await (await page.$(`#${id}`)).boundingBox();
          assert(r && r.x >= 0 && r.x + r.width <= viewport.width, `#${id} is within the width`);
        }
        const header = await (await page.$('header')).boundingBox();
        assert(header.height <= 90, `the header takes ${header.height} px`);
        await page.tap('#board g.sq[data-square="a1"]');
        await page.tap('#board g.sq[data-square="a2"]');
        await settled(page, 1);
        eq(await page.evaluate(() => app.state.moves.map((m) => m.text)), ['a1a2'], 'a tap, a tap: a move');
        await page.screenshot({ path: path.join(shots, `${name}.png`) });
        await page.context().close();
      });
    }

    await test('with 150 ms on every request, 20 new games and 10 loaded records: none stuck', async () => {
      // A late answer about the game shown before must not touch the one
      // shown now (issue 55: one turned polling off for good).
      const page = await newPage(browser);
      await slowNetwork(page, 150);
      const engineFirst = { kind: 'engine', level: 'normal', time: { mode: 'move', seconds: 0.05 } };
      await setup(page, base, { game: 'nana', players: [engineFirst, human] });
      // A game is not stuck when its engine's first move reaches the page
      // (the page must show another table than `before` first).
      const moved = (before) => page.waitForFunction((b) => app.table !== b && app.state && app.state.id === app.table &&
        app.state.plies >= 1 && document.querySelector('#board svg').dataset.ply !== '0', before, { timeout: 20000 });
      let stuck = 0;
      await moved(null);
      for (let k = 0; k < 20; k++) {
        const before = await page.evaluate(() => app.table);
        await page.click('#btn-new');
        await page.waitForSelector('#setup[open]');
        await page.click('#setup-start');
        await page.waitForFunction(() => !document.getElementById('setup').open);
        if (!await moved(before).then(() => true, () => false)) stuck += 1;
      }
      // Records: each loaded, then reviewed; stuck when the review's end
      // never reaches the page.
      const hdr = { 'Content-Type': 'application/json', 'X-Koma-Secret': secret };
      const made = await (await fetch(`${base}api/tables`, { method: 'POST', headers: hdr, body: JSON.stringify({ game: 'nana' }) })).json();
      for (const [k, mv] of LINES.nana.entries()) {
        await fetch(`${base}api/tables/${made.id}/move`, { method: 'POST', headers: hdr, body: JSON.stringify({ move: mv, ply: k }) });
      }
      const text = await (await fetch(`${base}api/tables/${made.id}/record`, { headers: { 'X-Koma-Secret': secret } })).text();
      await fetch(`${base}api/tables/${made.id}/close`, { method: 'POST', headers: hdr, body: '{}' });
      const file = path.join(os.tmpdir(), `koma-latency-test-${process.pid}.pgn`);
      fs.writeFileSync(file, text);
      let stuckRecords = 0;
      for (let k = 0; k < 10; k++) {
        const before = await page.evaluate(() => app.table);
        await page.click('#btn-load');
        await page.setInputFiles('#load-file', file);
        await page.click('#load-list button[data-index="0"]');
        await page.waitForFunction(() => !document.getElementById('load').open);
        const reviewed = await page.waitForFunction((b) => app.table !== b && app.state && app.state.id === app.table && app.state.review &&
          document.querySelector('#board svg').dataset.ply === '0', before, { timeout: 20000 })
          .then(async () => {
            await page.fill('#rv-value', '1');
            await page.click('#rv-start');
            await page.waitForFunction(() => app.state && app.state.id === app.table && app.state.analysis && !app.state.analysis.running &&
              document.getElementById('gamereview').dataset.state === 'done', null, { timeout: 20000 });
            return true;
          }, () => false).catch(() => false);
        if (!reviewed) {
          stuckRecords += 1;
          console.log(`      stuck record ${k}: ${await page.evaluate(() => JSON.stringify({ table: app.table, shown: app.state && app.state.id,
            review: app.state && app.state.analysis && { running: app.state.analysis.running, done: app.state.analysis.done, error: app.state.analysis.error },
            polling: app.pollTimer !== null, error: document.getElementById('error').textContent }))}`);
        }
      }
      fs.rmSync(file);
      console.log(`      latency 150 ms: ${stuck} of 20 new games stuck, ${stuckRecords} of 10 records stuck`);
      eq([stuck, stuckRecords], [0, 0], 'games and records stuck');
      await page.context().close();
    });

    await test('the endgame tables\' panel shows the verdict on the position and each move', async () => {
      const dir = process.env.KOMA_BROWSER_TABLES;
      if (!dir) { console.log('endgame panel: SKIPPED (KOMA_BROWSER_TABLES not set: run tools/browser/test.sh)'); return; }
      const start = fs.readFileSync(path.join(dir, 'position.txt'), 'utf8').trim();
      const page = await newPage(browser);
      await setup(page, base, { game: 'kaninariebi', players: [human, human], start });
      await page.waitForSelector('#endgame:not(.hidden) #eg-moves li');
      const res = await fetch(`${base}api/endgame`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Koma-Secret': secret }, body: JSON.stringify({ game: 'kaninariebi', start }) });
      const want = await res.json();
      assert(want.verdict, `the position is in the tables: ${JSON.stringify(want)}`);
      const text = (v) => (v.result === 'draw' ? 'draw' : `${v.result} in ${v.plies}`);
      eq(await page.textContent('#endgame .eg-verdict b'), text(want.verdict), 'the verdict shown');
      const shown = await page.$$eval('#eg-moves li', (lis) => lis.map((li) => [li.querySelector('.eg-move').textContent, li.querySelector('.eg-value').textContent]));
      eq(shown, want.moves.map((m) => [m.move, text(m.verdict)]), 'every move with its verdict, best first');
      await page.screenshot({ path: path.join(shots, 'endgame.png') });
      // A game of a game without tables shows no panel.
      const other = await newPage(browser);
      await setup(other, base, { game: 'hasami', players: [human, human] });
      assert(await other.$eval('#endgame', (e) => e.classList.contains('hidden')), 'no panel for Hasami Shogi');
      await other.context().close();
      await page.context().close();
    });

    await test('position editor: an impossible position refused with the rules\' reason, a legal one played', async () => {
      const page = await newPage(browser);
      await page.goto(base);
      await page.waitForSelector('#setup[open]');
      await page.click('#setup-close');
      await page.click('#btn-editor');
      await page.waitForSelector('#editor', { state: 'visible' });
      await page.selectOption('#ed-game', 'negaeri');
      await page.waitForSelector('#ed-palette button[data-piece="K"]');
      await page.click('#ed-clear');
      await page.click('#ed-palette button[data-piece="K"]');
      await clickSquare(page, 'a1');
      await clickSquare(page, 'b1');
      await page.click('#ed-palette button[data-piece="k"]');
      await clickSquare(page, 'f6');
      await page.click('#ed-check');
      await page.waitForSelector('#ed-result[data-state="refused"]');
      const bad = await page.getAttribute('#board svg', 'data-position');
      const res = await fetch(`${base}api/positions`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Koma-Secret': secret }, body: JSON.stringify({ game: 'negaeri', start: bad }) });
      eq(res.status, 400, `the rules library refuses ${bad}`);
      eq(await page.textContent('#ed-result'), (await res.json()).error, 'the page shows the rules\' reason');
      await page.screenshot({ path: path.join(shots, 'editor.png') });
      // One King each, a Pawn in the first player's hand: legal.
      await page.click('#ed-palette button[data-piece=""]');
      await clickSquare(page, 'b1');
      await page.$eval('#ed-hands input[data-side="0"][data-hand="P"]', (e) => { e.value = '1'; e.dispatchEvent(new Event('change')); });
      await page.click('#ed-check');
      await page.waitForSelector('#ed-result[data-state="accepted"]');
      const start = await page.getAttribute('#board svg', 'data-position');
      await page.click('#ed-play');
      await page.waitForSelector('#setup[open]');
      eq(await page.inputValue('#setup-startpos'), (await rulesPosition(base, 'negaeri', {}, [], start)).position, 'the setup starts from the edited position');
      for (const side of [0, 1]) await page.selectOption(`#setup-players .player[data-side="${side}"] [name=kind]`, 'human');
      await page.selectOption('#setup-players .player[data-side="1"] [name=time]', 'none');
      await page.click('#setup-start');
      await page.waitForFunction(() => !document.getElementById('setup').open);
      await playLine(page, base, 'negaeri', {}, ['P@c3', 'f6e6'], { start });
      await page.context().close();
    });
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
  }
  // Each test was listed once, as it ran; the failures again, then the
  // plain closing line CI reads.
  for (const r of results.filter((r) => !r.ok)) console.log(`FAIL  ${r.name}: ${r.message}`);
  console.log(`browser: ${results.length - failures} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
