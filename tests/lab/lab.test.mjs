// The browser tests of `gotensor lab`: they start it on a throw-away
// directory and Jupyter data directory, open the JupyterLab it serves in
// Debian's headless Chromium (driven by puppeteer-core, which downloads no
// browser) and use it as a person would: the launcher, typing in cells,
// Tab and Shift-Tab, the toolbar's interrupt and restart buttons, the
// debugger (a breakpoint from the gutter, the Variables panel, Next,
// Continue) and Run All on notebooks/mnist.ipynb. Each test saves a screenshot in
// $GOTENSOR_LAB_ARTIFACTS (default tests/artifacts/lab).
//
// Run them with scripts/test-lab.sh, which builds what they need.
//
// Environment: GOTENSOR_BIN (default bin/gotensor), GOTENSOR_KERNEL_NAME
// (the kernelspec `gotensor lab` installs into the throw-away data
// directory), CHROMIUM (default /usr/bin/chromium).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import puppeteer from 'puppeteer-core';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const gotensor = path.resolve(repo, process.env.GOTENSOR_BIN || 'bin/gotensor');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const artifacts = path.resolve(repo, process.env.GOTENSOR_LAB_ARTIFACTS || 'tests/artifacts/lab');
const kernelTitle = 'Go (gotensor)';

// Timeouts in milliseconds: generous, since the machine may be busy.
const SHORT = 30_000;
const CELL = 120_000;
const MNIST = 600_000;

let tmp; // the throw-away directory: work/ is served, data/ is Jupyter's
let server; // the gotensor lab process
let serverLog = '';
let url; // http://127.0.0.1:N/lab?token=...
let browser;
let page;

/** The exported functions of package tensor whose names start with prefix, read from its source. */
function tensorFuncs(prefix) {
  const dir = path.join(repo, 'tensorlib', 'tensor');
  const names = new Set();
  for (const f of fs.readdirSync(dir)) {
    if (!f.endsWith('.go') || f.endsWith('_test.go')) continue;
    for (const m of fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/^func ([A-Z]\w*)[[(]/gm)) {
      if (m[1].startsWith(prefix)) names.add(m[1]);
    }
  }
  return [...names].sort();
}

/** The first sentence of the doc comment of package tensor's function name, from its source. */
function tensorDoc(name) {
  const dir = path.join(repo, 'tensorlib', 'tensor');
  for (const f of fs.readdirSync(dir)) {
    if (!f.endsWith('.go') || f.endsWith('_test.go')) continue;
    const src = fs.readFileSync(path.join(dir, f), 'utf8');
    const m = src.match(new RegExp(`((?:^//.*\\n)+)func ${name}\\(`, 'm'));
    if (m) {
      const text = m[1].split('\n').map(l => l.replace(/^\/\/ ?/, '')).join(' ');
      return text.slice(0, text.indexOf('.') + 1).replace(/\s+/g, ' ').trim();
    }
  }
  throw new Error(`no func ${name} in ${dir}`);
}

async function shot(name) {
  const file = path.join(artifacts, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Waits until fn, run in the page with args, returns a truthy value, and returns it. */
function until(fn, timeout, ...args) {
  return page.waitForFunction(fn, { timeout, polling: 200 }, ...args).then(h => h.jsonValue());
}

// The cells of the current notebook are found by index in the active tab.
const CELLS = '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell';

/** Puts code in the last cell of the active notebook through its editor and runs it with Shift-Enter. */
async function runLast(code) {
  const n = await page.$$eval(CELLS, cs => cs.length);
  await setCell(n - 1, code);
  await page.keyboard.down('Shift');
  await page.keyboard.press('Enter');
  await page.keyboard.up('Shift');
  return n - 1;
}

/** Replaces the source of cell i and leaves the cursor at its end, the editor focused. */
async function setCell(i, code) {
  const editor = (await page.$$(`${CELLS} .CodeMirror`))[i];
  await editor.click();
  await page.evaluate(
    (el, code) => {
      const cm = el.CodeMirror;
      cm.setValue(code);
      cm.focus();
      cm.setCursor(cm.lineCount(), 0);
    },
    editor,
    code
  );
}

/** Waits until cell i has run (its prompt shows a number) and returns its output text. */
/**
 * Waits until the output of cell i, still running, matches re: a test that
 * acts on a running loop waits for it to run, since a cell that compiles
 * starts a second or more after Shift-Enter.
 */
async function runningOutput(i, re, timeout = CELL) {
  await until(
    (sel, i, src) => {
      const c = document.querySelectorAll(sel)[i];
      return c && new RegExp(src).test(c.querySelector('.jp-OutputArea')?.innerText || '');
    },
    timeout,
    CELLS,
    i,
    re.source
  );
}

async function outputOf(i, timeout = CELL) {
  await until(
    (sel, i) => {
      const c = document.querySelectorAll(sel)[i];
      return c && /\[\d+\]/.test(c.querySelector('.jp-InputPrompt')?.textContent || '');
    },
    timeout,
    CELLS,
    i
  );
  return page.$$eval(CELLS, (cs, i) => cs[i].querySelector('.jp-OutputArea')?.innerText || '', i);
}

async function clickToolbar(command) {
  const sel = `.jp-NotebookPanel:not(.lm-mod-hidden) .jp-NotebookPanel-toolbar [data-command="${command}"]`;
  await page.waitForSelector(sel, { visible: true, timeout: SHORT });
  await page.click(sel);
}

/**
 * Waits until the active notebook's kernel is connected and idle, as the
 * status bar says ("Go (gotensor) | Idle"); the toolbar's circle is blank
 * before the kernel is even started.
 */
function kernelIdle(timeout = CELL) {
  return until(
    t => (document.getElementById('jp-main-statusbar')?.innerText || '').replace(/\s+/g, ' ').includes(`${t} | Idle`),
    timeout,
    kernelTitle
  );
}

// The Variables panel of the debugger's sidebar, as a tree.
const VARIABLES = '.jp-DebuggerVariables-body';

/**
 * Waits until the debugger's Variables tree has the row at path (a name,
 * then the names of its children) and returns what it shows after the
 * name: a value or a type.
 */
function variable(path) {
  return until(
    (sel, path) => {
      let root = document.querySelector(sel);
      let shown = false;
      for (const name of path) {
        const li = root && [...root.querySelectorAll(':scope > ul > li')].find(li => {
          const t = [...li.querySelectorAll(':scope > span')].map(s => s.textContent);
          return t[t.indexOf(name) + 1] === ': ';
        });
        if (!li) return false;
        const t = [...li.querySelectorAll(':scope > span')].map(s => s.textContent);
        shown = t[t.indexOf(name) + 2];
        root = li;
      }
      return shown;
    },
    SHORT,
    VARIABLES,
    path
  );
}

/** Expands the row at path of the Variables tree, as a click on its name does. */
async function expand(path) {
  await variable(path);
  await page.evaluate(
    (sel, path) => {
      let root = document.querySelector(sel);
      let span;
      for (const name of path) {
        const li = [...root.querySelectorAll(':scope > ul > li')].find(li =>
          [...li.querySelectorAll(':scope > span')].some((s, i, all) => s.textContent === name && all[i + 1]?.textContent === ': '));
        span = [...li.querySelectorAll(':scope > span')].find(s => s.textContent === name);
        root = li;
      }
      span.click();
    },
    VARIABLES,
    path
  );
  await until((sel, path) => {
    let root = document.querySelector(sel);
    for (const name of path) {
      root = [...root.querySelectorAll(':scope > ul > li')].find(li =>
        [...li.querySelectorAll(':scope > span')].some((s, i, all) => s.textContent === name && all[i + 1]?.textContent === ': '));
      if (!root) return false;
    }
    return root.querySelector(':scope > ul > li') !== null;
  }, SHORT, VARIABLES, path);
}

/** Opens a notebook of the kernel from a new launcher (the file browser's +) and waits for its kernel. */
async function newNotebook() {
  const plus = '.jp-FileBrowser-toolbar [data-command="filebrowser:create-main-launcher"]';
  await page.waitForSelector(plus, { visible: true, timeout: SHORT });
  await page.click(plus);
  // The card of the launcher on screen (an earlier one may be in a hidden tab).
  const card = await page.waitForFunction(
    t => [...document.querySelectorAll(`.jp-Launcher-section .jp-LauncherCard[title="${t}"]`)].find(c => c.offsetParent),
    { timeout: SHORT, polling: 200 },
    kernelTitle
  );
  const before = await page.$$eval('.jp-NotebookPanel', ps => ps.length);
  await card.asElement().click();
  await until((n) => document.querySelectorAll('.jp-NotebookPanel').length > n, SHORT, before);
  await page.waitForSelector(`${CELLS} .CodeMirror`, { timeout: SHORT });
  await kernelIdle();
}

/** Runs code in the last cell and returns its index once it has run. */
async function run(code, timeout = CELL) {
  const i = await runLast(code);
  await outputOf(i, timeout);
  return i;
}

/** Waits until the output of cell i holds an element matching sel and returns it. */
function inOutput(i, sel, timeout = SHORT) {
  return page
    .waitForFunction((cells, i, sel) => document.querySelectorAll(cells)[i]?.querySelector(`.jp-OutputArea ${sel}`), { timeout, polling: 200 }, CELLS, i, sel)
    .then(h => h.asElement());
}

/** Sets a slider in cell i's output as a person types a value in its readout. */
async function setSlider(i, value, nth = 0) {
  const readout = (await (await inOutput(i, '.widget-readout')).evaluateHandle((el, nth) =>
    el.closest('.jp-OutputArea').querySelectorAll('.widget-readout')[nth], nth)).asElement();
  await readout.click({ clickCount: 3 });
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.type(String(value));
  await page.keyboard.press('Enter');
}

/** A test that saves a screenshot of the page when it fails, to see why. */
function check(name, fn) {
  test(name, async () => {
    try {
      await fn();
    } catch (e) {
      if (page) await shot(`failed-${name.replace(/[^A-Za-z0-9]+/g, '-')}`).catch(() => {});
      throw e;
    }
  });
}

before(async () => {
  fs.mkdirSync(artifacts, { recursive: true });
  for (const f of fs.readdirSync(artifacts)) if (f.endsWith('.png')) fs.rmSync(path.join(artifacts, f));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gotensor-lab-test-'));
  const work = path.join(tmp, 'work');
  fs.mkdirSync(work);
  fs.copyFileSync(path.join(repo, 'notebooks', 'mnist.ipynb'), path.join(work, 'mnist.ipynb'));
  const env = {
    ...process.env,
    // An empty Jupyter: `gotensor lab` must install the kernelspec itself.
    JUPYTER_DATA_DIR: path.join(tmp, 'data'),
    JUPYTER_RUNTIME_DIR: path.join(tmp, 'runtime'),
    // No saved settings or layout from an earlier run.
    JUPYTER_CONFIG_DIR: path.join(tmp, 'config'),
    GOTENSOR_MNIST_QUICK: '1',
    PYDEVD_DISABLE_FILE_VALIDATION: '1'
  };
  delete env.JUPYTER_PATH;
  server = spawn(gotensor, ['lab', '--no-browser', '--port', '0', work], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', d => (serverLog += d));
  server.stderr.on('data', d => (serverLog += d));
  url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gotensor lab printed no URL in 10 minutes:\n${serverLog}`)), 600_000);
    server.on('exit', code => reject(new Error(`gotensor lab exited with status ${code}:\n${serverLog}`)));
    server.stdout.on('data', () => {
      const m = serverLog.match(/http:\/\/127\.0\.0\.1:\d+\/lab\?token=[0-9a-f]{48}/);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
  });
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--window-size=1400,1000']
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector('body[data-gotensor-lab=ready]', { timeout: CELL });
});

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise(r => server.on('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  if (process.env.GOTENSOR_LAB_LOG) fs.writeFileSync(process.env.GOTENSOR_LAB_LOG, serverLog);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('gotensor lab', () => {
  check('installs the kernelspec and prints the URL with its token', () => {
    const name = process.env.GOTENSOR_KERNEL_NAME || 'gotensor';
    assert.match(serverLog, new RegExp(`installed kernelspec ${name} in ${tmp}/data/kernels/${name}`));
    const spec = JSON.parse(fs.readFileSync(path.join(tmp, 'data', 'kernels', name, 'kernel.json'), 'utf8'));
    assert.equal(spec.display_name, kernelTitle);
    assert.equal(spec.argv[0], gotensor);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/lab\?token=[0-9a-f]{48}$/);
  });

  check('opens JupyterLab 3.6 and starts "Go (gotensor)" from the launcher', async () => {
    const version = await page.evaluate(
      () => JSON.parse(document.getElementById('jupyter-config-data').textContent).appVersion
    );
    assert.match(version, /^3\.6\.\d+$/);
    const card = `.jp-Launcher-section .jp-LauncherCard[title="${kernelTitle}"]`;
    await page.waitForSelector(card, { visible: true, timeout: SHORT });
    // The launcher's first section is Notebook, with the kernel's card.
    const section = await page.$eval(card, c => c.closest('.jp-Launcher-section').querySelector('h2').textContent);
    assert.equal(section, 'Notebook');
    await shot('01-launcher');
    await page.click(card);
    await page.waitForSelector(`${CELLS} .CodeMirror`, { timeout: SHORT });
    await until(
      t => document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-KernelName')?.textContent === t,
      SHORT,
      kernelTitle
    );
    // A cell run before the kernel is up is dropped (JupyterLab 3.6):
    // wait, as a person waits for the status bar to say Idle.
    await kernelIdle();
    const i = await runLast('x := tensor.Eye(3)\nfmt.Println("6 × 7 =", 6*7)\nx');
    const out = await outputOf(i);
    assert.match(out, /6 × 7 = 42/);
    // The tensor's HTML table: the 3×3 identity, value by value.
    const table = await page.$$eval(CELLS, (cs, i) => {
      const t = cs[i].querySelector('.jp-OutputArea div.gt-tensor table.gt-t');
      return t && [...t.querySelectorAll('tbody tr')].map(r => [...r.querySelectorAll('td')].map(d => d.textContent.trim()));
    }, i);
    assert.ok(table, `no tensor table in the output:\n${out}`);
    assert.deepEqual(table.map(r => r.map(Number)), [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    await shot('02-first-cell');
  });

  check('Tab completes tensor.Ra', async () => {
    // Shift-Enter left a new empty cell below, its editor focused.
    const n = await page.$$eval(CELLS, cs => cs.length);
    await setCell(n - 1, '');
    await page.keyboard.type('tensor.Ra');
    await page.keyboard.press('Tab');
    await page.waitForSelector('.jp-Completer .jp-Completer-item', { visible: true, timeout: SHORT });
    const items = await page.$$eval('.jp-Completer .jp-Completer-item', els =>
      els.map(e => e.getAttribute('data-value'))
    );
    const want = tensorFuncs('Ra');
    assert.ok(want.length >= 3, `package tensor has only ${want} starting with Ra`);
    for (const w of want) assert.ok(items.includes(w), `${w} is not among the completions ${items}`);
    for (const it of items) assert.ok(it.startsWith('Ra'), `completion ${it} does not start with Ra`);
    await shot('03-completion');
    await page.keyboard.press('Escape');
  });

  check('Shift-Tab shows the doc comment', async () => {
    const n = await page.$$eval(CELLS, cs => cs.length);
    await setCell(n - 1, 'tensor.Zeros(');
    await page.keyboard.down('Shift');
    await page.keyboard.press('Tab');
    await page.keyboard.up('Shift');
    await page.waitForSelector('.jp-Tooltip', { visible: true, timeout: SHORT });
    await until(() => document.querySelector('.jp-Tooltip')?.innerText.trim().length > 0, SHORT);
    const text = (await page.$eval('.jp-Tooltip', e => e.innerText)).replace(/\s+/g, ' ');
    const doc = tensorDoc('Zeros');
    assert.ok(text.includes(doc), `the tooltip does not show "${doc}":\n${text}`);
    await shot('04-tooltip');
    await page.keyboard.press('Escape');
  });

  check('the toolbar interrupts a loop and keeps the variables', async () => {
    const n = await page.$$eval(CELLS, cs => cs.length);
    await setCell(n - 1, 'import "time"\nkeep, count := 41, 0');
    await page.keyboard.down('Shift');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Shift');
    await outputOf(n - 1);
    const loop = await runLast('for {\n\tif count == 0 {\n\t\tfmt.Println("running")\n\t}\n\tcount++\n\ttime.Sleep(time.Millisecond)\n}');
    // Let it run, then press the toolbar's stop button.
    await runningOutput(loop, /running/);
    await new Promise(r => setTimeout(r, 1500));
    await clickToolbar('kernelmenu:interrupt');
    const out = await outputOf(loop, SHORT);
    assert.match(out, /interrupt/i);
    const check = await runLast('fmt.Println(keep, count > 100)');
    assert.match(await outputOf(check), /^41 true\s*$/);
    await shot('05-interrupt');
  });

  check('the toolbar restarts the kernel', async () => {
    await clickToolbar('kernelmenu:restart');
    const accept = '.jp-Dialog .jp-Dialog-button.jp-mod-accept';
    await page.waitForSelector(accept, { visible: true, timeout: SHORT });
    const label = await page.$eval(accept, b => b.textContent.trim());
    assert.equal(label, 'Restart');
    await page.click(accept);
    await page.waitForSelector('.jp-Dialog', { hidden: true, timeout: SHORT });
    await kernelIdle();
    const gone = await runLast('fmt.Println(keep)');
    assert.match(await outputOf(gone), /undefined: keep/);
    const fresh = await runLast('fmt.Println("after the restart", 2+3)');
    assert.match(await outputOf(fresh), /after the restart 5/);
    await shot('06-restart');
  });

  check('the debugger stops at a gutter breakpoint, shows a tensor, steps and continues', async () => {
    // A notebook of its own.
    await newNotebook();
    // A tensor made before the debugger is on: the session's variables show it.
    const first = await runLast('t := tensor.Ones(2, 3)');
    assert.equal((await outputOf(first)).trim(), '');

    // The bug icon: enabled only for a kernel that announces the debugger.
    const bug = '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-NotebookPanel-toolbar button.jp-DebuggerBugButton';
    await page.waitForSelector(`${bug}:not([disabled])`, { visible: true, timeout: SHORT });
    await page.click(bug);
    await page.waitForSelector(`${bug}[aria-pressed="true"]`, { timeout: SHORT });
    // The debugger's sidebar opens on the right with its panels.
    await page.waitForSelector('.jp-DebuggerCallstack', { visible: true, timeout: SHORT });

    const code = 'u := t.Mul(t)\nn := 7\nfmt.Println("n =", n)';
    const cell = (await page.$$eval(CELLS, cs => cs.length)) - 1;
    await setCell(cell, code);
    // Line numbers are shown while the debugger is on; click line 2's.
    const lineNumber = `${CELLS}:nth-child(${cell + 1}) .CodeMirror-linenumber`;
    await until(
      (sel) => [...document.querySelectorAll(sel)].some(e => e.textContent.trim() === '2' && e.offsetParent),
      SHORT,
      lineNumber
    );
    const numbers = await page.$$(lineNumber);
    const texts = await Promise.all(numbers.map(n => n.evaluate(e => e.textContent.trim())));
    await numbers[texts.indexOf('2')].click();
    await page.waitForSelector(`${CELLS}:nth-child(${cell + 1}) .jp-DebuggerEditor-marker`, { visible: true, timeout: SHORT });
    // The Breakpoints panel lists it, on line 2.
    await until(() => /\b2\b/.test(document.querySelector('.jp-DebuggerBreakpoints')?.innerText || ''), SHORT);
    await shot('debugger-1-breakpoint');

    // Run the cell: it stops on line 2, the line highlighted.
    await page.$$eval(CELLS, (cs, i) => cs[i].querySelector('.CodeMirror').CodeMirror.focus(), cell);
    await page.keyboard.down('Shift');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Shift');
    // Waits until the debugger highlights line (from 1) of cell i, the line it stopped on.
    const highlighted = (i, line) =>
      until(
        (sel, i, line) => {
          const lines = [...(document.querySelectorAll(sel)[i]?.querySelectorAll('.CodeMirror-code > div') || [])];
          const at = lines.findIndex(l => l.classList.contains('jp-DebuggerEditor-highlight') || l.querySelector('.jp-DebuggerEditor-highlight'));
          return at + 1 === line;
        },
        CELL,
        CELLS,
        i,
        line
      );
    await highlighted(cell, 2);
    const frames = await until(() => {
      const fs = [...document.querySelectorAll('.jp-DebuggerCallstackFrame-name')].map(e => e.textContent.trim());
      return fs.length && fs;
    }, SHORT);
    assert.ok(frames[0].includes('cell'), `the top frame is ${frames}`);

    // The Variables panel's first scope, Locals, which at a cell's top
    // level holds the session's variables: u and t, tensors. JupyterLab
    // 3.6's tree shows a value for the types it knows from Python (int,
    // float, bool, str) and the type for others.
    assert.equal(await variable(['u']), '*tensor.Tensor');
    assert.equal(await variable(['t']), '*tensor.Tensor');
    // Expanded, u shows its shape (expanded: 2 and 3), dtype and device.
    await expand(['u']);
    assert.equal(await variable(['u', 'shape']), '[]int');
    assert.equal(await variable(['u', 'dtype']), 'string');
    assert.equal(await variable(['u', 'device']), 'string');
    await expand(['u', 'shape']);
    assert.equal(await variable(['u', 'shape', '0']), '2');
    assert.equal(await variable(['u', 'shape', '1']), '3');
    await shot('debugger-2-stopped');

    // Next: line 3, n = 7 in the panel.
    await page.click('.jp-DebuggerCallstack [data-command="debugger:next"]');
    await highlighted(cell, 3);
    assert.equal(await variable(['n']), '7');
    await shot('debugger-3-next');

    // u's rich view (the panel's Render variable button), in a tab of the
    // main area: its header gives the shape, dtype and device, its table
    // the values, t × t: all ones.
    await page.evaluate((sel) => {
      const li = [...document.querySelectorAll(`${sel} > ul > li`)].find(li =>
        [...li.querySelectorAll(':scope > span')].some(s => s.textContent === 'u'));
      li.querySelector(':scope > button.jp-DebuggerVariables-renderVariable').click();
    }, VARIABLES);
    const rich = '.jp-DebuggerRichVariable:not(.lm-mod-hidden) div.gt-tensor';
    await page.waitForSelector(`${rich} table.gt-t`, { visible: true, timeout: SHORT });
    const header = await page.$eval(`${rich} .gt-h`, e => e.textContent.replace(/\s+/g, ' ').trim());
    assert.match(header, /^shape \[2, 3\] · dtype float32 · device cpu/);
    const values = await page.$$eval(`${rich} table.gt-t tbody tr`, rs => rs.map(r => [...r.querySelectorAll('td')].map(d => Number(d.textContent))));
    assert.deepEqual(values, [[1, 1, 1], [1, 1, 1]]);
    await shot('debugger-4-rich-variable');
    // Back to the notebook: close the rich view's tab ("u - Untitled…").
    const tab = await page.evaluateHandle(() =>
      [...document.querySelectorAll('.lm-DockPanel-tabBar .lm-TabBar-tab')]
        .find(t => t.querySelector('.lm-TabBar-tabLabel')?.textContent.startsWith('u - '))
        ?.querySelector('.lm-TabBar-tabCloseIcon'));
    assert.ok(tab.asElement(), 'no tab for the rich view of u');
    await tab.asElement().click();
    await page.waitForSelector('.jp-DebuggerRichVariable', { hidden: true, timeout: SHORT });
    await page.waitForSelector(`${CELLS}:nth-child(${cell + 1}) .jp-DebuggerEditor-highlight`, { visible: true, timeout: SHORT });

    // Continue: the cell ends with its output.
    await page.click('.jp-DebuggerCallstack [data-command="debugger:continue"]');
    assert.match(await outputOf(cell), /^n = 7\s*$/);
    await until((sel, i) => !document.querySelectorAll(sel)[i].querySelector('.jp-DebuggerEditor-highlight'), SHORT, CELLS, cell);
    await shot('debugger-5-continued');

    // Debugger off: a cell runs as before, and the breakpoint holds nothing.
    await page.click(bug);
    await page.waitForSelector(`${bug}[aria-pressed="false"]`, { timeout: SHORT });
    const after = await runLast('fmt.Println("after", n*6)');
    assert.match(await outputOf(after), /^after 42\s*$/);
    // Fold the sidebar away again, as the later tests expect the page.
    await page.click('.jp-SideBar.jp-mod-right .lm-TabBar-tab[data-id="jp-debugger-sidebar"]');
    await page.waitForSelector('.jp-DebuggerCallstack', { hidden: true, timeout: SHORT });
  });

  check('Run All on notebooks/mnist.ipynb shows the digits, live loss curves, progress and accuracies', async () => {
    // Open it from the file browser, as a person does.
    const item = '.jp-DirListing-item[title*="mnist.ipynb"]';
    await page.waitForSelector(item, { visible: true, timeout: SHORT });
    await page.click(item, { count: 2 });
    await until(
      () => [...document.querySelectorAll('.lm-TabBar-tab.lm-mod-current')].some(t => t.textContent.includes('mnist.ipynb')),
      SHORT
    );
    await until(
      t => document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-KernelName')?.textContent === t,
      SHORT,
      kernelTitle
    );
    await kernelIdle();
    const sources = await page.$$eval(CELLS, cs =>
      cs.map(c => (c.querySelector('.CodeMirror')?.CodeMirror?.getValue() ?? ''))
    );
    const index = s => {
      const i = sources.findIndex(src => src.includes(s));
      assert.ok(i >= 0, `no cell contains ${s}`);
      return i;
    };
    const grid = index('display.GridLabeled(train.Images');
    const mlp = index('fit("MLP"');
    const cnn = index('fit("CNN"');
    const table = index('display.Table(');
    const last = index('Reloaded CNN test accuracy');

    // Watch the training cells' outputs while they run: every distinct
    // image of the loss curve and every distinct progress text.
    await page.evaluate(
      (sel, cells) => {
        window.gotensorSeen = {};
        const cs = document.querySelectorAll(sel);
        const look = () => {
          for (const i of cells) {
            const c = cs[i];
            const seen = (window.gotensorSeen[i] ??= { plots: new Set(), live: 0, progress: new Set() });
            // The progress bar's count, n/total: training goes on while n < total.
            let training = false;
            for (const p of c.querySelectorAll('.jp-OutputArea-output')) {
              const t = p.innerText;
              const m = t.match(/(\d+)\/(\d+)/);
              if (m && !/test accuracy/.test(t)) {
                seen.progress.add(t.trim());
                training = Number(m[1]) < Number(m[2]);
              }
            }
            const plots = [...c.querySelectorAll('.jp-OutputArea img')].map(im => im.src);
            plots.push(...[...c.querySelectorAll('.jp-OutputArea svg')].map(svg => svg.outerHTML));
            for (const src of plots) {
              if (!seen.plots.has(src) && training) seen.live++;
              seen.plots.add(src);
            }
          }
        };
        new MutationObserver(look).observe(document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook'), {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true
        });
      },
      CELLS,
      [mlp, cnn]
    );

    // Run → Run All Cells, from the menu bar.
    const menus = await page.$$('.lm-MenuBar-item');
    const labels = await Promise.all(menus.map(m => m.evaluate(e => e.textContent.trim())));
    await menus[labels.indexOf('Run')].click();
    const runAll = '.lm-Menu-item[data-command="runmenu:run-all"]';
    await page.waitForSelector(runAll, { visible: true, timeout: SHORT });
    assert.equal(await page.$eval(runAll, e => e.querySelector('.lm-Menu-itemLabel').textContent), 'Run All Cells');
    await page.click(runAll);

    // A screenshot while the MLP trains, with its curve and bar on screen.
    await until(
      (sel, i) => document.querySelectorAll(sel)[i].querySelector('.jp-OutputArea img, .jp-OutputArea svg'),
      MNIST,
      CELLS,
      mlp
    );
    await page.$$eval(CELLS, (cs, i) => cs[i].scrollIntoView(), mlp);
    await shot('07-mnist-training'); // the MLP at work, or done if it was quicker than the browser

    const summary = await outputOf(last, MNIST);
    const cellText = i => page.$$eval(CELLS, (cs, i) => cs[i].querySelector('.jp-OutputArea').innerText, i);

    // The digit grid: one image of 8 × 4 digits of 28 pixels.
    const img = await page.$$eval(CELLS, (cs, i) => {
      const im = cs[i].querySelector('.jp-OutputArea img');
      return im && { w: im.naturalWidth, h: im.naturalHeight, done: im.complete };
    }, grid);
    assert.ok(img && img.done && img.w >= 8 * 28 && img.h >= 4 * 28, `no digit grid image: ${JSON.stringify(img)}`);
    await page.$$eval(CELLS, (cs, i) => cs[i].scrollIntoView(), grid);
    await shot('08-mnist-digits');

    // Live loss curves, redrawn while training; progress bars that count
    // every batch: 2560 images in batches of 128 are 20 a epoch.
    const seen = await page.evaluate(() =>
      Object.fromEntries(
        Object.entries(window.gotensorSeen).map(([k, v]) => [k, { plots: v.plots.size, live: v.live, progress: [...v.progress] }])
      )
    );
    // The curve is redrawn at most 4 times a second, and the quick run's
    // two trainings take a second or two each: each curve is drawn at
    // least once while its progress bar is short of its total (seen here:
    // 2 of 3 drawings of the MLP's, 2 of 4 of the CNN's), and redrawn in
    // place after.
    assert.ok(seen[mlp].live >= 1 && seen[cnn].live >= 1,
      `the loss curves were drawn ${seen[mlp].live} and ${seen[cnn].live} times while training: not live`);
    for (const [i, epochs] of [[mlp, 3], [cnn, 2]]) {
      assert.ok(seen[i].plots >= 2, `cell ${i}: the loss curve was drawn ${seen[i].plots} times, never redrawn`);
      assert.ok(seen[i].progress.length >= 2, `cell ${i}: the progress bar did not move: ${seen[i].progress}`);
      const total = epochs * 20;
      const out = await cellText(i);
      assert.match(out, new RegExp(`${total}/${total}`), `cell ${i}: no finished progress bar`);
      const bar = await page.$$eval(CELLS, (cs, i) => !!cs[i].querySelector('.jp-OutputArea progress, .jp-OutputArea [role=progressbar], .jp-OutputArea div[style*="width"]'), i);
      assert.ok(bar, `cell ${i}: no progress bar element`);
    }
    await page.$$eval(CELLS, (cs, i) => cs[i].scrollIntoView(), cnn);
    await shot('09-mnist-cnn');
    console.log(`loss curves drawn while training: MLP ${seen[mlp].live} of ${seen[mlp].plots}, CNN ${seen[cnn].live} of ${seen[cnn].plots}; progress texts seen: ${seen[mlp].progress.length} and ${seen[cnn].progress.length}`);

    // The comparison table, an HTML table with both models' accuracies.
    const rows = await page.$$eval(CELLS, (cs, i) => {
      const t = cs[i].querySelector('.jp-OutputArea table');
      return t && [...t.querySelectorAll('tr')].map(r => [...r.querySelectorAll('td,th')].map(d => d.textContent.trim()));
    }, table);
    assert.ok(rows, 'no HTML table');
    assert.deepEqual(rows.map(r => r[0]), ['model', 'MLP', 'CNN']);

    // The accuracies: percentages a trained network reaches even on the
    // quick run's small part of MNIST (a guess would be 10%), the same
    // in the table and in the summary, and the reloaded CNN's equal to the
    // trained one's.
    const acc = name => Number(summary.match(new RegExp(`^${name} test accuracy: ([0-9.]+)%`, 'm'))?.[1]);
    for (const [name, row] of [['MLP', 1], ['CNN', 2]]) {
      const a = acc(name);
      assert.ok(a > 50 && a <= 100, `${name} accuracy ${a} in:\n${summary}`);
      assert.equal(rows[row][rows[0].indexOf('test accuracy')], `${a.toFixed(2)}%`);
    }
    assert.equal(acc('Reloaded CNN'), acc('CNN'));
    assert.match(summary, /same as trained: true/);
    const errors = await page.$$eval(`${CELLS} .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]`, es =>
      es.map(e => e.innerText)
    );
    assert.deepEqual(errors, []);
    await page.$$eval(CELLS, (cs, i) => cs[i].scrollIntoView(), table);
    await shot('10-mnist-results');

    // LaTeX in Markdown, typeset by Debian's MathJax that the server serves:
    // the MLP's description has $\max(0, x)$.
    const md = await page.$$eval(CELLS, cs => cs.findIndex(c => c.classList.contains('jp-MarkdownCell') && c.innerText.includes('ReLU')));
    assert.ok(md >= 0, 'no Markdown cell about the ReLU');
    await page.$$eval(CELLS, (cs, i) => cs[i].scrollIntoView(), md);
    const math = await until(
      (sel, i) => {
        const m = document.querySelectorAll(sel)[i].querySelector('.jp-RenderedMarkdown .MathJax');
        return m && m.textContent.replace(/\s+/g, '');
      },
      SHORT,
      CELLS,
      md
    );
    assert.match(math, /max\(0,x\)/);
    await shot('11-mnist-latex');
  });
});

describe('widgets', () => {
  check('a slider sets a value that the next cell prints', async () => {
    await newNotebook();
    const i = await run('s := widgets.NewIntSlider("epochs", 0, 100, 10)\ns');
    await inOutput(i, '.widget-slider .noUi-target');
    await setSlider(i, 42);
    const p = await run('fmt.Println("epochs:", s.Value())');
    assert.match(await outputOf(p), /^epochs: 42\s*$/);
    await shot('12-widgets-slider');
  });

  check('every control renders', async () => {
    const i = await run([
      'img := widgets.NewImage(nil)',
      'img.SetTensor(tensor.Arange(0, 784, 1).Reshape(1, 28, 28))',
      'all := widgets.NewVBox(',
      '\twidgets.NewHBox(widgets.NewFloatSlider("dropout", 0, 0.9, 0.1), widgets.NewFloatLogSlider("lr", 1e-5, 1e-1, 1e-3)),',
      '\twidgets.NewHBox(widgets.NewDropdown("model", []string{"mlp", "cnn"}, "cnn"), widgets.NewCheckbox("augment", true), widgets.NewText("name", "baseline")),',
      '\twidgets.NewHBox(widgets.NewButton("Go").SetStyle("success"), widgets.NewLabel("a label"), widgets.NewHTML("<b>bold</b> HTML")),',
      '\twidgets.NewHBox(widgets.NewFloatProgress("epoch", 0, 10), img, widgets.NewOutput()),',
      ')',
      'all'
    ].join('\n'));
    for (const sel of ['.widget-vbox', '.widget-hslider', '.widget-dropdown select', '.widget-checkbox input',
      '.widget-text input', 'button.jupyter-button.mod-success', '.widget-label', '.widget-html b', '.widget-hprogress .progress-bar', 'img.widget-image', '.widget-output'])
      await inOutput(i, sel);
    const readouts = await page.$$eval(CELLS, (cs, i) => [...cs[i].querySelectorAll('.widget-readout')].map(r => r.textContent), i);
    assert.deepEqual(readouts, ['0.100', '0.00100']);
    const shown = await page.$$eval(CELLS, (cs, i) => cs[i].querySelector('.jp-OutputArea').innerText, i);
    assert.doesNotMatch(shown, /Error|not found/);
    await shot('13-widgets-all');
  });

  check('Interact redraws a plot when its slider moves', async () => {
    const i = await run([
      'import "gonum.org/v1/plot"',
      'freq := widgets.NewFloatSlider("freq", 1, 5, 1)',
      'widgets.Interact(func(f float64) *plot.Plot {',
      '\tys := make([]float64, 200)',
      '\tfor i := range ys {',
      '\t\tys[i] = math.Sin(f * float64(i) / 20)',
      '\t}',
      '\treturn display.LinePlot(fmt.Sprintf("sin(%gx)", f), display.Series{Name: "sin", Y: ys})',
      '}, freq)'
    ].join('\n'));
    await inOutput(i, '.widget-output img');
    const first = await page.$$eval(CELLS, (cs, i) => cs[i].querySelector('.widget-output img').src, i);
    await shot('14-widgets-interact-1');
    await setSlider(i, 3);
    await until((sel, i, first) => {
      const src = document.querySelectorAll(sel)[i].querySelector('.widget-output img')?.src;
      return src && src !== first;
    }, CELL, CELLS, i, first);
    const p = await run('fmt.Println(freq.Value())');
    assert.match(await outputOf(p), /^3\s*$/);
    // One plot in the output area: the redraw replaced the first.
    assert.equal(await page.$$eval(CELLS, (cs, i) => cs[i].querySelectorAll('.widget-output img').length, i), 1);
    await shot('14-widgets-interact-2');
  });

  check('a Stop button ends a 60-second training cell and keeps the model', async () => {
    await run([
      'model := nn.NewSequential(nn.NewLinear(16, 64), nn.NewReLU(), nn.NewLinear(64, 1))',
      'opt := optim.NewSGD(model.Parameters(), 0.01)',
      'x, y := tensor.Randn(256, 16), tensor.Randn(256, 1)',
      'lr := widgets.NewFloatLogSlider("lr", 1e-4, 1e-1, 1e-2)',
      'stop := widgets.NewButton("Stop").SetStyle("danger")',
      'bar := widgets.NewFloatProgress("seconds", 0, 60)',
      'display.Show(widgets.NewHBox(lr, stop, bar))',
      'steps, lastLR := 0, 0.0'
    ].join('\n'));
    const cell = await runLast([
      'import "time"',
      'start := time.Now()',
      'for time.Since(start) < 60*time.Second && stop.Clicks() == 0 {',
      '\tif steps == 0 {',
      '\t\tfmt.Println("training")',
      '\t}',
      '\tlastLR = lr.Value()',
      '\topt.SetLR(lastLR)',
      '\tloss := nn.MSELoss(model.Forward(x), y)',
      '\topt.ZeroGrad()',
      '\tloss.Backward()',
      '\topt.Step()',
      '\tsteps++',
      '\tbar.SetValue(time.Since(start).Seconds())',
      '}',
      'fmt.Printf("stopped after %d steps, %.1f s, lr %g\\n", steps, time.Since(start).Seconds(), lastLR)'
    ].join('\n'));
    await runningOutput(cell, /training/);
    // The slider moves while the cell runs; the loop reads it.
    const controls = cell - 1;
    await setSlider(controls, 0.001);
    await new Promise(r => setTimeout(r, 2000));
    await shot('15-widgets-training');
    const button = await inOutput(controls, 'button.jupyter-button');
    const clicked = Date.now();
    await button.click();
    const out = await outputOf(cell, 55_000);
    const took = Date.now() - clicked;
    console.log(`# Stop: the cell ended ${took} ms after the click`);
    const m = out.match(/stopped after (\d+) steps, ([\d.]+) s, lr ([\d.e-]+)/);
    assert.ok(m, `the cell printed:\n${out}`);
    assert.ok(Number(m[1]) > 0 && Number(m[2]) < 55, `the cell ran ${m[2]} s: the click did not end it`);
    assert.equal(Number(m[3]), 0.001);
    await shot('16-widgets-stopped');
    // The cell ended normally: the model and the counters are there.
    const after = await run('fmt.Println(steps > 0, model.Forward(x).Shape(), lastLR)');
    assert.match(await outputOf(after), /^true \[256 1\] 0\.001\s*$/);
  });
});
