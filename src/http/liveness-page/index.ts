/**
 * The hosted verification page at GET /liveness/{session_id}?token=…: the project's name, the
 * steps (Face Match: a selfie; ID Check: the ID document's front and back, then a selfie) with
 * progress, for each step the camera (getUserMedia) or a file upload, status in a live region,
 * a Cancel link, and at the end a done state with every control disabled and the redirect to
 * the customer's redirect_url. The web SDK's script tag collects the same device facts as on
 * the customer's own pages. Self-contained (inline style and script, allowed by their hashes in
 * the page's Content-Security-Policy; no external font or file but /sdk.js). Served outside the
 * contract (like /demo); its script calls the contract's public capture endpoints.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { CaptureKind } from '../../domain/verification/analysis';
import type { VerificationRecord, VerificationType } from '../../storage/repositories/verifications';
import type { VerificationUseCases } from '../../usecases/verification';
import { REQUIRED_CAPTURES, redirectTo } from '../../domain/verification/lifecycle';
import { PAGE_SCRIPT } from './script';
import { STYLE } from './style';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface Step {
  kind: CaptureKind;
  /** The stepper's short name. */
  label: string;
  title: string;
  /** What makes a good photo, under the title and when the camera is on. */
  tip: string;
  facing: 'user' | 'environment';
}

/** A step for each capture, in the order the page asks for them (the document first, then the face). */
const STEP: Record<CaptureKind, Step> = {
  id_front: {
    kind: 'id_front',
    label: 'ID front',
    title: 'Photograph the front of your ID document',
    tip: 'Lay it flat in good light, with all four corners inside the frame and no glare.',
    facing: 'environment',
  },
  id_back: {
    kind: 'id_back',
    label: 'ID back',
    title: 'Photograph the back of your ID document',
    tip: 'Turn it over and keep the barcode sharp, with all four corners inside the frame.',
    facing: 'environment',
  },
  selfie: {
    kind: 'selfie',
    label: 'Selfie',
    title: 'Take a selfie',
    tip: 'Face the camera in good light, with nothing covering your face, and keep it inside the oval.',
    facing: 'user',
  },
};

/** The steps of a session: the captures its type requires (sessions.ts), in the page's order. */
const stepsOf = (type: VerificationType) => Object.values(STEP).filter((s) => REQUIRED_CAPTURES[type].includes(s.kind));

const INTRO: Record<VerificationType, string> = {
  'face-match': 'asks for a selfie to confirm that it is really you. It takes about a minute.',
  'id-check': 'asks for photos of both sides of your ID document and a selfie. It takes about two minutes.',
};

const svg = (paths: string) =>
  `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.8"
 stroke-linecap="round" stroke-linejoin="round">${paths}</svg>`;
const CARD = '<rect x="2" y="5" width="20" height="14" rx="2"/>';
const ICONS: Record<CaptureKind, string> = {
  selfie: svg(
    '<path d="M3 7V4.5A1.5 1.5 0 0 1 4.5 3H7M17 3h2.5A1.5 1.5 0 0 1 21 4.5V7' +
      'M21 17v2.5a1.5 1.5 0 0 1-1.5 1.5H17M7 21H4.5A1.5 1.5 0 0 1 3 19.5V17"/>' +
      '<circle cx="12" cy="10" r="3"/><path d="M7 18c1-2.5 2.8-3.8 5-3.8s4 1.3 5 3.8"/>',
  ),
  id_front: svg(
    `${CARD}<circle cx="8" cy="11" r="2"/><path d="M5.5 16c.5-1.3 1.4-2 2.5-2s2 .7 2.5 2M13 10h6M13 13h6M13 16h4"/>`,
  ),
  id_back: svg(`${CARD}<path d="M6 9v6M8.5 9v6M11 9v6M13 9v6M15.5 9v6M18 9v6"/>`),
};
const DONE_ICONS = `${svg('<path class="icon-ok" d="M5 12.5l4.5 4.5L19 7.5"/><path class="icon-end" d="M7 7l10 10M17 7L7 17"/>')}`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
/** Only this page's own script, the SDK and its style run; requests go to this origin alone. */
const CSP = {
  page: [
    "default-src 'none'",
    `script-src 'self' ${sha256(PAGE_SCRIPT)}`,
    `style-src ${sha256(STYLE)}`,
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob: mediastream:",
    // The SDK compares the page's browser facts with a Web Worker's, made from a blob: URL.
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; '),
  error: [
    "default-src 'none'",
    `style-src ${sha256(STYLE)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; '),
};

function layout(res: Response, csp: string, title: string, body: string, head = ''): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex"><link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>${head}</head>
<body><div class="shell">${body}</div></body></html>`);
}

/** A page for a link that cannot be used: redirects the user when there is somewhere to go. */
function errorPage(res: Response, status: number, error: string, message: string, redirect: string | null) {
  res.status(status);
  const head = redirect ? `<meta http-equiv="refresh" content="3;url=${escapeHtml(redirect)}">` : '';
  const link = redirect ? `<p><a class="btn primary" href="${escapeHtml(redirect)}">Continue</a></p>` : '';
  layout(
    res,
    CSP.error,
    'Verification',
    `<main class="card solo"><div class="done" data-tone="error"><div class="done-icon">${DONE_ICONS}</div>
<h1>Verification unavailable</h1><p role="alert" data-error="${error}">${escapeHtml(message)} (${error})</p>${link}</div></main>`,
    head,
  );
}

function stepSection(s: Step, i: number, total: number): string {
  const frameClass = s.kind === 'selfie' ? 'frame frame-selfie' : 'frame';
  return `<section class="step" data-kind="${s.kind}" ${i ? 'hidden' : ''} aria-labelledby="h-${s.kind}">
<h2 id="h-${s.kind}" tabindex="-1"><span class="count">Step ${i + 1} of ${total}</span>${s.title}</h2>
<p class="hint">${s.tip}</p>
<div class="${frameClass}" data-kind="${s.kind}">
<video id="video-${s.kind}" autoplay playsinline muted aria-label="Camera preview" hidden></video>
<div class="guide" aria-hidden="true" hidden></div>
<div class="placeholder">${ICONS[s.kind]}<p>Your camera preview appears here.
Choose <strong>Use the camera</strong> and allow access when asked, or upload a photo.</p></div>
</div>
<div class="actions">
<button type="button" class="btn primary start-camera" data-kind="${s.kind}">Use the camera</button>
<button type="button" class="btn primary capture" data-kind="${s.kind}" disabled hidden>Take photo</button>
<input id="file-${s.kind}" class="upload" data-kind="${s.kind}" type="file" accept="image/*" capture="${s.facing}">
<label class="btn file" data-kind="${s.kind}" for="file-${s.kind}">Upload a photo</label>
</div>
</section>`;
}

function verificationPage(res: Response, record: VerificationRecord, token: string, projectName: string): void {
  const steps = stepsOf(record.type);
  const project = escapeHtml(projectName);
  const config = { sessionId: record.id, token, projectName, steps };
  const stepper = steps
    .map(
      (s, i) =>
        `<li data-kind="${s.kind}"${i ? '' : ' aria-current="step"'}><span class="dot" aria-hidden="true"><span>${i + 1}</span></span>` +
        `<span>${s.label}<span class="state visually-hidden">${i ? '' : ' (current)'}</span></span></li>`,
    )
    .join('');
  const body = `<header class="brand"><span class="logo" aria-hidden="true">${escapeHtml(projectName.trim().charAt(0).toUpperCase())}</span>
<div><p class="project" id="project-name">${project}</p><p class="sub">Identity verification</p></div></header>
<main class="card">
<div class="intro"><h1>Verify your identity</h1><p>${project} ${INTRO[record.type]}</p>
<ol class="steps" aria-label="Steps">${stepper}</ol>
<progress id="progress-bar" max="${steps.length}" value="0" aria-label="Photos uploaded">0 of ${steps.length}</progress></div>
<div class="stage">
${steps.map((s, i) => stepSection(s, i, steps.length)).join('\n')}
<section id="done" class="done" tabindex="-1" aria-labelledby="done-title" hidden><div class="done-icon">${DONE_ICONS}</div>
<h2 id="done-title">Verification complete</h2><p id="done-text">You can close this page.</p></section>
<p id="progress" class="status" role="status"
 aria-live="polite" data-tone="info">Step 1 of ${steps.length}: use your camera or upload a photo.</p>
</div>
<div class="leave"><button type="button" id="cancel" class="link">Cancel verification</button></div>
</main>
<p class="privacy">Your camera is used only while this page is open.
Photos are stored encrypted and used by ${project} only to verify your identity.</p>
<script id="liveness-config" type="application/json">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>
<script>${PAGE_SCRIPT}</script>`;
  layout(
    res,
    CSP.page,
    `Verify your identity · ${projectName}`,
    body,
    `<script src="/sdk.js" data-project-id="${escapeHtml(record.projectId)}"></script>`,
  );
}

export function makeLivenessPage(verification: VerificationUseCases) {
  return async function showVerificationPage(req: Request<{ session_id: string }>, res: Response) {
    const { record, projectName, error } = await verification.page(req.params.session_id, req.query.token);
    if (!record || error === 'session_id_not_found') {
      errorPage(res, 404, 'session_id_not_found', 'This verification link names no session.', null);
      return;
    }
    if (error === 'invalid_session_id') {
      errorPage(
        res,
        403,
        'invalid_session_id',
        'This verification link is not valid.',
        redirectTo(record, false, 'invalid_session_id'),
      );
      return;
    }
    if (record.state !== 'open') {
      const success = record.outcome === 'success';
      errorPage(
        res,
        410,
        success ? 'completed' : String(record.outcome),
        'This verification has already ended.',
        redirectTo(record, success, success ? undefined : record.outcome),
      );
      return;
    }
    verificationPage(res, record, String(req.query.token), projectName ?? 'Verification');
  };
}
