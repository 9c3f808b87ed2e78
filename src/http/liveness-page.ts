/**
 * The hosted verification page at GET /liveness/{session_id}?token=…: camera (getUserMedia) or
 * file upload for the selfie (and the ID document's front and back for ID Check), progress in
 * a live region, a Cancel button, and at the end the redirect to the customer's redirect_url.
 * The web SDK's script tag collects the same device facts as on the customer's own pages.
 * Served outside the contract (like /demo); it calls the contract's public capture endpoints.
 */
import type { Request, Response } from 'express';
import type { VerificationUseCases } from '../usecases/verification/sessions';
import { redirectTo } from '../usecases/verification/sessions';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STEPS = {
  'face-match': [{ kind: 'selfie', title: 'Take a selfie', facing: 'user' }],
  'id-check': [
    { kind: 'selfie', title: 'Take a selfie', facing: 'user' },
    { kind: 'id_front', title: 'Photograph the front of your ID document', facing: 'environment' },
    { kind: 'id_back', title: 'Photograph the back of your ID document', facing: 'environment' },
  ],
} as const;

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
main{max-width:34rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.5rem}
video{width:100%;background:#000;border-radius:.25rem}
button,.file{font:inherit;padding:.6rem 1rem;margin:.25rem .25rem .25rem 0}
:focus-visible{outline:3px solid #1a5fd0;outline-offset:2px}
#progress{font-weight:600}`;

function layout(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style>${head}</head>
<body><main>${body}</main></body></html>`;
}

/** A page for a link that cannot be used: redirects the user when there is somewhere to go. */
function errorPage(res: Response, status: number, error: string, message: string, redirect: string | null) {
  res.status(status).setHeader('Cache-Control', 'no-store');
  const head = redirect ? `<meta http-equiv="refresh" content="3;url=${escapeHtml(redirect)}">` : '';
  const link = redirect ? `<p><a href="${escapeHtml(redirect)}">Continue</a></p>` : '';
  res
    .type('html')
    .send(
      layout(
        'Verification',
        `<h1>Verification unavailable</h1><p role="alert" data-error="${error}">${escapeHtml(message)} (${error})</p>${link}`,
        head,
      ),
    );
}

export function makeLivenessPage(verification: VerificationUseCases) {
  return async function showVerificationPage(req: Request<{ session_id: string }>, res: Response) {
    const { record, error } = await verification.page(req.params.session_id, req.query.token);
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
    const config = {
      sessionId: record.id,
      token: String(req.query.token),
      steps: STEPS[record.type],
    };
    const steps = STEPS[record.type]
      .map(
        (s, i) => `<section class="step" data-kind="${s.kind}" ${i ? 'hidden' : ''} aria-labelledby="h-${s.kind}">
<h2 id="h-${s.kind}" tabindex="-1">Step ${i + 1} of ${STEPS[record.type].length}: ${s.title}</h2>
<video id="video-${s.kind}" autoplay playsinline muted aria-label="Camera preview"></video>
<p><button type="button" class="start-camera" data-kind="${s.kind}">Use the camera</button>
<button type="button" class="capture" data-kind="${s.kind}" disabled>Take photo</button></p>
<p><label class="file" for="file-${s.kind}">Or upload a photo</label>
<input id="file-${s.kind}" class="upload" data-kind="${s.kind}" type="file" accept="image/*" capture="${s.facing}"></p>
</section>`,
      )
      .join('\n');
    const body = `<h1>Verify your identity</h1>
<p>${record.type === 'id-check' ? 'We need a selfie and photos of both sides of your ID document.' : 'We need a selfie to check that you are present.'}
Your camera is used only on this page; photos are stored encrypted.</p>
${steps}
<p id="progress" role="status" aria-live="polite">Step 1: allow camera access or upload a photo.</p>
<p><button type="button" id="cancel">Cancel</button></p>
<script id="liveness-config" type="application/json">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>
<script>${PAGE_SCRIPT}</script>`;
    res.setHeader('Cache-Control', 'no-store');
    res
      .type('html')
      .send(
        layout(
          'Verify your identity',
          body,
          `<script src="/sdk.js" data-project-id="${escapeHtml(record.projectId)}"></script>`,
        ),
      );
  };
}

/** The page's own script: plain ES2017, no imports. */
const PAGE_SCRIPT = `(function () {
  var cfg = JSON.parse(document.getElementById('liveness-config').textContent);
  var progress = document.getElementById('progress');
  var base = '/liveness/' + encodeURIComponent(cfg.sessionId);
  var q = '?token=' + encodeURIComponent(cfg.token);
  var index = 0;
  var stream = null;
  function say(text) { progress.textContent = text; }
  function stopCamera() { if (stream) { stream.getTracks().forEach(function (t) { t.stop(); }); stream = null; } }
  function finish(answer) {
    stopCamera();
    if (answer.redirect_url) { say('Done. Taking you back…'); window.location.assign(answer.redirect_url); }
    else say(answer.status === 'success' ? 'Verification complete. You can close this page.' : 'Verification ended (' + (answer.error_code || answer.status) + '). You can close this page.');
  }
  function deviceSession() {
    if (!window.Trustgate) return Promise.resolve(null);
    return Promise.race([
      window.Trustgate.session().then(function (s) { return s.session_id; }),
      new Promise(function (r) { setTimeout(function () { r(null); }, 5000); })
    ]).catch(function () { return null; });
  }
  function show(i) {
    var sections = document.querySelectorAll('.step');
    for (var k = 0; k < sections.length; k++) sections[k].hidden = k !== i;
    var h = sections[i] && sections[i].querySelector('h2');
    if (h) h.focus();
  }
  function complete() {
    say('Checking your photos…');
    deviceSession().then(function (id) {
      return fetch(base + '/complete' + q + (id ? '&device_session_id=' + encodeURIComponent(id) : ''), { method: 'POST' });
    }).then(function (r) { return r.json().then(function (b) { return { status: r.status, body: b }; }); })
      .then(function (a) {
        if (a.status !== 200) { say('The check could not run: ' + a.body.message); return; }
        if (a.body.status === 'retry') { index = 0; show(0); say(a.body.message + '. Please try again (' + a.body.attempts_remaining + ' attempts left).'); return; }
        finish(a.body);
      }).catch(function () { say('The check could not run; please try again.'); });
  }
  function upload(kind, blob) {
    say('Uploading photo ' + (index + 1) + ' of ' + cfg.steps.length + '…');
    return fetch(base + '/capture' + q + '&kind=' + kind, { method: 'POST', headers: { 'content-type': blob.type && /^image\\/(jpeg|png|webp)$/.test(blob.type) ? blob.type : 'image/jpeg' }, body: blob })
      .then(function (r) { return r.json().then(function (b) { return { status: r.status, body: b }; }); })
      .then(function (a) {
        if (a.status !== 200) { say('The photo was not accepted: ' + a.body.message); return; }
        stopCamera();
        index++;
        if (index < cfg.steps.length) { show(index); say('Photo ' + index + ' of ' + cfg.steps.length + ' uploaded. Next: ' + cfg.steps[index].title + '.'); }
        else complete();
      }).catch(function () { say('The upload failed; please try again.'); });
  }
  document.querySelectorAll('.start-camera').forEach(function (b) {
    b.addEventListener('click', function () {
      var kind = b.getAttribute('data-kind');
      var step = cfg.steps.filter(function (s) { return s.kind === kind; })[0];
      if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) { say('This browser has no camera access; upload a photo instead.'); return; }
      say('Asking for camera access…');
      navigator.mediaDevices.getUserMedia({ video: { facingMode: step.facing }, audio: false }).then(function (s) {
        stopCamera(); stream = s;
        var v = document.getElementById('video-' + kind); v.srcObject = s;
        var c = document.querySelector('.capture[data-kind="' + kind + '"]'); c.disabled = false; c.focus();
        say('Camera on. Press Take photo when ready.');
      }).catch(function () { say('Camera access was refused or is unavailable; upload a photo instead.'); });
    });
  });
  document.querySelectorAll('.capture').forEach(function (b) {
    b.addEventListener('click', function () {
      var kind = b.getAttribute('data-kind');
      var v = document.getElementById('video-' + kind);
      var canvas = document.createElement('canvas');
      canvas.width = v.videoWidth; canvas.height = v.videoHeight;
      canvas.getContext('2d').drawImage(v, 0, 0);
      canvas.toBlob(function (blob) { if (blob) upload(kind, blob); else say('No picture from the camera; try again.'); }, 'image/jpeg', 0.92);
    });
  });
  document.querySelectorAll('.upload').forEach(function (input) {
    input.addEventListener('change', function () { if (input.files && input.files[0]) upload(input.getAttribute('data-kind'), input.files[0]); });
  });
  document.getElementById('cancel').addEventListener('click', function () {
    say('Cancelling…');
    fetch(base + '/cancel' + q, { method: 'POST' }).then(function (r) { return r.json(); }).then(finish)
      .catch(function () { say('Could not cancel; please try again.'); });
  });
})();`;
