// The latency chart of one pod: calls per minute as bars, p95 as a line, over the last hour.
export function draw(canvas, minutes) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || canvas.width;
  const height = canvas.clientHeight || canvas.height;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  const pad = 28;
  const w = width - 2 * pad;
  const h = height - 2 * pad;
  const maxCalls = Math.max(1, ...minutes.map(m => m.calls));
  const maxP95 = Math.max(1, ...minutes.map(m => m.p95Ms || 0));
  const step = w / Math.max(1, minutes.length);
  g.fillStyle = '#9cc3e4';
  minutes.forEach((m, i) => {
    const bar = (m.calls / maxCalls) * h;
    g.fillRect(pad + i * step, pad + h - bar, Math.max(1, step - 1), bar);
  });
  g.strokeStyle = '#b3261e';
  g.lineWidth = 1.5;
  g.beginPath();
  let started = false;
  minutes.forEach((m, i) => {
    if (m.p95Ms === null) { started = false; return; }
    const x = pad + i * step + step / 2;
    const y = pad + h - (m.p95Ms / maxP95) * h;
    if (started) g.lineTo(x, y); else g.moveTo(x, y);
    started = true;
  });
  g.stroke();
  g.fillStyle = '#5d6878';
  g.font = '11px system-ui, sans-serif';
  g.fillText(maxCalls + ' calls/min', pad, pad - 8);
  const label = maxP95 + ' ms p95';
  g.fillText(label, width - pad - g.measureText(label).width, pad - 8);
  g.fillText('-60 min', pad, height - 8);
  g.fillText('now', width - pad - 20, height - 8);
  g.strokeStyle = '#d8dde4';
  g.strokeRect(pad, pad, w, h);
}
