// Where the browser tests find Chromium; the one place that knows it.
// test.sh runs this file (`node tools/browser/chromium.mjs` prints the path,
// or a reason on stderr and exits 1) and board.test.mjs imports it, so the
// two always agree. In order: $CHROMIUM (which must then exist), the names
// chromium, chromium-browser, google-chrome and google-chrome-stable on
// $PATH, then /usr/bin/chromium and /snap/bin/chromium.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const PATHS = ['/usr/bin/chromium', '/snap/bin/chromium'];

function executable(p) {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/// { path } of the Chromium to use, or { problem } saying why there is none.
export function findChromium() {
  const given = process.env.CHROMIUM;
  if (given) {
    return executable(given) ? { path: given } : { problem: `CHROMIUM=${given} is not an executable file` };
  }
  const dirs = (process.env.PATH || '').split(path.delimiter).filter(Boolean);
  for (const name of NAMES) {
    for (const dir of dirs) {
      const p = path.join(dir, name);
      if (executable(p)) return { path: p };
    }
  }
  const found = PATHS.find(executable);
  if (found) return { path: found };
  return { problem: `no Chromium found (set CHROMIUM=/path/to/chromium; looked for ${NAMES.join(', ')} on PATH, ${PATHS.join(', ')})` };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = findChromium();
  if (found.path) {
    console.log(found.path);
  } else {
    console.error(found.problem);
    process.exit(1);
  }
}
