// Consumer groups: state, protocol, members and total lag of each.

import { api, enc } from './api.js';
import { clear, errorBox, fmtNumber, h, table } from './ui.js';

export async function groupsPage(main, ctx) {
  document.title = 'Consumer groups · kaas console';
  const results = h('div', { id: 'groups-result', 'aria-live': 'polite' });
  const refresh = h('button', { type: 'button', class: 'secondary', onclick: () => load() }, 'Refresh');
  clear(main, h('div', { class: 'page-head' }, h('h1', { text: 'Consumer groups' }), refresh), results);
  async function load() {
    try {
      const r = await api.get('/groups');
      if (ctx.live) clear(results, ...(r.errors || []).map(e => h('p', { class: 'error', text: e.error })),
        render(r.groups || []));
    } catch (err) {
      if (ctx.live) clear(results, errorBox(err));
    }
  }
  await load();
  ctx.every(10000, load);
}

function render(groups) {
  const rows = groups.slice().sort((a, b) => a.groupId.localeCompare(b.groupId)).map(g => [
    h('a', { href: '#/groups/' + enc(g.groupId) }, g.groupId),
    h('span', { class: `state state-${String(g.state).toLowerCase()}`, text: g.state || '–' }),
    g.protocol || '–', g.protocolType || '–', fmtNumber(g.members),
    g.totalLag === null || g.totalLag === undefined ? '–' : fmtNumber(g.totalLag),
  ]);
  return table([{ label: 'Group' }, { label: 'State' }, { label: 'Protocol' }, { label: 'Protocol type' },
    { label: 'Members', num: true }, { label: 'Total lag', num: true }], rows,
  { id: 'groups', caption: 'Consumer groups', empty: 'No consumer group.' });
}
