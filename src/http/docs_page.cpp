#include "http/docs_page.hpp"

namespace cadastre::http {
namespace {
constexpr std::string_view kPage = R"__html__(<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>@TITLE@ — documentação</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
header{background:#12324a;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}
main{max-width:1100px;margin:0 auto;padding:16px 24px}
.auth{background:#fff;border:1px solid #d5dae1;border-radius:6px;padding:10px 14px;margin-bottom:16px}
.auth input{width:60%;font-family:monospace}
h2{font-size:17px;border-bottom:2px solid #12324a;padding-bottom:4px;margin-top:28px}
details{background:#fff;border:1px solid #d5dae1;border-radius:6px;margin:6px 0}
summary{cursor:pointer;padding:8px 12px;font-family:monospace}
.m{display:inline-block;min-width:62px;font-weight:bold;color:#fff;border-radius:4px;text-align:center;margin-right:8px;padding:1px 4px}
.GET{background:#2f7ed8}.POST{background:#2e9e5b}.PUT{background:#c98a12}.DELETE{background:#c8433b}.PATCH{background:#7a52c7}
.body{padding:4px 14px 12px}.lock{color:#8a5a00}
label{display:block;margin:4px 0}label span{display:inline-block;min-width:170px;font-family:monospace}
textarea{width:100%;min-height:90px;font-family:monospace}
pre{background:#0f1720;color:#d7e3f0;padding:10px;border-radius:4px;overflow:auto;max-height:420px}
button{background:#12324a;color:#fff;border:0;border-radius:4px;padding:6px 14px;cursor:pointer}
</style></head><body>
<header><h1>@TITLE@</h1><div id="desc"></div></header>
<main>
<div class="auth"><b>Credencial</b> (Authorization: Bearer …): <input id="token" placeholder="token"> 
<button onclick="localStorage.setItem('cadastre_token',document.getElementById('token').value)">guardar</button></div>
<div id="ops">carregando contrato…</div>
</main>
<script>
const SPEC = "@OPENAPI@";
const esc = s => String(s).replace(/[&<>"]/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
document.getElementById('token').value = localStorage.getItem('cadastre_token') || '';
fetch(SPEC).then(r => r.json()).then(spec => {
  document.getElementById('desc').textContent = spec.info.description || '';
  const groups = {};
  for (const [path, ops] of Object.entries(spec.paths))
    for (const [method, op] of Object.entries(ops))
      (groups[(op.tags || ['Outros'])[0]] ||= []).push({path, method: method.toUpperCase(), op});
  const root = document.getElementById('ops'); root.innerHTML = '';
  Object.keys(groups).sort().forEach(tag => {
    const h = document.createElement('h2'); h.textContent = tag; root.appendChild(h);
    groups[tag].forEach(({path, method, op}, i) => root.appendChild(operation(path, method, op)));
  });
}).catch(e => { document.getElementById('ops').textContent = 'falha ao ler ' + SPEC + ': ' + e; });

function operation(path, method, op) {
  const d = document.createElement('details');
  const secured = (op.security || []).length > 0;
  d.innerHTML = `<summary><span class="m ${method}">${method}</span>${esc(path)} — ${esc(op.summary || '')}` +
    (secured ? ` <span class="lock" title="requer credencial">🔒 ${esc(Object.keys(op.security[0])[0])}</span>` : '') + `</summary>`;
  const body = document.createElement('div'); body.className = 'body';
  const inputs = [];
  for (const p of op.parameters || []) {
    const l = document.createElement('label');
    l.innerHTML = `<span>${esc(p.name)}${p.required ? '*' : ''} (${p.in})</span>`;
    const i = document.createElement('input'); i.placeholder = p.description || p.schema.type; l.appendChild(i);
    inputs.push([p, i]); body.appendChild(l);
  }
  let ta = null;
  if (op.requestBody) {
    const l = document.createElement('label'); l.innerHTML = `<span>corpo</span> ${esc(op.requestBody.description || '')}`;
    ta = document.createElement('textarea'); ta.value = '{}'; l.appendChild(ta); body.appendChild(l);
  }
  const btn = document.createElement('button'); btn.textContent = 'Executar';
  const out = document.createElement('pre'); out.hidden = true;
  btn.onclick = async () => {
    let url = path; const q = new URLSearchParams(); const headers = {};
    for (const [p, i] of inputs) {
      if (!i.value) continue;
      if (p.in === 'path') url = url.replace('{' + p.name + '}', p.name === 'path' || p.name === 'rest' ? i.value : encodeURIComponent(i.value));
      else if (p.in === 'header') headers[p.name] = i.value; else q.append(p.name, i.value);
    }
    const tok = document.getElementById('token').value;
    if (tok) headers['Authorization'] = 'Bearer ' + tok;
    const init = {method, headers};
    if (ta) { headers['Content-Type'] = 'application/json'; init.body = ta.value; }
    const qs = q.toString(); const t0 = performance.now();
    try {
      const r = await fetch(url + (qs ? '?' + qs : ''), init);
      const text = await r.text(); let shown = text;
      try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (_) {}
      out.textContent = `${r.status} ${r.statusText} (${Math.round(performance.now() - t0)} ms)\n\n` + shown.slice(0, 200000);
    } catch (e) { out.textContent = 'erro: ' + e; }
    out.hidden = false;
  };
  body.appendChild(btn); body.appendChild(out); d.appendChild(body);
  return d;
}
</script></body></html>
)__html__";

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (std::size_t i = s.find(from); i != std::string::npos; i = s.find(from, i + to.size())) s.replace(i, from.size(), to);
}

std::string html_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}
}  // namespace

std::string docs_page(std::string_view title, std::string_view openapi_path) {
  std::string page(kPage);
  replace_all(page, "@TITLE@", html_escape(title));
  replace_all(page, "@OPENAPI@", html_escape(openapi_path));
  return page;
}

}  // namespace cadastre::http
