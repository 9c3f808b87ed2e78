/**
 * The hosted page's stylesheet, inlined (no external file or font: a system font stack). Mobile
 * first: one column, full-width buttons of at least 44px; from 52rem the steps move to a column
 * beside the current step. Colours meet WCAG AA contrast on their backgrounds (text ≥ 4.5:1).
 */
export const STYLE = `
:root{--bg:#eef1f5;--card:#fff;--text:#111827;--muted:#4b5563;--line:#d1d5db;--accent:#1d4ed8;--accent-dark:#1e3a8a;
--accent-soft:#e8efff;--ok:#047857;--ok-soft:#e7f6ef;--err:#b91c1c;--err-soft:#fdeeee;--radius:14px;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;line-height:1.45;color:var(--text)}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:var(--bg);-webkit-text-size-adjust:100%}
h1,h2,p{margin:0}
.shell{max-width:62rem;margin:0 auto;padding:0 0 1.5rem}
.brand{display:flex;align-items:center;gap:.75rem;padding:.9rem 1rem}
.logo{flex:none;display:grid;place-items:center;width:2.5rem;height:2.5rem;border-radius:10px;background:var(--accent);
color:#fff;font-weight:700;font-size:1.15rem}
.project{font-weight:700;font-size:1.05rem;overflow-wrap:anywhere}
.sub{color:var(--muted);font-size:.875rem}
.card{background:var(--card);border-radius:var(--radius) var(--radius) 0 0;padding:1.25rem 1rem 1.5rem;
box-shadow:0 1px 3px rgba(17,24,39,.08)}
.intro h1{font-size:1.35rem;line-height:1.25}
.intro>p{color:var(--muted);margin-top:.35rem}
.steps{list-style:none;display:flex;gap:.5rem;margin:1rem 0 .6rem;padding:0}
.steps li{flex:1;min-width:0;display:flex;flex-direction:column;align-items:center;gap:.3rem;text-align:center;
font-size:.8rem;color:var(--muted)}
.dot{display:grid;place-items:center;width:1.9rem;height:1.9rem;border-radius:50%;border:2px solid var(--line);
background:var(--card);font-weight:700;font-size:.85rem}
.steps [aria-current]{color:var(--text);font-weight:600}
.steps [aria-current] .dot{border-color:var(--accent);background:var(--accent);color:#fff}
.steps .is-done .dot{border-color:var(--ok);background:var(--ok);color:#fff}
.steps .is-done .dot span{display:none}
.steps .is-done .dot::after{content:"\\2713"}
progress{display:block;width:100%;height:.4rem;border:0;border-radius:1rem;background:var(--line);overflow:hidden;
-webkit-appearance:none;appearance:none}
progress::-webkit-progress-bar{background:var(--line)}
progress::-webkit-progress-value{background:var(--accent)}
progress::-moz-progress-bar{background:var(--accent)}
.stage{margin-top:1.25rem}
.step h2,.done h2{font-size:1.15rem;line-height:1.3}
.count{display:block;font-size:.8rem;font-weight:600;color:var(--accent);text-transform:uppercase;letter-spacing:.04em}
.hint{color:var(--muted);margin:.35rem 0 .9rem}
.frame{position:relative;display:grid;place-items:center;width:100%;aspect-ratio:4/3;max-height:52vh;overflow:hidden;
border:2px dashed #9ca3af;border-radius:var(--radius);background:#f5f7fa}
.frame-selfie{aspect-ratio:1}
.frame.live{border:2px solid var(--text);background:#111827}
.frame video{position:absolute;inset:0;width:100%;height:100%;object-fit:cover}
.frame-selfie video{transform:scaleX(-1)}
.guide{position:absolute;width:84%;aspect-ratio:1.586;border:3px solid rgba(255,255,255,.95);border-radius:12px;
box-shadow:0 0 0 100vmax rgba(17,24,39,.35)}
.frame-selfie .guide{width:auto;height:82%;aspect-ratio:.78;border-radius:50%}
.placeholder{display:flex;flex-direction:column;align-items:center;gap:.6rem;padding:1rem;text-align:center;
color:var(--muted);max-width:22rem}
.placeholder svg{width:3.5rem;height:3.5rem;color:var(--accent)}
.placeholder.is-error svg{color:var(--err)}
.placeholder.is-error p{color:var(--err)}
.actions{display:flex;flex-direction:column;gap:.6rem;margin-top:1rem}
.btn{display:flex;align-items:center;justify-content:center;min-height:2.9rem;width:100%;padding:.65rem 1.1rem;
border-radius:10px;border:2px solid var(--accent);background:var(--card);color:var(--accent);font:inherit;
font-weight:600;text-align:center;cursor:pointer;-webkit-tap-highlight-color:transparent}
.btn.primary{background:var(--accent);color:#fff}
.btn:hover{border-color:var(--accent-dark)}
.btn.primary:hover{background:var(--accent-dark)}
.btn:disabled,.file.is-disabled{border-color:var(--line);background:#f3f4f6;color:#6b7280;cursor:not-allowed}
.upload{position:absolute;width:1px;height:1px;opacity:0;overflow:hidden}
:focus-visible,.upload:focus-visible+.file{outline:3px solid var(--accent);outline-offset:3px}
.upload:focus-visible+.file{border-color:var(--accent-dark)}
h2:focus{outline:none}
.status{display:flex;gap:.6rem;align-items:flex-start;margin-top:1.1rem;padding:.75rem .9rem;border-radius:10px;
background:var(--accent-soft);color:var(--accent-dark);overflow-wrap:anywhere}
.status[data-tone=error]{background:var(--err-soft);color:var(--err)}
.status[data-tone=success]{background:var(--ok-soft);color:var(--ok)}
.status[data-tone=busy]::before{content:"";flex:none;width:1.1rem;height:1.1rem;margin-top:.1rem;border-radius:50%;
border:3px solid currentColor;border-right-color:transparent;animation:spin .8s linear infinite}
@keyframes spin{to{transform:rotate(1turn)}}
.done{text-align:center;padding:1.5rem .5rem}
.done-icon{display:grid;place-items:center;width:4rem;height:4rem;margin:0 auto 1rem;border-radius:50%;
background:var(--ok-soft);color:var(--ok)}
.done-icon svg{width:2.25rem;height:2.25rem}
.done[data-tone=error] .done-icon{background:var(--err-soft);color:var(--err)}
.done h1,.done h2{font-size:1.25rem}
.done p{color:var(--muted);margin-top:.4rem}
.done .btn{margin-top:1.25rem}
.icon-end,.done[data-tone=error] .icon-ok{display:none}
.done[data-tone=error] .icon-end{display:inline}
.card.solo{display:block;max-width:32rem;margin:1.5rem 1rem 0;border-radius:var(--radius)}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);
white-space:nowrap;border:0}
.leave{margin-top:1.5rem;padding-top:1rem;border-top:1px solid var(--line);text-align:center}
.link{min-height:2.75rem;padding:.5rem 1rem;border:0;background:none;color:var(--muted);font:inherit;
text-decoration:underline;cursor:pointer}
.link:disabled{color:#6b7280;cursor:not-allowed;text-decoration:none}
.privacy{padding:1rem;color:var(--muted);font-size:.8rem;text-align:center}
[hidden]{display:none!important}
@media (min-width:52rem){
.shell{padding:1.5rem 1.5rem 2rem}
.brand{padding:0 0 1rem}
.card{display:grid;grid-template-columns:16rem 1fr;gap:2.5rem;border-radius:var(--radius);padding:2rem}
.steps{flex-direction:column;gap:.9rem;margin:1.5rem 0 1rem}
.steps li{flex-direction:row;text-align:left;gap:.7rem;font-size:.95rem}
.stage{margin-top:0;grid-column:2;grid-row:1/span 2;border-left:1px solid var(--line);padding-left:2.5rem}
.actions{flex-direction:row;flex-wrap:wrap}
.actions .btn{width:auto;flex:1 1 12rem}
.frame,.frame-selfie{aspect-ratio:16/10;max-height:none}
.leave{grid-column:1;grid-row:2;align-self:end;margin-top:0;border-top:0;text-align:left;padding-top:0}
.link{padding-left:0}
.card.solo{margin:1.5rem auto 0}
}
@media (prefers-reduced-motion:reduce){*{animation-duration:2s!important;transition:none!important}}
`;
