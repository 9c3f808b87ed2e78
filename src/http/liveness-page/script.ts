/**
 * The hosted page's own script: plain ES2017, no imports, inlined (the page's CSP allows it by
 * its hash). It walks the steps (camera or upload for each), posts each photo to
 * /liveness/{id}/capture, then /complete with the SDK's session; Cancel posts /cancel. While a
 * request runs every control is disabled; once the session has ended they stay disabled, the
 * steps and Cancel are hidden, and the user is sent to redirect_url when there is one.
 * Written without backslashes or `${`: it lives in a template literal.
 */
export const PAGE_SCRIPT = `(function () {
  var cfg = JSON.parse(document.getElementById('liveness-config').textContent);
  var status = document.getElementById('progress');
  var bar = document.getElementById('progress-bar');
  var main = document.querySelector('main');
  var base = '/liveness/' + encodeURIComponent(cfg.sessionId);
  var q = '?token=' + encodeURIComponent(cfg.token);
  var total = cfg.steps.length;
  var index = 0;
  var stream = null;
  var ended = false;
  function $(selector) { return document.querySelector(selector); }
  function all(selector) { return Array.prototype.slice.call(document.querySelectorAll(selector)); }
  function forKind(cls, kind) { return $('.' + cls + '[data-kind="' + kind + '"]'); }
  function say(text, tone) { status.textContent = text; status.setAttribute('data-tone', tone || 'info'); }
  function answer(r) { return r.json().then(function (b) { return { status: r.status, body: b }; }); }

  /** Disables every control while a request runs (busy) or for good once the session has ended. */
  function lock(busy) {
    all('button, input').forEach(function (c) {
      c.disabled = ended || busy || (c.classList.contains('capture') && !stream);
    });
    all('.file').forEach(function (l) { l.classList.toggle('is-disabled', ended || busy); });
    if (busy && !ended) main.setAttribute('aria-busy', 'true'); else main.removeAttribute('aria-busy');
  }
  function mark(done) {
    all('.steps li').forEach(function (li, k) {
      li.classList.toggle('is-done', k < done);
      if (k === done && !ended) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
      li.querySelector('.state').textContent = k < done ? ' (done)' : k === done && !ended ? ' (current)' : '';
    });
    bar.value = done;
    bar.textContent = done + ' of ' + total;
  }
  function show(i, focus) {
    all('.step').forEach(function (s, k) { s.hidden = k !== i; });
    var h = $('#h-' + cfg.steps[i].kind);
    if (focus && h) h.focus();
  }
  /** The step's frame back to its placeholder (error: the placeholder says why the camera is off). */
  function resetFrame(kind, error) {
    var frame = forKind('frame', kind);
    frame.classList.remove('live');
    frame.querySelector('video').hidden = true;
    frame.querySelector('.guide').hidden = true;
    var ph = frame.querySelector('.placeholder');
    ph.hidden = false;
    ph.classList.toggle('is-error', Boolean(error));
    if (error) ph.querySelector('p').textContent = error;
    forKind('start-camera', kind).hidden = false;
    forKind('capture', kind).hidden = true;
  }
  function stopCamera() {
    if (stream) { stream.getTracks().forEach(function (t) { t.stop(); }); stream = null; }
    cfg.steps.forEach(function (s) {
      var v = forKind('frame', s.kind).querySelector('video');
      if (!v.hidden) { v.srcObject = null; resetFrame(s.kind); }
    });
  }
  /** Camera unavailable: say why (briefly in the frame), and offer the upload (made the primary action, focused). */
  function cameraFailed(kind, reason, advice) {
    resetFrame(kind, reason);
    var start = forKind('start-camera', kind);
    start.textContent = 'Try the camera again';
    start.classList.remove('primary');
    forKind('file', kind).classList.add('primary');
    lock(false);
    say(reason + ' ' + advice, 'error');
    forKind('upload', kind).focus();
  }
  function finish(a, cancelled) {
    ended = true;
    stopCamera();
    lock(false);
    mark(a.status === 'success' ? total : index);
    all('.step, .leave').forEach(function (e) { e.hidden = true; });
    var done = $('#done');
    done.setAttribute('data-tone', a.status === 'success' ? 'success' : 'error');
    var ending = cancelled ? 'Verification cancelled' : 'Verification ended';
    $('#done-title').textContent = a.status === 'success' ? 'Verification complete' : ending;
    $('#done-text').textContent = a.redirect_url ? 'Taking you back to ' + cfg.projectName + '…' : 'You can close this page.';
    done.hidden = false;
    done.focus();
    status.classList.add('visually-hidden');
    var next = a.redirect_url ? '. Taking you back…' : '. You can close this page.';
    if (a.status === 'success') say('Verification complete' + next, 'success');
    else say((cancelled ? ending : ending + ' (' + (a.error_code || a.status) + ')') + next, 'error');
    if (a.redirect_url) window.location.assign(a.redirect_url);
  }
  function deviceSession() {
    if (!window.Trustgate) return Promise.resolve(null);
    return Promise.race([
      window.Trustgate.session().then(function (s) { return s.session_id; }),
      new Promise(function (r) { setTimeout(function () { r(null); }, 5000); })
    ]).catch(function () { return null; });
  }
  function complete() {
    lock(true);
    say('Checking your photos…', 'busy');
    deviceSession().then(function (id) {
      return fetch(base + '/complete' + q + (id ? '&device_session_id=' + encodeURIComponent(id) : ''), { method: 'POST' });
    }).then(answer).then(function (a) {
      if (a.status !== 200) { lock(false); say('The check could not run: ' + a.body.message, 'error'); return; }
      if (a.body.status !== 'retry') { finish(a.body, false); return; }
      index = 0; mark(0); show(0, true); lock(false);
      var again = '. Please take the ' + (total > 1 ? 'photos' : 'photo') + ' again';
      say(a.body.message + again + ' (' + a.body.attempts_remaining + ' attempts left).', 'error');
    }).catch(function () { lock(false); say('The check could not run; please try again.', 'error'); });
  }
  function upload(kind, blob) {
    lock(true);
    say('Uploading photo ' + (index + 1) + ' of ' + total + '…', 'busy');
    var type = ['image/jpeg', 'image/png', 'image/webp'].indexOf(blob.type) >= 0 ? blob.type : 'image/jpeg';
    return fetch(base + '/capture' + q + '&kind=' + kind, { method: 'POST', headers: { 'content-type': type }, body: blob })
      .then(answer).then(function (a) {
        if (a.status !== 200) { lock(false); say('The photo was not accepted: ' + a.body.message, 'error'); return; }
        stopCamera();
        index++;
        mark(index);
        if (index >= total) { complete(); return; }
        show(index, true);
        lock(false);
        say('Photo ' + index + ' of ' + total + ' uploaded. Next: ' + cfg.steps[index].title + '.', 'success');
      }).catch(function () { lock(false); say('The upload failed; please try again.', 'error'); });
  }
  all('.start-camera').forEach(function (b) {
    b.addEventListener('click', function () {
      var kind = b.getAttribute('data-kind');
      var step = cfg.steps.filter(function (s) { return s.kind === kind; })[0];
      if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
        cameraFailed(kind, 'This browser gives the page no camera.', 'Upload a photo instead.');
        return;
      }
      lock(true);
      say('Asking for camera access…', 'busy');
      navigator.mediaDevices.getUserMedia({ video: { facingMode: step.facing }, audio: false }).then(function (s) {
        stopCamera();
        stream = s;
        var frame = forKind('frame', kind);
        var v = frame.querySelector('video');
        v.srcObject = s;
        v.hidden = false;
        frame.querySelector('.guide').hidden = false;
        frame.querySelector('.placeholder').hidden = true;
        frame.classList.add('live');
        return Promise.resolve(v.play()).catch(function () {}).then(function () {
          b.hidden = true;
          var c = forKind('capture', kind);
          c.hidden = false;
          lock(false);
          c.focus();
          say('Camera on. ' + step.tip + ' Then press Take photo.', 'info');
        });
      }).catch(function (e) {
        if (e && e.name === 'NotAllowedError')
          cameraFailed(kind, 'Camera access was refused.',
            'Upload a photo instead, or allow the camera in your browser settings and try again.');
        else cameraFailed(kind, 'No camera could be started.', 'Upload a photo instead.');
      });
    });
  });
  all('.capture').forEach(function (b) {
    b.addEventListener('click', function () {
      var kind = b.getAttribute('data-kind');
      var v = forKind('frame', kind).querySelector('video');
      if (!v.videoWidth) { say('The camera shows no picture yet; try again in a moment.', 'error'); return; }
      var canvas = document.createElement('canvas');
      canvas.width = v.videoWidth; canvas.height = v.videoHeight;
      canvas.getContext('2d').drawImage(v, 0, 0);
      canvas.toBlob(function (blob) {
        if (blob) upload(kind, blob); else say('No picture from the camera; try again.', 'error');
      }, 'image/jpeg', 0.92);
    });
  });
  all('.upload').forEach(function (input) {
    input.addEventListener('change', function () {
      var file = input.files && input.files[0];
      input.value = '';
      if (file) upload(input.getAttribute('data-kind'), file);
    });
  });
  $('#cancel').addEventListener('click', function () {
    lock(true);
    say('Cancelling…', 'busy');
    fetch(base + '/cancel' + q, { method: 'POST' }).then(answer).then(function (a) {
      if (a.status !== 200) { lock(false); say('Could not cancel: ' + a.body.message, 'error'); return; }
      finish(a.body, true);
    }).catch(function () { lock(false); say('Could not cancel; please try again.', 'error'); });
  });
})();`;
