'use strict';
// The plain Chromium processes of the detection benchmark, with no DevTools client: the human
// baseline (headful on the virtual display, driven only by OS-level input from xdotool) and the
// control (headless, the page's URL on its command line, nobody at all).
const { spawn } = require('node:child_process');
const { ADDRESS, BASE_ARGS, CHROMIUM, botdSince, freshFolder, sleep, stopChromium, until } = require('./context');

const between = (low, high) => low + Math.random() * (high - low);
const pick = ([low, high]) => Math.round(between(low, high));

/**
 * Where the targets are on the screen: the page's e-mail field (page y 120–330) and button
 * (380–520), x 40–1140, under the window's toolbars, whose height xdotool cannot see: 143 px
 * here (tabs, address bar and the infobar about --no-sandbox), 85 without the infobar. The
 * ranges hold for any toolbar from 85 to 190 px, a few pixels inside each edge.
 */
const TARGETS = { email: { x: [60, 1120], y: [318, 410] }, button: { x: [60, 1120], y: [575, 600] } };

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
 * A person's reach from `from` to a random point of `target`: a curve bowed to one side (a
 * quadratic Bézier with a random control point), a few uneven steps with uneven pauses.
 * Returns where the pointer ends.
 */
async function reach(display, from, target) {
  const to = { x: pick(target.x), y: pick(target.y) };
  const bow = { x: (from.x + to.x) / 2 + between(-150, 150), y: (from.y + to.y) / 2 + between(-100, 100) };
  const steps = Math.round(between(6, 11));
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    const x = (1 - t) ** 2 * from.x + 2 * (1 - t) * t * bow.x + t ** 2 * to.x;
    const y = (1 - t) ** 2 * from.y + 2 * (1 - t) * t * bow.y + t ** 2 * to.y;
    const off = i === steps ? 0 : between(-4, 4);
    await xdo(display, 'mousemove', '--sync', String(Math.round(x + off)), String(Math.round(y + off)));
    await sleep(between(40, 140));
  }
  return to;
}

/** A press held as long as a finger holds it, not the instant of `xdotool click`. */
async function click(display) {
  await xdo(display, 'mousedown', '1');
  await sleep(between(60, 140));
  await xdo(display, 'mouseup', '1');
}

/** The address key by key, each key its own xdotool call and a gap of 90–260 ms between keys. */
async function typeLikeAPerson(display, text) {
  for (const key of text) {
    await xdo(display, 'type', '--', key);
    await sleep(between(90, 260));
  }
}

/**
 * One human visit: a plain Chromium process on the virtual display (its own fresh profile, the
 * page's URL on its command line, no automation flag, no debugging port, no DevTools client),
 * and only OS-level input from xdotool: the pointer reaches a random point of the e-mail field,
 * clicks, the address is typed, the pointer reaches a random point of the button and clicks.
 * The session id is what the page posted to the customer's back end; the row's note has the
 * event counts the SDK sent, proof that the input reached the page.
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
  const { signedUp, botd } = bench.page;
  const [already, mark] = [signedUp.length, botd.length];
  const child = spawn(CHROMIUM, argv, { stdio: 'ignore', detached: true, env: { ...process.env, DISPLAY: display } });
  try {
    const window = await until(async () => {
      const r = await xdo(display, 'search', '--onlyvisible', '--class', 'chromium');
      return r.code === 0 && r.out ? r.out.split('\n').pop() : undefined;
    }, 30_000);
    if (!window) return bench.results.push({ name, kind: 'human', skipped: 'no Chromium window appeared' });
    await sleep(4000); // the page loads and the SDK posts its first report
    const start = { x: pick([700, 1000]), y: pick([640, 760]) };
    await xdo(display, 'mousemove', '--sync', String(start.x), String(start.y));
    const atField = await reach(display, start, TARGETS.email);
    await sleep(between(250, 600));
    await click(display);
    await sleep(between(500, 900));
    await typeLikeAPerson(display, ADDRESS);
    await sleep(between(400, 900));
    await reach(display, atField, TARGETS.button);
    await sleep(between(200, 500));
    await click(display);
    const sessionId = await until(() => signedUp[already], 20_000);
    if (!sessionId)
      return bench.results.push({ name, kind: 'human', skipped: 'the page posted no session id (a click missed?)' });
    const e = (await bench.sdkFacts(sessionId)).events ?? {};
    await bench.evaluate(name, 'human', sessionId, {
      note: `page saw mouse ${e.mouse} click ${e.click} keyboard ${e.keyboard}`,
      botd: await botdSince(bench.page, mark),
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
  const mark = bench.page.botd.length;
  const child = spawn(
    CHROMIUM,
    ['--headless=new', ...BASE_ARGS, `--user-data-dir=${profile}`, bench.customer.origin + '/'],
    {
      stdio: 'ignore',
      detached: true,
    },
  );
  let sessionId;
  let botd;
  try {
    sessionId = await until(async () => (await sessions()).find((id) => !before.has(id)), 20_000);
    await sleep(1000); // the SDK's later posts of the page's load
    botd = await botdSince(bench.page, mark);
  } finally {
    await stopChromium(child, profile);
  }
  await bench.evaluate(name, 'automated', sessionId, { botd });
}

module.exports = { headlessControl, humanVisit };
