'use strict';
// The plain Chromium processes of the detection benchmark, with no DevTools client: the human
// baseline (headful on the virtual display, driven only by OS-level input from xdotool) and the
// control (headless, the page's URL on its command line, nobody at all).
const { spawn } = require('node:child_process');
const { ADDRESS, BASE_ARGS, CHROMIUM, freshFolder, sleep, stopChromium, until } = require('./context');

/** Runs xdotool on the display, asynchronously (the server answers in this same process). */
function xdo(display, ...xargs) {
  return new Promise((resolve, reject) => {
    const child = spawn('xdotool', xargs, { env: { ...process.env, DISPLAY: display } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out: out.trim() }));
  });
}

/**
 * The human baseline: a plain Chromium process on the virtual display (its own fresh profile,
 * the page's URL on its command line, no automation flag, no debugging port, no DevTools
 * client), and only OS-level input from xdotool: the pointer moves along an uneven path with
 * pauses, clicks the e-mail field, the keys are typed one by one, the pointer goes to the
 * button and clicks. The session id is what the page posted to the customer's back end.
 */
async function humanVisit(bench, name, display) {
  const profile = freshFolder('human');
  const argv = [
    ...BASE_ARGS,
    '--no-default-browser-check',
    '--password-store=basic',
    `--user-data-dir=${profile}`,
    '--window-position=0,0',
    '--window-size=1280,800',
    bench.customer.origin + '/',
  ];
  const child = spawn(CHROMIUM, argv, { stdio: 'ignore', detached: true, env: { ...process.env, DISPLAY: display } });
  const { signedUp } = bench.page;
  const already = signedUp.length;
  try {
    const window = await until(
      async () => {
        const r = await xdo(display, 'search', '--onlyvisible', '--class', 'chromium');
        return r.code === 0 && r.out ? r.out.split('\n').pop() : undefined;
      },
      30_000,
      300,
    );
    if (!window) return bench.results.push({ name, kind: 'human', skipped: 'no Chromium window appeared' });
    await sleep(4000); // the page loads and the SDK posts its first report
    // An uneven path across the page, then onto the e-mail field (screen y 390: page y 170–320
    // under any toolbar height from 70 to 220 px), typed key by key, then the button (y 590).
    const path1 = [
      [900, 700],
      [820, 640],
      [700, 560],
      [610, 500],
      [560, 470],
      [530, 430],
      [515, 405],
      [512, 392],
    ];
    for (const [x, y] of path1) {
      await xdo(display, 'mousemove', '--sync', String(x + Math.round(Math.random() * 6)), String(y));
      await sleep(60 + Math.random() * 90);
    }
    await sleep(400);
    await xdo(display, 'click', '1');
    await sleep(700);
    await xdo(display, 'type', '--delay', '140', ADDRESS);
    await sleep(600);
    for (const [x, y] of [
      [540, 430],
      [580, 480],
      [620, 530],
      [650, 570],
      [660, 590],
    ]) {
      await xdo(display, 'mousemove', '--sync', String(x + Math.round(Math.random() * 6)), String(y));
      await sleep(70 + Math.random() * 80);
    }
    await sleep(300);
    await xdo(display, 'click', '1');
    const sessionId = await until(() => signedUp[already], 20_000);
    if (!sessionId)
      return bench.results.push({ name, kind: 'human', skipped: 'the page posted no session id (a click missed?)' });
    // What reached the page: the SDK's event counts in its post, as the server stored it.
    const e = (await bench.sdkFacts(sessionId)).events ?? {};
    await bench.evaluate(name, 'human', sessionId, {
      note: `page saw mouse ${e.mouse} click ${e.click} keyboard ${e.keyboard}`,
    });
  } finally {
    await stopChromium(child, profile);
  }
}

/** The control: headless Chromium started with the page's URL and no debugging client, nobody at the keys. */
async function headlessControl(bench, name) {
  const profile = freshFolder('profile');
  const sessions = async () => (await bench.runtime.db('sessions').select('id')).map((r) => r.id);
  const before = new Set(await sessions());
  const child = spawn(
    CHROMIUM,
    ['--headless=new', ...BASE_ARGS, `--user-data-dir=${profile}`, bench.customer.origin + '/'],
    {
      stdio: 'ignore',
      detached: true,
    },
  );
  let sessionId;
  try {
    sessionId = await until(async () => (await sessions()).find((id) => !before.has(id)), 20_000);
    await sleep(1000); // the SDK's later posts of the page's load
  } finally {
    await stopChromium(child, profile);
  }
  await bench.evaluate(name, 'automated', sessionId);
}

module.exports = { headlessControl, humanVisit };
