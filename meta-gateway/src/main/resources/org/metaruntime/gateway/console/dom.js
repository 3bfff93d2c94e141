// Builds elements with text only: nothing from the gateway is ever parsed as HTML.
export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

export function cell(row, label, text, className) {
  const td = el('td', text, className);
  td.dataset.label = label;
  row.appendChild(td);
  return td;
}

export function replaceRows(tbody, rows) {
  tbody.replaceChildren(...rows);
}

export function duration(seconds) {
  if (seconds === null || seconds === undefined) return '';
  if (seconds < 60) return seconds + ' s';
  if (seconds < 3600) return Math.floor(seconds / 60) + ' min';
  return Math.floor(seconds / 3600) + ' h ' + Math.floor((seconds % 3600) / 60) + ' min';
}

export function ms(value) {
  if (value === null || value === undefined) return '';
  return (value >= 100 ? Math.round(value) : Math.round(value * 10) / 10) + ' ms';
}

const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

// A time of day in the reader's locale (one formatter for the page: making one per value is slow).
export function clock(epochMs) {
  return TIME.format(new Date(epochMs));
}
