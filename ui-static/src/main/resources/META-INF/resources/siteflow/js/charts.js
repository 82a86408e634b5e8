// Thin helpers over ECharts (loaded as the classic script from the WebJar, global `echarts`).
// ECharts draws text on a canvas and HTML-escapes its default tooltips, so names stay text.

const charts = new Map();

/** The chart of a container, created on first use. */
export function chart(node) {
  let c = charts.get(node);
  if (!c) {
    c = window.echarts.init(node, null, {renderer: 'canvas'});
    charts.set(node, c);
  }
  return c;
}

export function resizeAll() {
  for (const c of charts.values()) c.resize();
}

window.addEventListener('resize', resizeAll);

export const TEXT = '#d8dee9';
export const GRID_LINE = '#3b4252';

export function axisStyle() {
  return {axisLabel: {color: TEXT}, axisLine: {lineStyle: {color: GRID_LINE}}, splitLine: {lineStyle: {color: GRID_LINE}}};
}
