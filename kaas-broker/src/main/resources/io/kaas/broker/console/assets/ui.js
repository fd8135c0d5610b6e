// DOM helpers, formatting, tables and dialogs. Text is always set as text (never parsed as HTML).

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'value') el.value = v;
    else if (k === 'checked' || k === 'disabled' || k === 'selected' || k === 'required') el[k] = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// ---- formatting ----

export function fmtNumber(n) {
  if (n === null || n === undefined) return '–';
  return Number(n).toLocaleString('en-US');
}

export function fmtBytes(n) {
  if (n === null || n === undefined || n < 0) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = Number(n);
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)} ${units[i]}`;
}

export function fmtDuration(ms) {
  if (ms === null || ms === undefined || ms === '') return '–';
  const n = Number(ms);
  if (n < 0) return 'forever';
  const units = [['d', 86400000], ['h', 3600000], ['min', 60000], ['s', 1000]];
  for (const [u, size] of units) {
    if (n >= size && n % size === 0) return `${n / size} ${u}`;
  }
  for (const [u, size] of units) {
    if (n >= size) return `${(n / size).toFixed(1)} ${u}`;
  }
  return `${n} ms`;
}

export function fmtTime(ms) {
  if (ms === null || ms === undefined || ms < 0) return '–';
  const d = new Date(Number(ms));
  const pad = (x, w = 2) => String(x).padStart(w, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:`
    + `${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function fmtUptime(ms) {
  if (ms === null || ms === undefined || ms < 0) return '–';
  const s = Math.floor(Number(ms) / 1000);
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  if (d) return `${d} d ${hh} h`;
  if (hh) return `${hh} h ${mm} min`;
  if (mm) return `${mm} min ${s % 60} s`;
  return `${s} s`;
}

export function fmtAgo(ms) {
  if (ms === null || ms === undefined || ms < 0) return '–';
  const s = Math.round((Date.now() - Number(ms)) / 1000);
  if (s < 0) return fmtTime(ms);
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

// ---- page furniture ----

export function errorBox(error) {
  const code = error && error.code && !String(error.code).startsWith('HTTP_') ? error.code : null;
  return h('div', { class: 'error', role: 'alert' },
    code ? h('strong', { text: code + ': ' }) : null,
    error && error.message ? error.message : String(error));
}

export function section(title, ...content) {
  return h('section', { class: 'card' }, h('h2', { text: title }), ...content);
}

/** A table: columns = [{label, num?}], rows = arrays of cell contents (text or nodes). */
export function table(columns, rows, { caption, empty = 'Nothing to show.', id } = {}) {
  if (!rows.length) return h('p', { class: 'muted', id }, empty);
  return h('div', { class: 'table-wrap' },
    h('table', { id },
      caption ? h('caption', { class: 'sr-only', text: caption }) : null,
      h('thead', {}, h('tr', {}, columns.map(c => h('th', { scope: 'col', class: c.num ? 'num' : null }, c.label)))),
      h('tbody', {}, rows.map(r => h('tr', {}, r.map((cell, i) =>
        h('td', { class: columns[i] && columns[i].num ? 'num' : null, 'data-label': columns[i] ? columns[i].label : null },
          cell)))))));
}

export function kv(pairs) {
  return h('dl', { class: 'kv' }, pairs.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', {}, v)]));
}

// ---- dialogs: each action is a form, then a confirmation saying what will happen, then the result ----

const dialog = () => document.getElementById('dialog');

function openDialog(content) {
  const d = dialog();
  clear(d, content);
  if (!d.open) d.showModal();
  const first = d.querySelector('[autofocus]') || d.querySelector('input, select, textarea, button');
  if (first) first.focus();
}

export function closeDialog() {
  const d = dialog();
  if (d.open) d.close();
}

/**
 * Opens an action: fields: [{name, label, type: text|number|select|textarea|checkbox, options, value, required,
 * help, min}], describe(values) -> text of what will happen (or throws Error with the reason the input is refused),
 * run(values) -> Promise of a result, done(result) -> text shown once it worked.
 */
export function action({ title, fields, submitLabel, describe, run, done, onDone }) {
  const values = {};
  for (const f of fields) values[f.name] = f.value !== undefined ? f.value : (f.type === 'checkbox' ? false : '');
  showForm();

  function showForm(problem) {
    const inputs = fields.map(f => fieldRow(f, values));
    const form = h('form', { method: 'dialog', class: 'dialog-body', onsubmit: e => {
      e.preventDefault();
      readForm(form);
      let text;
      try {
        text = describe(values);
      } catch (err) {
        showForm(err.message);
        return;
      }
      showConfirm(text);
    } },
      h('h2', { id: 'dialog-title', text: title }),
      problem ? h('div', { class: 'error', role: 'alert' }, problem) : null,
      inputs,
      h('div', { class: 'buttons' },
        h('button', { type: 'button', class: 'secondary', onclick: closeDialog }, 'Cancel'),
        h('button', { type: 'submit', class: 'primary' }, submitLabel + '…')));
    openDialog(form);
  }

  function readForm(form) {
    for (const f of fields) {
      const el = form.elements.namedItem(f.name);
      if (!el) continue;
      values[f.name] = f.type === 'checkbox' ? el.checked : el.value;
    }
  }

  function showConfirm(text) {
    const confirm = h('button', { type: 'submit', class: 'primary danger-ok', autofocus: true }, submitLabel);
    const form = h('form', { method: 'dialog', class: 'dialog-body', onsubmit: async e => {
      e.preventDefault();
      confirm.disabled = true;
      confirm.textContent = 'Working…';
      try {
        const result = await run(values);
        showDone(done ? done(result, values) : 'Done.');
        if (onDone) onDone(result);
      } catch (err) {
        showFailed(err);
      }
    } },
      h('h2', { id: 'dialog-title', text: 'Confirm: ' + title }),
      h('p', { class: 'confirm-text' }, text),
      h('div', { class: 'buttons' },
        h('button', { type: 'button', class: 'secondary', onclick: () => showForm() }, 'Back'),
        confirm));
    openDialog(form);
  }

  function showDone(text) {
    openDialog(h('form', { method: 'dialog', class: 'dialog-body' },
      h('h2', { id: 'dialog-title', text: title }),
      h('p', { class: 'ok', role: 'status' }, text),
      h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary', autofocus: true }, 'Close'))));
  }

  function showFailed(err) {
    openDialog(h('form', { method: 'dialog', class: 'dialog-body' },
      h('h2', { id: 'dialog-title', text: title + ' failed' }),
      errorBox(err),
      err && err.status >= 400 && err.status < 500 ? h('p', { class: 'muted' }, 'The broker refused it: nothing was changed.')
        : null,
      h('div', { class: 'buttons' },
        h('button', { type: 'submit', class: 'secondary' }, 'Close'),
        h('button', { type: 'button', class: 'primary', autofocus: true, onclick: () => showForm() }, 'Edit and retry'))));
  }
}

let fieldIds = 0;

function fieldRow(f, values) {
  const id = `f-${f.name}-${++fieldIds}`;
  const common = { id, name: f.name, required: f.required, 'aria-describedby': f.help ? id + '-help' : null };
  let input;
  if (f.type === 'select') {
    input = h('select', common, f.options.map(o => {
      const [v, label] = Array.isArray(o) ? o : [o, o];
      return h('option', { value: v, selected: String(values[f.name]) === String(v) }, label);
    }));
  } else if (f.type === 'textarea') {
    input = h('textarea', { ...common, rows: f.rows || 4, spellcheck: 'false' });
    input.value = values[f.name];
  } else if (f.type === 'checkbox') {
    input = h('input', { ...common, type: 'checkbox', checked: values[f.name] });
  } else {
    input = h('input', { ...common, type: f.type || 'text', value: values[f.name], min: f.min, placeholder: f.placeholder,
      autocomplete: 'off', spellcheck: 'false' });
  }
  const cls = f.type === 'checkbox' ? 'field check' : 'field';
  return h('div', { class: cls },
    h('label', { for: id, text: f.label }),
    input,
    f.help ? h('small', { id: id + '-help', class: 'muted', text: f.help }) : null);
}
