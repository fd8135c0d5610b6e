// Overview: brokers, storage engine, cluster store, authorizer, plugins, log dirs and the live charts.

import { api } from './api.js';
import { lineChart } from './chart.js';
import { clear, errorBox, fmtBytes, fmtNumber, fmtUptime, h, kv, section, table } from './ui.js';

const CHARTS = [
  { id: 'chart-messages', title: 'Messages per second', unit: '/s',
    series: [['in', 'messagesInPerSec'], ['out', 'messagesOutPerSec']] },
  { id: 'chart-bytes', title: 'Bytes per second', unit: 'B/s', series: [['in', 'bytesInPerSec'], ['out', 'bytesOutPerSec']] },
  { id: 'chart-latency', title: 'Request latency p99', unit: 'ms',
    series: [['produce', 'produceLatencyP99Ms'], ['fetch', 'fetchLatencyP99Ms']] },
  { id: 'chart-fsync', title: 'fsync latency p99', unit: 'ms', series: [['fsync', 'fsyncLatencyP99Ms']] },
];

export async function overviewPage(main, ctx) {
  document.title = 'Overview · kaas console';
  const info = h('div', { id: 'overview-info' });
  const more = h('div', { id: 'overview-more' });
  const charts = h('div', { class: 'charts', id: 'charts' }, h('p', { class: 'muted', text: 'Loading charts…' }));
  const chartError = h('div');
  clear(main, h('h1', { text: 'Overview' }), info,
    h('section', { class: 'card' }, h('h2', { text: 'Live (last 15 minutes, every 5 s)' }), chartError, charts), more);

  const loadInfo = async () => {
    try {
      const o = await api.get('/overview');
      if (ctx.live) {
        const [top, bottom] = renderInfo(o);
        clear(info, top);
        clear(more, bottom);
      }
    } catch (err) {
      if (ctx.live) clear(info, errorBox(err));
    }
  };
  let last = null;
  const loadCharts = async () => {
    try {
      last = await api.get('/charts');
      if (ctx.live) {
        clear(chartError);
        drawCharts(charts, last);
      }
    } catch (err) {
      if (ctx.live) clear(chartError, errorBox(err));
    }
  };
  await Promise.all([loadInfo(), loadCharts()]);
  ctx.every(5000, loadCharts);
  ctx.every(15000, loadInfo);
  let resizeTimer = null;
  const onResize = () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => ctx.live && last && drawCharts(charts, last), 150);
  };
  window.addEventListener('resize', onResize);
  const stop = ctx.stop;
  ctx.stop = () => {
    window.removeEventListener('resize', onResize);
    stop();
  };
}

function drawCharts(container, data) {
  const series = data.series || {};
  const estimated = data.estimated || {};
  const now = Date.now();
  const width = container.clientWidth >= 760 ? (container.clientWidth - 24) / 2 : container.clientWidth - 4;
  clear(container, CHARTS.map(c => lineChart({
    id: c.id, title: c.title, unit: c.unit, windowMs: data.windowMs || 900000, nowMs: now, width: width - 26,
    series: c.series.map(([label, key]) => ({ label: estimated[key] ? `${label} (estimated)` : label,
      points: series[key] || [] })),
  })));
}

function renderInfo(o) {
  const brokers = (o.brokers || []).map(b => [
    h('span', {}, String(b.id), b.id === o.self ? h('span', { class: 'badge', text: 'this broker' }) : null),
    h('span', { class: 'listeners' }, (b.listeners || []).map(l => h('code', { text: l }))),
    b.controller ? h('span', { class: 'badge ok-badge', text: 'controller' }) : '–',
    fmtNumber(b.partitionsLed),
    b.version || 'unknown',
    b.uptimeMs === null || b.uptimeMs === undefined ? 'unknown' : fmtUptime(b.uptimeMs),
    b.rack || '–',
  ]);
  const plugins = (o.plugins || []).map(p => [h('code', { text: p.id }), p.kind || '–', p.version || '–', p.state || '–',
    h('code', { class: 'path', text: p.path || '–' })]);
  const dirs = (o.logDirs || []).map(d => {
    const total = Number(d.totalBytes) || 0;
    const used = Number(d.usedBytes) || 0;
    const usedOfDisk = total > 0 ? total - (Number(d.usableBytes) || 0) : 0;
    const pct = total > 0 ? Math.round((usedOfDisk / total) * 100) : 0;
    const meter = h('meter', { min: 0, max: 100, value: pct, high: 85, optimum: 0, title: `disk ${pct}% full` });
    return [h('code', { class: 'path', text: d.path }), fmtBytes(used), fmtBytes(d.usableBytes), fmtBytes(total),
      h('span', { class: 'meter' }, meter, ` ${pct}%`)];
  });
  const engine = o.storageEngine ? `${o.storageEngine.name}${o.storageEngine.version ? ' ' + o.storageEngine.version : ''}` : '–';
  const store = o.clusterStore ? `${o.clusterStore.name}${o.clusterStore.version ? ' ' + o.clusterStore.version : ''}` : '–';
  return [[
    section('Cluster', kv([
      ['Cluster id', h('code', { text: o.clusterId || '–' })],
      ['Controller', o.controllerId === null || o.controllerId === undefined ? '–' : `broker ${o.controllerId}`],
      ['This broker', String(o.self)],
      ['Storage engine', engine],
      ['Cluster store', store],
      ['Authorizer', o.authorizer || 'none'],
    ])),
    section('Brokers', table([{ label: 'Id' }, { label: 'Listeners' }, { label: 'Controller' },
      { label: 'Partitions led', num: true }, { label: 'Version' }, { label: 'Uptime' }, { label: 'Rack' }], brokers,
    { id: 'brokers', caption: 'Brokers', empty: 'No broker registered.' }))], [
    section('Log directories', table([{ label: 'Path' }, { label: 'Used by kaas', num: true }, { label: 'Free', num: true },
      { label: 'Disk size', num: true }, { label: 'Disk full' }], dirs, { id: 'logdirs', caption: 'Log directories',
      empty: o.logDirs === null ? 'Not shown: describing the log directories needs DESCRIBE on the cluster.'
        : 'No log directory.' })),
    section('Plugins', table([{ label: 'Plugin' }, { label: 'Kind' }, { label: 'Version' }, { label: 'State' }, { label: 'Path' }], plugins,
      { id: 'plugins', caption: 'Plugins', empty: 'No plugin loaded: the built-in backends are in use.' }))]];
}
