// Per site pair: bandwidth each way (10 s rate) and handshake RTT (median, p95) against Oracle's 10 ms limit.
import {el, fill, byId, row} from '../dom.js';
import {rate, micros} from '../format.js';
import {chart, axisStyle, TEXT} from '../charts.js';

let last = [];

/** Fills the table; the chart is drawn only while the view is visible (ECharts on a hidden box is wasted work). */
export function renderLinks(links, visible) {
  last = links;
  fill(byId('links-table').tBodies[0], ...links.map((l) => row([
    l.siteA, l.siteB, [rate(l.aToBBps), 'num'], [rate(l.bToABps), 'num'],
    [l.rttMicros.samples ? micros(l.rttMicros.p50) : '–', 'num'],
    [l.rttMicros.samples ? micros(l.rttMicros.p95) : '–', 'num'],
    el('span', {class: 'badge ' + (l.aboveLimit ? 'FAIL' : 'PASS')}, l.aboveLimit ? 'above 10 ms' : 'within 10 ms'),
  ])));
  if (visible) drawLinksChart();
}

export function drawLinksChart() {
  const links = last;
  const names = links.map((l) => l.siteA + ' ↔ ' + l.siteB);
  chart(byId('links-chart')).setOption({
    animation: false,
    legend: {textStyle: {color: TEXT}},
    tooltip: {trigger: 'axis', valueFormatter: (x) => x + ' ms'},
    grid: {left: 60, right: 30, top: 40, bottom: 30},
    xAxis: {type: 'category', data: names, ...axisStyle()},
    yAxis: {type: 'value', name: 'ms', ...axisStyle()},
    series: [
      {name: 'RTT p50', type: 'bar', barMaxWidth: 60, data: links.map((l) => l.rttMicros.p50 / 1000), itemStyle: {color: '#88c0d0'}},
      {name: 'RTT p95', type: 'bar', barMaxWidth: 60, data: links.map((l) => l.rttMicros.p95 / 1000), itemStyle: {color: '#5e81ac'},
        markLine: {symbol: 'none', lineStyle: {color: '#bf616a', type: 'dashed'},
          label: {formatter: '10 ms limit', color: TEXT}, data: [{yAxis: 10}]}},
    ],
  }, true);
}
