// Topic: partitions, configs (with sources; edit), message browser, delete-records and produce-a-test-message.

import { api, enc } from './api.js';
import { action, clear, errorBox, fmtBytes, fmtNumber, fmtTime, h, kv, section, table } from './ui.js';

export async function topicPage(main, ctx, name) {
  document.title = `${name} · Topics · kaas console`;
  const t = await api.get('/topics/' + enc(name));
  if (!ctx.live) return;
  const reload = () => {
    if (ctx.live) window.dispatchEvent(new HashChangeEvent('hashchange'));
  };
  const partitions = (t.partitions || []).slice().sort((a, b) => a.partition - b.partition);
  const elsewhere = partitions.filter(p => !known(p)).length;
  const totals = partitions.filter(known).reduce((acc, p) => ({
    messages: acc.messages + count(p), size: acc.size + (p.sizeBytes || 0),
  }), { messages: 0, size: 0 });
  clear(main,
    h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: '#/topics' }, 'Topics'), ' / '),
    h('div', { class: 'page-head' },
      h('h1', { id: 'topic-name', text: t.name }),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'secondary', id: 'produce', onclick: () => produce(t, partitions, reload) },
          'Produce a test message'),
        h('button', { type: 'button', class: 'danger', id: 'delete-records', onclick: () => deleteRecords(t, partitions, reload) },
          'Delete records'))),
    kv([
      ['Topic id', h('code', { text: t.topicId || '–' })],
      ['Internal', t.internal ? 'yes' : 'no'],
      ['Partitions', fmtNumber(partitions.length)],
      ['Messages', `${fmtNumber(totals.messages)} (end − start offsets)${elsewhere ? `, without the ${elsewhere} `
        + `partition${elsewhere === 1 ? '' : 's'} whose offsets are not known` : ''}`],
      ['Size', fmtBytes(totals.size)],
    ]),
    section('Partitions', table([{ label: 'Partition', num: true }, { label: 'Leader', num: true },
      { label: 'Leader epoch', num: true }, { label: 'Start offset', num: true }, { label: 'End offset', num: true },
      { label: 'Messages', num: true }, { label: 'Size', num: true }, { label: 'Error' }],
    partitions.map(p => [String(p.partition), p.leader === null || p.leader < 0 ? 'none' : String(p.leader),
      String(p.leaderEpoch ?? '–'), fmtNumber(p.startOffset), fmtNumber(p.endOffset),
      known(p) ? fmtNumber(count(p)) : '–', fmtBytes(p.sizeBytes),
      p.error ? h('span', { class: 'error-text', text: p.error }) : '']),
    { id: 'partitions', caption: 'Partitions' })),
    messageBrowser(t, partitions, ctx),
    section('Configs', configTable(t, reload)));
}

/** Whether the partition's offsets are known (null when its leader did not answer, or it has none). */
function known(p) {
  return p.startOffset !== null && p.startOffset !== undefined && p.endOffset !== null && p.endOffset !== undefined;
}

function count(p) {
  return Math.max(0, p.endOffset - p.startOffset);
}

function configTable(t, reload) {
  // the topic's own values first, then every other config by name
  const own = c => (c.source === 'DYNAMIC_TOPIC_CONFIG' ? 0 : 1);
  const configs = (t.configs || []).slice().sort((a, b) => own(a) - own(b) || a.name.localeCompare(b.name));
  return table([{ label: 'Name' }, { label: 'Value' }, { label: 'Source' }, { label: '' }], configs.map(c => [
    h('code', { text: c.name }),
    c.sensitive ? h('span', { class: 'muted', text: '(sensitive)' }) : h('code', { class: 'value', text: c.value ?? 'null' }),
    h('span', { class: c.source === 'DYNAMIC_TOPIC_CONFIG' ? 'badge ok-badge' : 'badge', text: c.source || '–' }),
    c.readOnly ? h('span', { class: 'muted', text: 'read-only' })
      : h('button', { type: 'button', class: 'link', 'aria-label': `Edit ${c.name}`, onclick: () => editConfig(t, c, reload) },
        'Edit'),
  ]), { id: 'configs', caption: 'Configs' });
}

function editConfig(t, c, reload) {
  const dynamic = c.source === 'DYNAMIC_TOPIC_CONFIG';
  action({
    title: `Change ${c.name}`,
    submitLabel: 'Change config',
    fields: [
      { name: 'value', label: `New value of ${c.name}`, value: c.sensitive ? '' : (c.value ?? ''),
        help: `Now ${c.sensitive ? '(sensitive)' : c.value} from ${c.source}.` },
      ...(dynamic ? [{ name: 'reset', label: 'Remove the topic\'s own value (back to the default)', type: 'checkbox' }] : []),
    ],
    describe(v) {
      if (v.reset) return `${c.name} will be removed from topic "${t.name}"'s configs; the topic then uses the broker's default.`;
      return `${c.name} of topic "${t.name}" will be set to "${v.value}" (now ${c.sensitive ? 'a sensitive value' : `"${c.value}"`}).`;
    },
    run: v => api.patch(`/topics/${enc(t.name)}/configs`, v.reset ? { set: {}, delete: [c.name] } : { set: { [c.name]: v.value }, delete: [] }),
    done: (r, v) => (v.reset ? `${c.name} was removed from topic "${t.name}".` : `${c.name} is now "${v.value}".`),
    onDone: reload,
  });
}

function partitionOptions(partitions) {
  return partitions.map(p => [String(p.partition), known(p) ? `${p.partition} (offsets ${p.startOffset}–${p.endOffset})`
    : `${p.partition} (led by broker ${p.leader})`]);
}

function deleteRecords(t, partitions, reload) {
  action({
    title: `Delete records of ${t.name}`,
    submitLabel: 'Delete records',
    fields: [
      { name: 'partition', label: 'Partition', type: 'select', options: partitionOptions(partitions),
        value: partitions.length ? String(partitions[0].partition) : '' },
      { name: 'beforeOffset', label: 'Delete every record before offset', type: 'number', min: 0, required: true,
        help: 'At most the partition\'s end offset (shown above); the end offset deletes every record.' },
    ],
    describe(v) {
      const p = partitions.find(x => String(x.partition) === String(v.partition));
      const off = Number(v.beforeOffset);
      if (!p) throw new Error('choose a partition');
      if (v.beforeOffset === '' || !Number.isInteger(off) || off < 0) throw new Error('the offset must be a whole number, 0 or more');
      const upTo = off;
      if (!known(p)) {
        return `Every record of "${t.name}" partition ${p.partition} before offset ${upTo} will be deleted. `
          + 'This cannot be undone.';
      }
      const gone = Math.max(0, upTo - p.startOffset);
      return `Every record of "${t.name}" partition ${p.partition} before offset ${upTo} will be deleted `
        + `(about ${fmtNumber(gone)} record${gone === 1 ? '' : 's'}; the partition now starts at ${p.startOffset}). `
        + 'This cannot be undone.';
    },
    run: v => api.post(`/topics/${enc(t.name)}/delete-records`, { partition: Number(v.partition), beforeOffset: Number(v.beforeOffset) }),
    done: (r, v) => `Partition ${v.partition} now starts at offset ${r && r.lowWatermark !== undefined ? r.lowWatermark : '?'}.`,
    onDone: reload,
  });
}

function produce(t, partitions, reload) {
  action({
    title: `Produce a test message to ${t.name}`,
    submitLabel: 'Produce',
    fields: [
      { name: 'partition', label: 'Partition', type: 'select',
        options: [['', 'chosen by the broker (key hash or round robin)'], ...partitionOptions(partitions)], value: '' },
      { name: 'key', label: 'Key (empty: no key)' },
      { name: 'value', label: 'Value', type: 'textarea', rows: 5 },
      { name: 'headers', label: 'Headers, one key=value a line', type: 'textarea', rows: 2 },
    ],
    describe(v) {
      const headers = parseHeaders(v.headers);
      const n = Object.keys(headers).length;
      return `One message will be appended to "${t.name}"${v.partition === '' ? '' : ` partition ${v.partition}`}: `
        + `key ${v.key === '' ? 'none' : `"${v.key}"`}, a value of ${new TextEncoder().encode(v.value).length} bytes`
        + `${n ? `, ${n} header${n === 1 ? '' : 's'}` : ''}. Consumers of the topic will receive it.`;
    },
    run(v) {
      const body = { key: v.key === '' ? null : v.key, value: v.value, headers: parseHeaders(v.headers) };
      if (v.partition !== '') body.partition = Number(v.partition);
      return api.post(`/topics/${enc(t.name)}/messages`, body);
    },
    done: r => `Written to partition ${r.partition} at offset ${r.offset}.`,
    onDone: reload,
  });
}

function parseHeaders(text) {
  const headers = {};
  text.split('\n').map(l => l.trim()).filter(Boolean).forEach(l => {
    const i = l.indexOf('=');
    if (i <= 0) throw new Error(`header "${l}" is not key=value`);
    headers[l.slice(0, i).trim()] = l.slice(i + 1);
  });
  return headers;
}

// ---- the message browser ----

function messageBrowser(t, partitions, ctx) {
  const ids = { partition: 'mb-partition', from: 'mb-from', offset: 'mb-offset', timestamp: 'mb-timestamp', limit: 'mb-limit' };
  const partition = h('select', { id: ids.partition }, h('option', { value: 'all' }, 'all'),
    partitions.map(p => h('option', { value: String(p.partition) }, String(p.partition))));
  const from = h('select', { id: ids.from },
    h('option', { value: 'newest' }, 'newest'), h('option', { value: 'offset' }, 'from offset'),
    h('option', { value: 'timestamp' }, 'from timestamp'));
  const offset = h('input', { id: ids.offset, type: 'number', min: 0, value: '0' });
  const timestamp = h('input', { id: ids.timestamp, type: 'datetime-local', step: '1' });
  const limit = h('select', { id: ids.limit }, ['20', '50', '100', '200', '500'].map(n =>
    h('option', { value: n, selected: n === '50' }, n)));
  const offsetField = h('span', { class: 'field inline', hidden: true }, h('label', { for: ids.offset, text: 'Offset' }), offset);
  const tsField = h('span', { class: 'field inline', hidden: true }, h('label', { for: ids.timestamp, text: 'Timestamp' }), timestamp);
  const out = h('div', { id: 'messages', 'aria-live': 'polite' });
  const more = h('div');
  from.addEventListener('change', () => {
    offsetField.hidden = from.value !== 'offset';
    tsField.hidden = from.value !== 'timestamp';
  });
  let seq = 0;
  async function load(params, appendTo) {
    const mine = ++seq;
    if (!appendTo) clear(out, h('p', { class: 'muted', text: 'Reading…' }));
    try {
      const r = await api.get(`/topics/${enc(t.name)}/messages`, params);
      if (!ctx.live || mine !== seq) return;
      const msgs = r.messages || [];
      if (!appendTo) clear(out);
      (r.errors || []).forEach(e => out.appendChild(h('p', { class: 'error',
        text: `Partition ${e.partition} not read: ${e.error}` })));
      if (!msgs.length && !appendTo) out.appendChild(h('p', { class: 'muted', text: 'No message in this range.' }));
      msgs.forEach(m => out.appendChild(messageCard(t, m)));
      clear(more);
      const next = r.next && r.next.partition ? r.next.partition : null;
      if (params.partition !== 'all' && params.from !== 'newest' && next && next[params.partition] !== undefined && msgs.length >= Number(params.limit)) {
        more.appendChild(h('button', { type: 'button', class: 'secondary', onclick: () =>
          load({ ...params, from: 'offset', offset: next[params.partition] }, true) }, 'Load the next messages'));
      }
    } catch (err) {
      if (ctx.live && mine === seq) clear(out, errorBox(err));
    }
  }
  const form = h('form', { class: 'toolbar', id: 'browse', onsubmit: e => {
    e.preventDefault();
    const params = { partition: partition.value, from: from.value, limit: limit.value };
    if (from.value === 'offset') params.offset = offset.value || '0';
    if (from.value === 'timestamp') {
      const ms = timestamp.value ? new Date(timestamp.value).getTime() : NaN;
      if (!Number.isFinite(ms)) {
        clear(out, h('div', { class: 'error', role: 'alert', text: 'Choose a timestamp first.' }));
        return;
      }
      params.timestamp = ms;
    }
    load(params);
  } },
    h('span', { class: 'field inline' }, h('label', { for: ids.partition, text: 'Partition' }), partition),
    h('span', { class: 'field inline' }, h('label', { for: ids.from, text: 'Read' }), from),
    offsetField, tsField,
    h('span', { class: 'field inline' }, h('label', { for: ids.limit, text: 'At most' }), limit),
    h('button', { type: 'submit', class: 'primary' }, 'Show messages'));
  load({ partition: 'all', from: 'newest', limit: '50' });
  return section('Messages', form, out, more);
}

function messageCard(t, m) {
  const headers = m.headers || [];
  const card = h('article', { class: 'message', 'data-partition': m.partition, 'data-offset': m.offset },
    h('header', {},
      h('span', { class: 'pos', text: `partition ${m.partition} · offset ${m.offset}` }),
      h('time', { datetime: new Date(m.timestamp).toISOString(),
        text: `${fmtTime(m.timestamp)}${m.timestampType === 'LOG_APPEND_TIME' ? ' (log append time)' : ''}` })),
    h('div', { class: 'field-label', text: 'Key' }), payload(m.key, 'key'),
    h('div', { class: 'field-label', text: 'Value' }), payload(m.value, 'value', () => showAll(t, m, card)),
    headers.length ? h('div', { class: 'field-label', text: `Headers (${headers.length})` }) : null,
    headers.length ? h('dl', { class: 'headers' }, headers.flatMap(x => [h('dt', {}, x.key), h('dd', {}, payload(x.value, 'header'))]))
      : null);
  return card;
}

function payload(p, what, onShowAll) {
  if (p === null || p === undefined) return h('div', { class: `payload ${what} null`, text: 'null' });
  const label = p.encoding === 'json' ? 'JSON' : p.encoding === 'hex' ? 'hex' : 'text';
  return h('div', { class: `payload ${what} enc-${p.encoding}` },
    h('span', { class: 'enc', title: `${p.sizeBytes} bytes`, text: `${label} · ${fmtBytes(p.sizeBytes)}` }),
    h('pre', { class: 'payload-text', text: p.text }),
    p.truncated ? h('p', { class: 'truncated' }, `Shown truncated (${fmtBytes(p.sizeBytes)} in all). `,
      onShowAll ? h('button', { type: 'button', class: 'link show-all', onclick: onShowAll }, 'Show all') : null) : null);
}

async function showAll(t, m, card) {
  try {
    const full = await api.get(`/topics/${enc(t.name)}/partitions/${m.partition}/messages/${m.offset}`);
    card.replaceWith(messageCard(t, full));
  } catch (err) {
    card.appendChild(errorBox(err));
  }
}
