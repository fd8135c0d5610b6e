// Group: members with assignments, committed offsets and lag per partition, lag over time, reset-offsets.

import { api, enc } from './api.js';
import { lineChart } from './chart.js';
import { action, clear, errorBox, fmtNumber, h, kv, section, table } from './ui.js';

export async function groupPage(main, ctx, id) {
  document.title = `${id} · Consumer groups · kaas console`;
  const body = h('div', { id: 'group-body' });
  clear(main,
    h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: '#/groups' }, 'Consumer groups'), ' / '),
    h('div', { class: 'page-head' }, h('h1', { id: 'group-id', text: id }),
      h('button', { type: 'button', class: 'danger', id: 'reset-offsets', onclick: () => resetOffsets(last, load) },
        'Reset offsets')),
    body);
  let last = null;
  async function load() {
    try {
      const g = await api.get('/groups/' + enc(id));
      last = g;
      if (ctx.live) clear(body, render(g, body));
    } catch (err) {
      if (ctx.live) clear(body, errorBox(err));
    }
  }
  await load();
  ctx.every(5000, load);
}

function render(g, body) {
  const offsets = (g.offsets || []).slice().sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  const width = Math.max((body.clientWidth || 600) - 56, 260);
  return [
    g.error ? h('p', { class: 'error', text: `Committed offsets not read: ${g.error}` }) : null,
    kv([
      ['State', h('span', { class: `state state-${String(g.state).toLowerCase()}`, text: g.state || '–' })],
      ['Protocol', `${g.protocol || '–'}${g.protocolType ? ' (' + g.protocolType + ')' : ''}`],
      ['Assignor', g.assignor || '–'],
      ['Coordinator', g.coordinator === null || g.coordinator === undefined ? '–' : `broker ${g.coordinator.id ?? g.coordinator}`],
      ['Total lag', h('strong', { id: 'total-lag', text: fmtNumber(g.totalLag) })],
    ]),
    section('Lag over time', lineChart({ id: 'lag-chart', title: 'Total lag', unit: '', windowMs: 900000,
      width, series: [{ label: 'lag', points: g.lagHistory || [] }] })),
    section('Members', table([{ label: 'Member' }, { label: 'Client id' }, { label: 'Host' }, { label: 'Assigned partitions' }],
      (g.members || []).map(m => [h('code', { text: m.memberId }), m.clientId || '–', m.host || '–',
        h('span', { class: 'listeners' }, (m.assignments || []).map(a => h('code', { text: `${a.topic}-${a.partition}` })))]),
      { id: 'members', caption: 'Members', empty: 'No member: the group is empty, its offsets can be reset.' })),
    section('Offsets and lag', table([{ label: 'Topic' }, { label: 'Partition', num: true }, { label: 'Committed', num: true },
      { label: 'End offset', num: true }, { label: 'Lag', num: true }], offsets.map(o => [
      h('a', { href: '#/topics/' + enc(o.topic) }, o.topic), String(o.partition),
      o.committed === null || o.committed === undefined || o.committed < 0 ? 'none' : fmtNumber(o.committed),
      fmtNumber(o.endOffset), o.lag === null || o.lag === undefined ? '–' : fmtNumber(o.lag)]),
    { id: 'offsets', caption: 'Committed offsets', empty: 'No committed offset.' })),
  ];
}

function resetOffsets(g, reload) {
  if (!g) return;
  const topics = [...new Set((g.offsets || []).map(o => o.topic))].sort();
  action({
    title: `Reset offsets of ${g.groupId}`,
    submitLabel: 'Reset offsets',
    fields: [
      { name: 'topic', label: 'Topic', type: topics.length ? 'select' : 'text', options: topics, value: topics[0] || '',
        required: true },
      { name: 'partitions', label: 'Partitions (comma separated; empty: all)', placeholder: '0, 1' },
      { name: 'to', label: 'Reset to', type: 'select', value: 'earliest',
        options: [['earliest', 'earliest offset'], ['latest', 'latest offset'], ['offset', 'a given offset'],
          ['timestamp', 'the first offset at or after a timestamp (ms)']] },
      { name: 'value', label: 'Offset or timestamp (for "a given offset" / "timestamp")', type: 'number' },
    ],
    describe(v) {
      if (!v.topic.trim()) throw new Error('choose a topic');
      const parts = parsePartitions(v.partitions);
      if ((v.to === 'offset' || v.to === 'timestamp') && (v.value === '' || !Number.isInteger(Number(v.value)))) {
        throw new Error(`resetting to ${v.to === 'offset' ? 'an offset' : 'a timestamp'} needs a whole number`);
      }
      const target = v.to === 'earliest' ? 'the earliest offset' : v.to === 'latest' ? 'the latest offset (skipping everything now there)'
        : v.to === 'offset' ? `offset ${v.value}` : `the first offset at or after ${new Date(Number(v.value)).toISOString()}`;
      return `Group "${g.groupId}" will resume ${parts ? 'partition' + (parts.length === 1 ? ' ' : 's ') + parts.join(', ')
        : 'every partition'} of "${v.topic.trim()}" from ${target}. The group must have no active member.`;
    },
    run(v) {
      const body = { topic: v.topic.trim(), partitions: parsePartitions(v.partitions), to: v.to };
      if (v.to === 'offset' || v.to === 'timestamp') body.value = Number(v.value);
      return api.post(`/groups/${enc(g.groupId)}/reset-offsets`, body);
    },
    done: () => `The offsets of group "${g.groupId}" were reset.`,
    onDone: reload,
  });
}

function parsePartitions(text) {
  const t = String(text || '').trim();
  if (!t) return null;
  return t.split(/[\s,]+/).filter(Boolean).map(x => {
    const n = Number(x);
    if (!Number.isInteger(n) || n < 0) throw new Error(`"${x}" is not a partition number`);
    return n;
  });
}
