// sluice serve's workflow view: lists /api/workflows, shows one execution's steps, timer and
// wait, and re-reads both on each 'workflows' event of /api/workflows/events (sent when the
// store reports a change). Cancel goes through its own confirm dialog; the server checks the
// token cookie and origin. Shares nothing with console.js but the page.
'use strict';

(() => {
  const STATUSES = ['queued', 'running', 'waiting', 'completed', 'failed', 'cancelled', 'timed_out'];
  const wf = { status: '', q: '', shown: 50, selected: null, canAct: false, counts: {},
    reading: false, again: false, cancelling: null };

  function $(id) { return document.getElementById(id); }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v; else if (k.startsWith('data-')) e.setAttribute(k, v);
      else e[k] = v;
    }
    for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  }

  function when(iso) { return iso ? new Date(iso).toLocaleString() : ''; }

  function listUrl() {
    const p = new URLSearchParams({ limit: String(wf.shown) });
    if (wf.status) p.set('status', wf.status);
    if (wf.q) p.set('q', wf.q);
    return '/api/workflows?' + p;
  }

  function statusBar() {
    const total = STATUSES.reduce((n, s) => n + (wf.counts[s] || 0), 0);
    const pick = (s, label, n) => {
      const b = el('button', { type: 'button', class: wf.status === s ? 'on' : '',
        'data-status': s || 'all' }, label + ' (' + n + ')');
      b.addEventListener('click', () => { wf.status = s; wf.shown = 50; read(); });
      return b;
    };
    $('wf-statuses').replaceChildren(pick('', 'all', total),
      ...STATUSES.map(s => pick(s, s.replace('_', ' '), wf.counts[s] || 0)));
  }

  function cancelButton(e) {
    if (['completed', 'failed', 'cancelled', 'timed_out'].includes(e.status)) return '';
    const b = el('button', { type: 'button', class: 'wf-cancel', disabled: !wf.canAct,
      title: wf.canAct ? '' : 'read only: open the address with ?token= to act' }, 'Cancel…');
    b.addEventListener('click', ev => { ev.stopPropagation(); ask(e); });
    return b;
  }

  function rows(list) {
    if (list.length === 0) {
      return [el('tr', {}, el('td', { class: 'empty', colSpan: 6 }, 'no executions'))];
    }
    return list.map(e => {
      const tr = el('tr', { class: 'wf-row' + (e.id === wf.selected ? ' selected' : ''),
        'data-execution-id': e.id, 'data-status': e.status },
        el('td', { class: 'id' }, e.id), el('td', {}, e.workflow + ' v' + e.version),
        el('td', { class: 'status-' + e.status }, e.status), el('td', {}, when(e.createdAt)),
        el('td', {}, when(e.updatedAt)), el('td', { class: 'actions' }, cancelButton(e)));
      tr.addEventListener('click', () => { wf.selected = e.id; read(); });
      return tr;
    });
  }

  function failureText(f) {
    return f.className + (f.message ? ': ' + f.message : '') + '\n  at ' + f.frames.join('\n  at ');
  }

  function stepDetail(s) {
    switch (s.outcome) {
      case 'value': return el('pre', {}, s.value);
      case 'failed': return el('pre', { class: 'bad' }, 'after ' + s.attempts + ' attempt(s): '
        + failureText(s.failure));
      case 'retrying': return el('pre', { class: 'bad' }, 'attempt ' + s.attempts + ' failed, next at '
        + when(s.retryAt) + ': ' + failureText(s.failure));
      case 'sleep': return el('span', {}, 'until ' + when(s.wakeAt));
      case 'snapshot': return el('pre', {}, s.store + '/' + s.documentId + ' v' + s.documentVersion
        + ': ' + s.value);
      default: return '';
    }
  }

  function details(d) {
    const parts = [el('h3', {}, 'Execution ' + d.id + ' — ' + d.status),
      el('p', {}, 'input ', el('code', {}, d.input))];
    if (d.output !== undefined) parts.push(el('p', {}, 'output ', el('code', {}, d.output)));
    if (d.failure) parts.push(el('pre', { class: 'bad wf-failure' }, failureText(d.failure)));
    if (d.timer) parts.push(el('p', { class: 'wf-timer' }, 'timer due ' + when(d.timer.dueAt)));
    if (d.deadlineAt) parts.push(el('p', {}, 'deadline ' + when(d.deadlineAt)));
    if (d.wait) {
      parts.push(el('p', { class: 'wf-wait' }, 'waits in step ' + d.wait.stepKey + ' on store '
        + d.wait.store + ', document ' + d.wait.documentId + ' (paths ' + d.wait.paths.join(', ')
        + ', newer than v' + d.wait.sinceVersion + ')'));
    }
    parts.push(el('table', { class: 'wf-steps' },
      el('thead', {}, el('tr', {}, ...['#', 'step', 'kind', 'outcome', 'detail', 'recorded']
        .map(h => el('th', {}, h)))),
      el('tbody', {}, ...(d.steps.length ? d.steps.map(s => el('tr', { 'data-step': s.key },
        el('td', { class: 'num' }, String(s.position)), el('td', { class: 'id' }, s.key),
        el('td', {}, s.kind), el('td', {}, s.outcome), el('td', {}, stepDetail(s)),
        el('td', {}, when(s.recordedAt))))
        : [el('tr', {}, el('td', { class: 'empty', colSpan: 6 }, 'no steps recorded'))]))));
    return parts;
  }

  // One read at a time; a change during a read asks for one more read after it.
  async function read() {
    if (wf.reading) { wf.again = true; return; }
    wf.reading = true;
    try {
      do {
        wf.again = false;
        const r = await fetch(listUrl(), { credentials: 'same-origin' });
        const page = await r.json();
        if (!r.ok) throw new Error(page.message || r.statusText);
        wf.canAct = page.canAct;
        wf.counts = page.counts;
        $('wf-store').textContent = page.store;
        statusBar();
        $('wf-executions').tBodies[0].replaceChildren(...rows(page.executions));
        $('wf-more').hidden = !page.nextCursor;
        const box = $('wf-details');
        if (wf.selected) {
          const d = await fetch('/api/workflows/execution?id=' + encodeURIComponent(wf.selected),
            { credentials: 'same-origin' });
          box.replaceChildren(...(d.ok ? details(await d.json()) : [el('p', { class: 'empty' },
            'execution ' + wf.selected + ' is gone')]));
          box.hidden = false;
        } else {
          box.hidden = true;
        }
      } while (wf.again);
    } catch (e) {
      $('wf-details').replaceChildren(el('p', { class: 'bad' }, 'cannot read workflows: ' + e.message));
      $('wf-details').hidden = false;
    } finally {
      wf.reading = false;
    }
  }

  function ask(e) {
    wf.cancelling = e;
    $('wf-confirm-text').textContent = 'Cancel execution ' + e.id + ' of workflow ' + e.workflow
      + ' (now ' + e.status + ')? It runs no further step; a step running now is not recorded.';
    $('wf-confirm-error').hidden = true;
    $('wf-confirm').showModal();
  }

  async function confirmed() {
    const yes = $('wf-confirm-yes');
    yes.disabled = true;
    try {
      const r = await fetch('/api/workflows/cancel', { method: 'POST', credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: wf.cancelling.id }) });
      const answer = await r.json();
      if (!r.ok) throw new Error(answer.message || r.statusText);
      $('wf-confirm').close();
      read();
    } catch (e) {
      $('wf-confirm-error').textContent = String(e.message || e);
      $('wf-confirm-error').hidden = false;
    } finally {
      yes.disabled = false;
    }
  }

  async function start() {
    const r = await fetch('/api/workflows?limit=1', { credentials: 'same-origin' });
    if (r.status === 404) return; // sluice serve was started without a workflow store
    $('workflows').hidden = false;
    $('wf-confirm-yes').addEventListener('click', confirmed);
    $('wf-more').addEventListener('click', () => { wf.shown = Math.min(500, wf.shown + 50); read(); });
    let typing = null;
    $('wf-search').addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => { wf.q = $('wf-search').value.trim(); wf.shown = 50; read(); }, 250);
    });
    await read();
    new EventSource('/api/workflows/events').addEventListener('workflows', () => read());
  }

  document.addEventListener('DOMContentLoaded', start);
})();
