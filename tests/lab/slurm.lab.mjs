// The Slurm kernelspec in `gotensor lab`, in Debian's headless Chromium:
// with "Go (gotensor) on Slurm" installed beside the local kernel, a
// person picks it in the launcher, runs cells that execute on the node
// Slurm allocated (they print the node's name, job and addresses) and keep
// their state, and closes the server, which leaves no job in the queue.
// A screenshot goes to $GOTENSOR_LAB_ARTIFACTS/slurm-cells.png.
//
// It needs a Slurm cluster: scripts/test-lab.sh runs it inside the
// throw-away one of tests/slurmcluster.py,
//
//	python3 tests/slurmcluster.py -- node --test tests/lab/slurm.lab.mjs
//
// which sets $SLURM_CONF and $GOTENSOR_SLURM_NODE_ADDR (the node's address).
// Its name keeps it out of the plain `node --test tests/lab/` run.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import puppeteer from 'puppeteer-core';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const gotensor = path.resolve(repo, process.env.GOTENSOR_BIN || 'bin/gotensor');
const artifacts = path.resolve(repo, process.env.GOTENSOR_LAB_ARTIFACTS || 'tests/artifacts/lab');
const title = 'Go (gotensor) on Slurm';
const nodeAddr = process.env.GOTENSOR_SLURM_NODE_ADDR;
const WAIT = 120_000;
const CELLS = '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell';

let tmp, server, browser, page;
let log = '';

function squeue() {
  return execFileSync('squeue', ['--noheader', '--format=%i'], { encoding: 'utf8' }).trim();
}

before(async () => {
  assert.ok(process.env.SLURM_CONF, 'no $SLURM_CONF: run this inside tests/slurmcluster.py');
  fs.mkdirSync(artifacts, { recursive: true });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gotensor-slurm-lab-'));
  fs.mkdirSync(path.join(tmp, 'work'));
  const env = {
    ...process.env,
    JUPYTER_DATA_DIR: path.join(tmp, 'data'),
    JUPYTER_RUNTIME_DIR: path.join(tmp, 'runtime'),
    JUPYTER_CONFIG_DIR: path.join(tmp, 'config')
  };
  delete env.JUPYTER_PATH;
  delete env.GOTENSOR_KERNEL_NAME;
  execFileSync(gotensor, ['install', '--slurm', '--partition=debug', '--time=10:00'], { env });
  server = spawn(gotensor, ['lab', '--no-browser', '--port', '0', path.join(tmp, 'work')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stderr.on('data', d => (log += d));
  const url = await labURL(server);
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--window-size=1400,1000']
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  await page.goto(url);
  await page.waitForSelector('body[data-gotensor-lab=ready]', { timeout: WAIT });
});

/** Closes the browser and stops the server the way Ctrl-C does, which shuts its kernels down. */
async function stop() {
  await browser?.close();
  browser = null;
  if (server?.exitCode === null) {
    const exited = new Promise(r => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
}

after(async () => {
  await stop();
  if (process.env.GOTENSOR_LAB_ARTIFACTS) fs.writeFileSync(path.join(artifacts, 'slurm-server.log'), log);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Resolves to the URL with its token once `gotensor lab` prints it (the first run may assemble the front end first). */
function labURL(proc) {
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: proc.stdout }).on('line', line => {
      log += line + '\n';
      const m = line.match(/http:\/\/127\.0\.0\.1:\d+\/lab\?token=[0-9a-f]{48}/);
      if (m) resolve(m[0]);
    });
    proc.once('exit', code => reject(new Error(`gotensor lab exited (status ${code}) before printing its URL:\n${log}`)));
  });
}

/** Types code into the last cell, runs it, and returns its output once its prompt shows a number. */
async function run(code) {
  const editors = await page.$$(`${CELLS} .CodeMirror`);
  const i = editors.length - 1;
  await editors[i].click();
  await page.evaluate((el, code) => el.CodeMirror.setValue(code), editors[i], code);
  await page.keyboard.down('Shift');
  await page.keyboard.press('Enter');
  await page.keyboard.up('Shift');
  await page.waitForFunction(
    (sel, i) => /\[\d+\]/.test(document.querySelectorAll(sel)[i]?.querySelector('.jp-InputPrompt')?.textContent || ''),
    { timeout: WAIT, polling: 200 },
    CELLS,
    i
  );
  return page.$$eval(CELLS, (cs, i) => cs[i].querySelector('.jp-OutputArea')?.innerText || '', i);
}

test('cells run on the Slurm node from JupyterLab, and closing leaves no job', async () => {
  const card = `.jp-Launcher-section .jp-LauncherCard[title="${title}"]`;
  await page.waitForSelector(card, { visible: true, timeout: WAIT });
  await page.click(card);
  await page.waitForSelector(`${CELLS} .CodeMirror`, { timeout: WAIT });
  await page.waitForFunction(
    t => (document.getElementById('jp-main-statusbar')?.innerText || '').replace(/\s+/g, ' ').includes(`${t} | Idle`),
    { timeout: WAIT, polling: 200 },
    title
  );
  const jobs = squeue();
  assert.match(jobs, /^\d+$/, `squeue shows ${JSON.stringify(jobs)}; want the kernel's one job`);

  const where = await run('import "net"\nimport "os"\naddrs, _ := net.InterfaceAddrs()\nfmt.Println("node", os.Getenv("SLURMD_NODENAME"), "job", os.Getenv("SLURM_JOB_ID"))\nfmt.Println(addrs)');
  assert.match(where, new RegExp(`node node1 job ${jobs}`));
  if (nodeAddr && nodeAddr !== '127.0.0.1') assert.ok(where.includes(`${nodeAddr}/24`), `the node's address ${nodeAddr} is not in:\n${where}`);
  await run('answer := 6 * 7');
  assert.match(await run('fmt.Println("the answer, kept from the cell before:", answer)'), /the answer, kept from the cell before: 42/);
  await page.screenshot({ path: path.join(artifacts, 'slurm-cells.png') });

  // Closing the server shuts its kernels down: the job ends.
  await stop();
  const deadline = Date.now() + 30_000;
  while (squeue() !== '' && Date.now() < deadline) await new Promise(r => setTimeout(r, 200));
  assert.equal(squeue(), '', 'a job is left in squeue after the server stopped');
});
