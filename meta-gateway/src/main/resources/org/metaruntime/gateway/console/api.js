// Requests to the gateway with the token kept in session storage (never in a URL or cookie).
const KEY = 'meta-gateway-console-token';

export class Unauthorized extends Error {
  constructor(hadToken) { super(hadToken ? 'the token was refused' : 'a token is needed'); this.hadToken = hadToken; }
}
export class Disconnected extends Error {}

export function token() { return sessionStorage.getItem(KEY); }
export function setToken(value) { sessionStorage.setItem(KEY, value); }
export function clearToken() { sessionStorage.removeItem(KEY); }

export function headers() {
  const t = token();
  return t ? { Authorization: 'Bearer ' + t } : {};
}

export async function get(path) {
  let response;
  try {
    response = await fetch(path, { headers: headers(), cache: 'no-store', credentials: 'omit' });
  } catch (e) {
    throw new Disconnected(String(e));
  }
  if (response.status === 401) {
    throw new Unauthorized(token() !== null);
  }
  if (response.status >= 500) {
    throw new Disconnected('HTTP ' + response.status);
  }
  const body = await response.json();
  if (!response.ok) {
    throw new Error(body.error_description || body.error || ('HTTP ' + response.status));
  }
  return body;
}
