// The demo page's script: on submit, get the SDK's session id, ask the page's backend what
// Trustgate knows about it, and render the answer. Built with DOM calls (textContent), so no
// value from the session is ever interpreted as HTML.
(function () {
  'use strict';
  var form = document.getElementById('signup');
  var statusLine = document.getElementById('status');
  var result = document.getElementById('result');
  var cards = document.getElementById('cards');

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      node.append(c instanceof Node ? c : String(c));
    });
    return node;
  }
  function value(v) {
    if (v === undefined || v === null || v === '') return el('span', { class: 'unknown' }, ['unknown']);
    return String(v);
  }
  function card(title, rows, wide) {
    var dl = el('dl');
    rows.forEach(function (r) {
      dl.append(el('dt', {}, [r[0]]), el('dd', {}, [value(r[1])]));
    });
    return el('section', { class: 'card' + (wide ? ' wide' : '') }, [el('h3', {}, [title]), dl]);
  }
  function flag(on) {
    return el('span', { class: 'flag ' + (on ? 'yes' : 'no') }, [on ? 'yes' : 'no']);
  }
  function place(loc) {
    return [loc.city, loc.state, loc.country_code].filter(Boolean).join(', ');
  }

  var SIGNALS = [
    ['device_risk', 'Automation or tampering'],
    ['datacenter', 'Data-centre network'],
    ['vpn', 'VPN'],
    ['proxy', 'Proxy'],
    ['tor', 'Tor'],
    ['spoofed_ip', 'Spoofed IP (WebRTC)'],
    ['recent_fraud_ip', 'Recent fraud from this IP'],
    ['impossible_travel', 'Impossible travel'],
    ['device_network_mismatch', 'Device/network mismatch'],
    ['location_spoofing', 'Location spoofing'],
  ];

  function signalsCard(s) {
    var rows = SIGNALS.concat([['ip_reputation', 'Bad history of this IP here']]).map(function (entry) {
      var score = s.risk_signal_scores[entry[0]];
      return el('tr', {}, [
        el('td', {}, [entry[1]]),
        el('td', {}, [flag(s.risk_signals[entry[0]])]),
        el('td', {}, [score === undefined ? '—' : score.toFixed(2)]),
      ]);
    });
    var details = s.risk_signal_details || {};
    var findings = [].concat(details.device || [], details.network || [], details.location || []);
    var table = el('table', {}, [
      el('thead', {}, [el('tr', {}, [el('th', {}, ['Signal']), el('th', {}, ['Raised']), el('th', {}, ['Score'])])]),
      el('tbody', {}, rows),
    ]);
    var box = el('section', { class: 'card wide' }, [el('h3', {}, ['Risk signals']), table]);
    box.append(el('p', {}, ['Findings: ', findings.length ? findings.join(', ') : 'none']));
    return box;
  }

  function score(x) {
    return x === undefined ? undefined : x.toFixed(2);
  }

  function decisionCard(e) {
    var box = card(
      'Decision',
      [
        ['Account score', score(e.account_score)],
        ['Bot', score(e.bot)],
        ['Risk signals', score(e.risk_signals)],
        ['Multiple accounts', score(e.multiple_accounts)],
        ['Linked accounts', e.accounts_linked],
        ['Lists', (e.lists || []).join(', ') || 'none'],
      ],
      true,
    );
    var verdict = el('p', { class: 'verdict ' + (e.decision === 'Fake' ? 'fake' : 'real') }, [e.decision]);
    verdict.id = 'decision';
    box.insertBefore(verdict, box.children[1]);
    (e.linked_accounts || []).slice(0, 5).forEach(function (l) {
      box.append(
        el('p', {}, ['Linked: ' + l.account_id + ' by ' + l.match_type.join(', ') + ' (' + score(l.score) + ')']),
      );
    });
    return box;
  }

  function emailCard(a) {
    var m = a.email;
    if (!m) return card('Email', [['Address', undefined]]);
    return card('Email', [
      ['Normalised', m.email],
      ['Valid', m.valid ? 'yes' : 'no'],
      ['Kind', m.domain_type],
      ['Email score', m.email_score.toFixed(2) + ' (−1 trusted … 1 risky)'],
      ['Risk signals', m.risk_signals.join(', ') || 'none'],
      ['Trust signals', m.trust_signals.join(', ') || 'none'],
      ['Accounts at domain', m.num_account_from_domain],
      ['Sessions of account', a.num_sessions],
    ]);
  }

  function render(e) {
    var s = e.session;
    var n = s.network || {},
      loc = s.location || {},
      b = s.browser || {},
      d = s.device || {},
      bot = s.bot || {};
    cards.replaceChildren(
      decisionCard(e),
      card('Session', [
        ['Session id', e.session_id],
        ['Started', s.start_time && new Date(s.start_time).toLocaleString()],
        ['Source', s.source],
        ['Device id', s.device_id],
        ['Account', e.account_id],
      ]),
      emailCard(e.account),
      card(
        'Network and location',
        [
          ['IP address', n.ip_address],
          ['Provider', n.service_provider],
          ['Connection', n.connection_type],
          ['AS number', n.asn],
          ['Subnet', n.subnet],
          ['Location', place(loc)],
          ['Continent', loc.continent],
          ['Time zone (IP)', loc.timezone],
          ['Coordinates', loc.latitude !== undefined ? loc.latitude + ', ' + loc.longitude : undefined],
        ].concat(
          loc.country_code
            ? []
            : [
                [
                  'Note',
                  'No location for this address: it is private or loopback (run Trustgate on a public address, or behind a proxy with TRUST_PROXY), or not in the IP data.',
                ],
              ],
        ),
      ),
      card('Browser', [
        ['Browser', [b.type, b.version].filter(Boolean).join(' ')],
        ['Language', b.language],
        ['Time zone (browser)', b.timezone],
        ['User agent', b.user_agent],
      ]),
      card('Device', [
        ['Category', d.category],
        ['Type', d.type],
        ['OS', d.os],
        ['CPU cores', d.cpu_cores],
        ['Memory', d.memory !== undefined ? d.memory + ' GB' : undefined],
        ['GPU', d.gpu],
        ['Screen', d.screen_width ? d.screen_width + ' × ' + d.screen_height : undefined],
      ]),
      card('Behaviour on this page', [
        ['Mouse events', bot.mouse_num_events],
        ['Clicks', bot.click_num_events],
        ['Key presses', bot.keyboard_num_events],
        ['Touches', bot.touch_num_events],
        ['Copy and paste', bot.clipboard_num_events],
      ]),
      signalsCard(s),
    );
    document.getElementById('raw').textContent = JSON.stringify(e, null, 2);
    result.hidden = false;
  }

  function setStatus(text, isError) {
    statusLine.textContent = text;
    statusLine.className = isError ? 'error' : '';
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var button = form.querySelector('button');
    button.disabled = true;
    setStatus('Asking Trustgate…');
    window.Trustgate.session()
      .then(function (handle) {
        return fetch('/demo/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            session_id: handle.session_id,
            email: form.elements.email.value,
            name: form.elements.name.value,
          }),
        });
      })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body.message || 'HTTP ' + response.status);
          return body.evaluation;
        });
      })
      .then(function (evaluation) {
        render(evaluation);
        setStatus('Done. Type or move the mouse and submit again to see the counts change.');
      })
      .catch(function (error) {
        setStatus(error.message, true);
      })
      .then(function () {
        button.disabled = false;
      });
  });

  document.getElementById('new-session').addEventListener('click', function () {
    window.Trustgate.reinitialize().then(
      function (handle) {
        result.hidden = true;
        setStatus('New session ' + handle.session_id + '.');
      },
      function (error) {
        setStatus(error.message, true);
      },
    );
  });
})();
