// The console's JSON API (/api/v1 on the same origin). Every error becomes an ApiError carrying the API's message.

export class ApiError extends Error {
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

const BASE = new URL('../api/v1/', document.baseURI);

function url(path, params) {
  const u = new URL(path.replace(/^\//, ''), BASE);
  if (params) {
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined && v !== null && v !== '') u.searchParams.set(k, String(v));
    }
  }
  return u;
}

async function send(method, path, params, body) {
  const init = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.headers['X-Kaas-Console'] = '1';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url(path, params), init);
  } catch (e) {
    throw new ApiError(0, 'NETWORK', `cannot reach the broker's admin endpoint: ${e.message}`);
  }
  const text = await response.text();
  let json = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch (e) {
      json = null;
    }
  }
  if (!response.ok) {
    const code = json && json.error ? json.error : `HTTP_${response.status}`;
    const message = json && json.message ? json.message
      : `${method} ${path} answered HTTP ${response.status}${text ? ': ' + text.trim().slice(0, 300) : ''}`;
    throw new ApiError(response.status, code, message, json);
  }
  if (json === null && text) {
    throw new ApiError(response.status, 'BAD_RESPONSE', `${method} ${path} answered something that is not JSON`);
  }
  return json;
}

export const api = {
  get: (path, params) => send('GET', path, params),
  post: (path, body) => send('POST', path, undefined, body),
  patch: (path, body) => send('PATCH', path, undefined, body),
};

export const enc = encodeURIComponent;
