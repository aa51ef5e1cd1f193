// sluice serve's limiter pools (--pool-dir, --postgres-pool): renders /api/limiters, then follows
// /api/limiters/events. Drain and resume go through this section's own confirm dialog.
// Uses el(), clock() and tick() of console.js, which the page loads first.
'use strict';

const limiterView = { pools: [], canAct: false, pending: null };
const TRACE_ROWS = 15;

function limiterButton(label, action, p) {
  const b = el('button', { class: 'act-' + action, type: 'button', disabled: !limiterView.canAct,
    title: limiterView.canAct ? '' : 'read only: open the address with ?token= to act' }, label);
  b.addEventListener('click', () => askLimiter(action, p));
  return b;
}

function limiterTable(title, kind, head, items, cells) {
  const body = items.length === 0
    ? [el('tr', {}, el('td', { class: 'empty', colSpan: head.length }, 'none'))]
    : items.map(i => el('tr', { class: kind }, ...cells(i)));
  return [el('h3', {}, title), el('table', { class: 'limiter-' + kind },
    el('thead', {}, el('tr', {}, ...head.map(h => el('th', {}, h)))), el('tbody', {}, ...body))];
}

function num(v) { return el('td', { class: 'num' }, String(v)); }

function controlLine(p) {
  const parts = [];
  parts.push(p.draining ? 'draining (generation ' + p.generation + (p.settled ? ', settled' : '') + ')'
    : 'admitting' + (p.generation ? ' (last drain ' + p.generation + ')' : ''));
  parts.push('circuit ' + p.circuit.replace('_', '-'));
  if (p.cooldownUntil) parts.push('cooldown until ' + new Date(p.cooldownUntil).toLocaleTimeString());
  if (p.circuitOpenUntil) parts.push('open until ' + new Date(p.circuitOpenUntil).toLocaleTimeString());
  return parts.join(' · ');
}

function limiterCard(p) {
  const head = el('div', { class: 'pool-head' }, el('h2', {}, p.name),
    el('span', { class: 'dim' }, p.where));
  if (p.failure) {
    return el('div', { class: 'pool limiter', 'data-pool-dir': p.key }, head,
      el('p', { class: 'bad' }, 'cannot be read: ' + p.failure));
  }
  const cap = p.capacity === undefined ? 'unlimited' : String(p.capacity);
  const pct = p.capacity > 0 ? Math.min(100, 100 * p.activeWeight / p.capacity) : 0;
  const bar = el('span'); bar.style.width = pct + '%';
  head.append(el('span', { class: 'num used' }, p.activeWeight + ' / ' + cap + ' active'),
    el('div', { class: 'meter' }, bar),
    p.draining ? limiterButton('Resume…', 'resume', p) : limiterButton('Drain…', 'drain', p));
  const facts = el('table', { class: 'limiter-facts' }, el('tbody', {},
    el('tr', {}, el('th', {}, 'state'), el('td', { class: 'control' }, controlLine(p))),
    el('tr', {}, el('th', {}, 'reservoir'),
      el('td', { class: 'num' }, p.reservoir === undefined ? 'unlimited' : String(p.reservoir))),
    el('tr', {}, el('th', {}, 'next refill'), p.nextRefill ? clock(p.nextRefill, false)
      : el('td', { class: 'num' }, '-')),
    el('tr', {}, el('th', {}, 'queue'), num(p.queue.length))));
  return el('div', { class: 'pool limiter', 'data-pool-dir': p.key }, head, facts,
    ...limiterTable('Leases', 'lease', ['lease', 'owner', 'weight', 'fencing token', 'held', 'expires'],
      p.leases, l => [el('td', { class: 'id' }, String(l.leaseId)), el('td', { class: 'id' }, l.owner),
        num(l.weight), num(l.fencingToken), clock(l.grantedAt, true), clock(l.expiresAt, false)]),
    ...limiterTable('Queue', 'waiter', ['entry', 'owner', 'weight', 'waiting', 'deadline'],
      p.queue, w => [el('td', { class: 'id' }, String(w.entryId)), el('td', { class: 'id' }, w.owner),
        num(w.weight), clock(w.enqueuedAt, true), clock(w.queueDeadline, false)]),
    ...limiterTable('Trace', 'trace', ['time', 'event', 'lease', 'owner', 'active'],
      p.trace.slice().reverse().slice(0, TRACE_ROWS), e => [
        el('td', { class: 'num' }, new Date(e.at).toLocaleTimeString()), el('td', {}, e.kind),
        el('td', { class: 'id' }, e.leaseId ? String(e.leaseId) : ''),
        el('td', { class: 'id' }, e.owner), num(e.activeWeight)]));
}

function renderLimiters() {
  const section = document.getElementById('limiters');
  section.hidden = limiterView.pools.length === 0;
  document.getElementById('limiter-pools').replaceChildren(...limiterView.pools.map(limiterCard));
  tick();
}

function askLimiter(action, p) {
  limiterView.pending = { action, key: p.key, generation: p.generation };
  document.getElementById('limiter-confirm-title').textContent = 'Confirm: ' + action;
  document.getElementById('limiter-confirm-text').textContent = action === 'drain'
    ? 'Drain limiter pool ' + p.name + ' (' + p.where + ')? Every process gets'
      + ' PoolDrainingException for new work; work already admitted goes on.'
    : 'Resume limiter pool ' + p.name + ' (drain generation ' + p.generation + ')? New work is'
      + ' admitted again.';
  document.getElementById('limiter-confirm-error').hidden = true;
  document.getElementById('limiter-confirm').showModal();
}

async function limiterConfirmed() {
  const { action, key, generation } = limiterView.pending;
  const body = action === 'drain' ? { pool: key } : { pool: key, generation };
  const yes = document.getElementById('limiter-confirm-yes');
  yes.disabled = true;
  try {
    const r = await fetch('/api/limiters/' + action, { method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await r.json();
    if (!r.ok) throw new Error(answer.message || r.statusText);
    document.getElementById('limiter-confirm').close();
  } catch (e) {
    const err = document.getElementById('limiter-confirm-error');
    err.textContent = String(e.message || e);
    err.hidden = false;
  } finally {
    yes.disabled = false;
  }
}

async function startLimiters() {
  document.getElementById('limiter-confirm-yes').addEventListener('click', limiterConfirmed);
  const r = await fetch('/api/limiters', { credentials: 'same-origin' });
  const first = await r.json();
  limiterView.canAct = first.canAct;
  limiterView.pools = first.pools;
  renderLimiters();
  if (first.pools.length === 0) return;
  const source = new EventSource('/api/limiters/events');
  source.addEventListener('limiters', m => {
    limiterView.pools = JSON.parse(m.data).pools;
    renderLimiters();
  });
}

document.addEventListener('DOMContentLoaded', startLimiters);
