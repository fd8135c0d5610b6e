// The console's router: hash routes (#/, #/topics, #/topics/<name>, #/groups, #/groups/<id>), one page at a time.

import { clear, errorBox, h } from './ui.js';
import { overviewPage } from './overview.js';
import { topicsPage } from './topics.js';
import { topicPage } from './topic.js';
import { groupsPage } from './groups.js';
import { groupPage } from './group.js';

const routes = [
  [/^\/?$/, 'overview', () => overviewPage],
  [/^\/topics\/?$/, 'topics', () => topicsPage],
  [/^\/topics\/([^/]+)$/, 'topics', () => topicPage],
  [/^\/groups\/?$/, 'groups', () => groupsPage],
  [/^\/groups\/([^/]+)$/, 'groups', () => groupPage],
];

let current = null;

function route() {
  if (current) current.stop();
  const main = document.getElementById('main');
  const path = location.hash.replace(/^#/, '') || '/';
  let page = null;
  let nav = null;
  let args = [];
  for (const [re, section, get] of routes) {
    const m = re.exec(path);
    if (m) {
      page = get();
      nav = section;
      try {
        args = m.slice(1).map(decodeURIComponent);
      } catch (e) {
        page = null;
      }
      break;
    }
  }
  for (const a of document.querySelectorAll('[data-nav]')) {
    if (a.dataset.nav === nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const timers = [];
  const ctx = {
    live: true,
    every(ms, fn) {
      timers.push(setInterval(() => {
        if (ctx.live && !document.hidden) fn();
      }, ms));
    },
    stop() {
      ctx.live = false;
      timers.forEach(clearInterval);
    },
  };
  current = ctx;
  if (!page) {
    document.title = 'Not found · kaas console';
    clear(main, h('h1', { text: 'Not found' }),
      h('p', {}, 'The console has no page at ', h('code', { text: '#' + path }), '. ', h('a', { href: '#/' }, 'Overview')));
    return;
  }
  clear(main, h('p', { class: 'muted', text: 'Loading…' }));
  Promise.resolve()
    .then(() => page(main, ctx, ...args))
    .catch(err => {
      if (ctx.live) clear(main, h('h1', { text: 'Something went wrong' }), errorBox(err));
    });
}

window.addEventListener('hashchange', () => {
  route();
  const main = document.getElementById('main');
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
});
route();
