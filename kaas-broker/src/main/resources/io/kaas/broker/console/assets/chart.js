// Small hand-drawn SVG line charts: a time axis (the last windowMs), a y axis from 0, one line per series.

import { h } from './ui.js';

const SVG = 'http://www.w3.org/2000/svg';

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function niceMax(v) {
  if (!(v > 0)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 2.5, 5, 10]) {
    if (v <= m * p) return m * p;
  }
  return 10 * p;
}

function short(v, unit) {
  const abs = Math.abs(v);
  let text;
  if (unit === 'B/s') {
    const units = ['B/s', 'KiB/s', 'MiB/s', 'GiB/s'];
    let x = v;
    let i = 0;
    while (Math.abs(x) >= 1024 && i < units.length - 1) {
      x /= 1024;
      i++;
    }
    return `${x >= 100 || Number.isInteger(x) ? Math.round(x) : x.toFixed(1)} ${units[i]}`;
  }
  if (abs >= 1e9) text = (v / 1e9).toFixed(1) + 'G';
  else if (abs >= 1e6) text = (v / 1e6).toFixed(1) + 'M';
  else if (abs >= 1e4) text = (v / 1e3).toFixed(0) + 'k';
  else if (abs >= 100 || Number.isInteger(v)) text = String(Math.round(v));
  else text = v.toFixed(abs < 1 ? 2 : 1);
  return unit ? `${text} ${unit}` : text;
}

/**
 * A chart figure: title, legend with each series' latest value, and the SVG.
 * series: [{label, points: [[tsMs, value], ...]}]; unit: '/s', 'B/s', 'ms' or ''.
 */
export function lineChart({ title, series, unit, windowMs, nowMs, id, width }) {
  const W = Math.max(260, Math.round(width || 480));
  const H = 170;
  const pad = { l: 58, r: 10, t: 10, b: 24 };
  const now = nowMs || Date.now();
  const from = now - windowMs;
  let max = 0;
  for (const ser of series) {
    for (const [t, v] of ser.points || []) {
      if (t >= from && v !== null && Number.isFinite(v)) max = Math.max(max, v);
    }
  }
  max = niceMax(max);
  const x = t => pad.l + ((t - from) / windowMs) * (W - pad.l - pad.r);
  const y = v => pad.t + (1 - v / max) * (H - pad.t - pad.b);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'chart', role: 'img',
    'aria-label': `${title}: ` + series.map(ser => `${ser.label} ${latestText(ser, unit)}`).join(', ') });
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    svg.appendChild(s('line', { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), class: 'grid' }));
    svg.appendChild(s('text', { x: pad.l - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, short(v, unit)));
  }
  const minutes = Math.round(windowMs / 60000);
  const step = minutes > 10 ? 5 : 1;
  for (let m = minutes; m >= 0; m -= step) {
    const t = now - m * 60000;
    svg.appendChild(s('text', { x: x(t), y: H - 6, 'text-anchor': m === minutes ? 'start' : m === 0 ? 'end' : 'middle',
      class: 'axis' }, m === 0 ? 'now' : `-${m} min`));
  }
  series.forEach((ser, i) => {
    const pts = (ser.points || []).filter(([t, v]) => t >= from && v !== null && Number.isFinite(v));
    if (pts.length === 1) {
      svg.appendChild(s('circle', { cx: x(pts[0][0]), cy: y(pts[0][1]), r: 2.5, class: `dot s${i}` }));
    } else if (pts.length > 1) {
      const d = pts.map(([t, v], j) => `${j ? 'L' : 'M'}${x(t).toFixed(1)},${y(v).toFixed(1)}`).join('');
      svg.appendChild(s('path', { d, class: `line s${i}` }));
    }
  });
  return h('figure', { class: 'chart-box', id },
    h('figcaption', {},
      h('span', { class: 'chart-title', text: title }),
      h('span', { class: 'legend' }, series.map((ser, i) =>
        h('span', { class: `key k${i}` }, h('span', { class: 'swatch', 'aria-hidden': 'true' }),
          `${ser.label} `, h('b', { text: latestText(ser, unit) }))))),
    svg);
}

function latestText(ser, unit) {
  const pts = (ser.points || []).filter(p => p[1] !== null && Number.isFinite(p[1]));
  if (!pts.length) return 'no data yet';
  return short(pts[pts.length - 1][1], unit);
}
