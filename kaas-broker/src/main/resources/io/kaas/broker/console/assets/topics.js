// Topics: a searchable table and the create-topic action.

import { api, enc } from './api.js';
import { action, clear, errorBox, fmtAgo, fmtBytes, fmtDuration, fmtNumber, h, table } from './ui.js';

let lastQuery = '';
let lastInternal = false;

export async function topicsPage(main, ctx) {
  document.title = 'Topics · kaas console';
  const search = h('input', { type: 'search', id: 'topic-search', value: lastQuery, placeholder: 'part of a name',
    autocomplete: 'off', spellcheck: 'false' });
  const internal = h('input', { type: 'checkbox', id: 'topic-internal', checked: lastInternal });
  const results = h('div', { id: 'topics-result', 'aria-live': 'polite' });
  const create = h('button', { type: 'button', class: 'primary', id: 'create-topic', onclick: () => createTopic(load) },
    'Create topic');
  clear(main,
    h('div', { class: 'page-head' }, h('h1', { text: 'Topics' }), create),
    h('form', { class: 'toolbar', role: 'search', onsubmit: e => {
      e.preventDefault();
      load();
    } },
      h('label', { for: 'topic-search', text: 'Search' }), search,
      h('span', { class: 'check' }, internal, h('label', { for: 'topic-internal', text: 'internal topics' })),
      h('button', { type: 'submit', class: 'secondary' }, 'Refresh')),
    results);

  let seq = 0;
  async function load() {
    lastQuery = search.value.trim();
    lastInternal = internal.checked;
    const mine = ++seq;
    try {
      const r = await api.get('/topics', { q: lastQuery, internal: lastInternal });
      if (ctx.live && mine === seq) clear(results, render(r.topics || []));
    } catch (err) {
      if (ctx.live && mine === seq) clear(results, errorBox(err));
    }
  }
  let debounce = null;
  search.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(load, 250);
  });
  internal.addEventListener('change', load);
  await load();
}

function render(topics) {
  const rows = topics.map(t => [
    h('a', { href: '#/topics/' + enc(t.name) }, t.name, t.internal ? h('span', { class: 'badge', text: 'internal' }) : null),
    fmtNumber(t.partitions), fmtNumber(t.messages), fmtBytes(t.sizeBytes), fmtDuration(t.retentionMs),
    t.cleanupPolicy || '–', t.lastWriteMs === null || t.lastWriteMs === undefined ? '–'
      : h('time', { datetime: new Date(t.lastWriteMs).toISOString(), title: new Date(t.lastWriteMs).toISOString() },
        fmtAgo(t.lastWriteMs)),
  ]);
  const partial = topics.filter(t => t.error);
  return [
    h('p', { class: 'muted', text: `${topics.length} topic${topics.length === 1 ? '' : 's'}` }),
    ...partial.map(t => h('p', { class: 'error', text: `${t.name}: not every partition counted (${t.error})` })),
    table([{ label: 'Name' }, { label: 'Partitions', num: true }, { label: 'Messages', num: true },
      { label: 'Size', num: true }, { label: 'Retention' }, { label: 'Cleanup policy' }, { label: 'Last write' }],
    rows, { id: 'topics', caption: 'Topics', empty: 'No topic matches.' }),
  ];
}

/** Parses "key=value" lines into an object; throws an Error naming the bad line. */
export function parseConfigLines(text) {
  const configs = {};
  text.split('\n').map(l => l.trim()).filter(l => l && !l.startsWith('#')).forEach(l => {
    const i = l.indexOf('=');
    if (i <= 0) throw new Error(`"${l}" is not key=value`);
    configs[l.slice(0, i).trim()] = l.slice(i + 1).trim();
  });
  return configs;
}

function createTopic(reload) {
  action({
    title: 'Create topic',
    submitLabel: 'Create topic',
    fields: [
      { name: 'name', label: 'Name', required: true, placeholder: 'orders' },
      { name: 'partitions', label: 'Partitions', type: 'number', value: '1', min: 1, required: true },
      { name: 'replicationFactor', label: 'Replication factor (empty: the broker default)', type: 'number', min: 1 },
      { name: 'configs', label: 'Configs, one key=value a line (optional)', type: 'textarea', rows: 3,
        placeholder: 'retention.ms=86400000\ncleanup.policy=compact' },
    ],
    describe(v) {
      const name = v.name.trim();
      if (!name) throw new Error('a topic needs a name');
      const partitions = Number(v.partitions);
      if (!Number.isInteger(partitions) || partitions < 1) throw new Error('partitions must be a whole number, 1 or more');
      const configs = parseConfigLines(v.configs);
      const keys = Object.entries(configs).map(([k, x]) => `${k}=${x}`);
      return `Topic "${name}" will be created with ${partitions} partition${partitions === 1 ? '' : 's'}`
        + (v.replicationFactor ? `, replication factor ${v.replicationFactor}` : '')
        + (keys.length ? ` and ${keys.join(', ')}` : ' and the broker\'s default configs') + '.';
    },
    run(v) {
      const body = { name: v.name.trim(), partitions: Number(v.partitions), configs: parseConfigLines(v.configs) };
      if (v.replicationFactor) body.replicationFactor = Number(v.replicationFactor);
      return api.post('/topics', body);
    },
    done: (r, v) => `Topic "${v.name.trim()}" was created.`,
    onDone: reload,
  });
}
