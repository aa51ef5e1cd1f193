// sluice serve's console: renders /api/status, then follows /api/events (server-sent events).
// Every change goes through the confirm dialog; the server checks the token cookie and origin.
'use strict';

const view = { pools: [], events: [], skew: 0, canAct: false };
const MOST_EVENTS = 200;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else if (k.startsWith('data-')) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function serverNow() { return Date.now() + view.skew; }

function human(ms) {
  if (ms < 0) return 'now';
  const s = Math.floor(ms / 1000);
  if (s < 60) return s + 's';
  const m = Math.floor(s / 60);
  if (m < 60) return m + 'm ' + String(s % 60).padStart(2, '0') + 's';
  const h = Math.floor(m / 60);
  return h + 'h ' + String(m % 60).padStart(2, '0') + 'm';
}

// A cell that counts down to `at` (or up from it with up=true), redrawn each second by tick().
function clock(at, up) {
  if (!at) return el('td', { class: 'num' }, '');
  return el('td', { class: 'num', 'data-at': String(Date.parse(at)), 'data-up': up ? '1' : '' });
}

function tick() {
  for (const c of document.querySelectorAll('td[data-at]')) {
    const at = Number(c.getAttribute('data-at'));
    c.textContent = c.getAttribute('data-up') ? human(serverNow() - at) : 'in ' + human(at - serverNow());
  }
}

function button(label, action, ticket, extra) {
  const b = el('button', { class: 'act-' + action, type: 'button', disabled: !view.canAct,
    title: view.canAct ? '' : 'read only: open the address with ?token= to act' }, label);
  b.addEventListener('click', () => ask(action, ticket, extra));
  return b;
}

function who(t) { return t.label ? t.label : ''; }

function rows(kind, tickets, columns, actions) {
  if (tickets.length === 0) return [el('tr', {}, el('td', { class: 'empty', colSpan: 8 }, 'none'))];
  return tickets.map(t => el('tr', { class: kind, 'data-request-id': t.requestId },
    el('td', { class: 'id' }, t.requestId), el('td', {}, who(t)), el('td', {}, t.agentId),
    ...columns(t), el('td', { class: 'actions' }, ...actions(t))));
}

function table(title, kind, head, trs) {
  return [el('h3', {}, title),
    el('table', { class: 'tickets ' + kind },
      el('thead', {}, el('tr', {}, ...['request', 'label', 'agent', ...head, ''].map(h => el('th', {}, h)))),
      el('tbody', {}, ...trs))];
}

function poolCard(p) {
  const pct = p.capacity > 0 ? Math.min(100, 100 * p.used / p.capacity) : 0;
  const bar = el('span'); bar.style.width = pct + '%';
  const held = rows('held', p.holders, t => [
    el('td', { class: 'num' }, t.process ? String(t.process.pid) : '-'),
    el('td', { class: 'num' }, String(t.weight)),
    clock(t.since, true),
    clock(t.phase === 'claimed' ? t.startDeadline
      : t.phase === 'running_untracked' ? t.leaseDeadline : null, false),
  ], t => [button('Release', 'release', t), ' ', button('Kill & release', 'kill', t)]);
  const offers = rows('offered', p.offers, t => [
    el('td', { class: 'num' }, String(t.weight)), clock(t.offerExpiresAt, false),
  ], t => [button('Cancel', 'cancel', t)]);
  const queue = rows('queued', p.queue, t => [
    el('td', { class: 'num' }, String(t.position || '')), el('td', { class: 'num' }, String(t.weight)),
    clock(t.since, true),
  ], t => [button('Cancel', 'cancel', t)]);
  const paused = rows('paused', p.paused, t => [
    el('td', {}, t.endReason || ''), clock(t.since, true),
  ], t => [button('Cancel', 'cancel', t)]);
  return el('div', { class: 'pool', 'data-pool': p.name },
    el('div', { class: 'pool-head' },
      el('h2', {}, p.name), el('span', { class: 'num used' }, p.used + ' / ' + p.capacity + ' used'),
      el('div', { class: 'meter' }, bar),
      el('span', { class: 'dim' }, p.queued + ' queued'),
      button('Capacity…', 'capacity', null, p)),
    ...table('Holders', 'held', ['pid', 'weight', 'running', 'deadline'], held),
    ...table('Offers', 'offered', ['weight', 'expires'], offers),
    ...table('Queue', 'queued', ['#', 'weight', 'waiting'], queue),
    ...table('Paused', 'paused', ['why', 'since'], paused));
}

function render() {
  const pools = document.getElementById('pools');
  pools.replaceChildren(...(view.pools.length ? view.pools.map(poolCard)
    : [el('p', { class: 'empty' }, 'No pools yet: sluice pool set NAME --capacity N makes one.')]));
  const body = document.querySelector('#events tbody');
  body.replaceChildren(...view.events.slice().reverse().slice(0, 50).map(e =>
    el('tr', { 'data-type': e.type },
      el('td', { class: 'num' }, new Date(e.at).toLocaleTimeString()), el('td', {}, e.type),
      el('td', {}, e.pool), el('td', {}, e.label || e.requestId || e.agentId),
      el('td', {}, e.detail))));
  document.getElementById('readonly').hidden = view.canAct;
  tick();
}

function take(snapshot) {
  view.pools = snapshot.pools;
  view.skew = Date.parse(snapshot.readAt) - Date.now();
  view.events = snapshot.reset ? snapshot.events : view.events.concat(snapshot.events);
  if (view.events.length > MOST_EVENTS) view.events = view.events.slice(-MOST_EVENTS);
  render();
}

// The confirm step: nothing is sent until the user presses Confirm in the dialog.
let pending = null;

function ask(action, t, pool) {
  const name = t ? t.requestId + (t.label ? ' "' + t.label + '"' : '') + ' in pool ' + t.pool : '';
  const text = {
    cancel: 'Cancel ' + name + '? It stops waiting and never runs.',
    release: 'Force-release ' + name + '? Its slot is freed; a process that still runs'
      + ' over-subscribes the pool until it ends.',
    kill: 'Kill ' + name + '? Its process group gets SIGTERM (SIGKILL after 10 s), then its'
      + ' slot is released.',
    capacity: pool ? 'Change the capacity of pool ' + pool.name + ' (now ' + pool.capacity
      + ')? Nothing is preempted.' : '',
  }[action];
  pending = { action, t, pool };
  document.getElementById('confirm-title').textContent = 'Confirm: ' + action;
  document.getElementById('confirm-text').textContent = text;
  document.getElementById('confirm-capacity-row').hidden = action !== 'capacity';
  document.getElementById('confirm-capacity').value = pool ? pool.capacity : '';
  document.getElementById('confirm-reason').value = '';
  document.getElementById('confirm-error').hidden = true;
  document.getElementById('confirm').showModal();
}

async function confirmed() {
  const { action, t, pool } = pending;
  const reason = document.getElementById('confirm-reason').value;
  const call = {
    cancel: ['/api/cancel', { requestId: t && t.requestId }],
    release: ['/api/force-release', { requestId: t && t.requestId, kill: false, reason }],
    kill: ['/api/force-release', { requestId: t && t.requestId, kill: true, reason }],
    capacity: ['/api/capacity', { pool: pool && pool.name, reason,
      capacity: Number(document.getElementById('confirm-capacity').value) }],
  }[action];
  const yes = document.getElementById('confirm-yes');
  yes.disabled = true;
  try {
    const r = await fetch(call[0], { method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(call[1]) });
    const answer = await r.json();
    if (!r.ok) throw new Error(answer.message || r.statusText);
    document.getElementById('confirm').close();
    const notice = document.getElementById('notice');
    notice.textContent = 'Done: ' + action + (t ? ' ' + t.requestId : ' ' + pool.name);
    notice.hidden = false;
  } catch (e) {
    const err = document.getElementById('confirm-error');
    err.textContent = String(e.message || e);
    err.hidden = false;
  } finally {
    yes.disabled = false;
  }
}

function follow() {
  const live = document.getElementById('live');
  const source = new EventSource('/api/events');
  source.addEventListener('snapshot', m => {
    live.textContent = 'live'; live.classList.remove('off');
    document.getElementById('failure').hidden = true;
    take(JSON.parse(m.data));
  });
  source.addEventListener('failure', m => {
    const f = document.getElementById('failure');
    f.textContent = 'The gate cannot be read: ' + JSON.parse(m.data).message;
    f.hidden = false;
  });
  source.onerror = () => { live.textContent = 'reconnecting'; live.classList.add('off'); };
}

async function start() {
  document.getElementById('confirm-yes').addEventListener('click', confirmed);
  const r = await fetch('/api/status', { credentials: 'same-origin' });
  const status = await r.json();
  view.canAct = status.canAct;
  document.getElementById('home').textContent = status.home;
  take(status);
  follow();
  setInterval(tick, 1000);
}

document.addEventListener('DOMContentLoaded', start);
