// A real OpenID provider (oidc-provider) on 127.0.0.1 for the gateway's OAuth tests: one client-credentials client
// (ci-client / ci-secret-0123456789) whose access tokens are RS256 JWTs for one resource indicator. It prints one JSON
// line {"issuer": "http://127.0.0.1:PORT"} on stdout when it listens, and ends when its stdin closes.
// GET /test/forge?case=NAME answers a token made with jose for the bad cases (and two good ones):
//   resource-audience (aud is the resource URL), no-scope, expired, wrong-audience, wrong-issuer, alg-none, hs256,
//   wrong-key (another key with the provider's key id), unknown-kid.
// Usage: node oidc.mjs --audience AUD --resource URL --scope "S1 S2"
import http from 'node:http';
import Provider from 'oidc-provider';
import * as jose from 'jose';

const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const audience = option('--audience', 'meta-gateway');
const resource = option('--resource', 'https://gateway.example/mcp');
const scope = option('--scope', 'mcp:tools');

const rsa = await jose.generateKeyPair('RS256', { extractable: true });
const ec = await jose.generateKeyPair('ES256', { extractable: true });
const rsaJwk = { ...(await jose.exportJWK(rsa.privateKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' };
const ecJwk = { ...(await jose.exportJWK(ec.privateKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' };

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [{
    client_id: 'ci-client',
    client_secret: 'ci-secret-0123456789',
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    token_endpoint_auth_method: 'client_secret_basic',
  }],
  jwks: { keys: [rsaJwk, ecJwk] },
  scopes: scope.split(' '),
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope,
        audience,
        accessTokenFormat: 'jwt',
        accessTokenTTL: 300,
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
});
provider.on('server_error', (ctx, error) => console.error('oidc server_error', error));
const serveProvider = provider.callback();

const now = () => Math.floor(Date.now() / 1000);
async function forge(name) {
  const claims = { scope, client_id: 'forger' };
  const sign = (key, kid, alg = 'RS256') => ({ key, kid, alg });
  let iss = issuer;
  let aud = audience;
  let exp = now() + 300;
  let with_ = sign(rsa.privateKey, 'rsa-1');
  switch (name) {
    case 'resource-audience': aud = resource; break;
    case 'no-scope': delete claims.scope; break;
    case 'expired': exp = now() - 600; break;
    case 'wrong-audience': aud = 'someone-else'; break;
    case 'wrong-issuer': iss = 'http://127.0.0.1:1/other'; break;
    case 'wrong-key': with_ = sign((await jose.generateKeyPair('RS256')).privateKey, 'rsa-1'); break;
    case 'unknown-kid': with_ = sign((await jose.generateKeyPair('RS256')).privateKey, 'rsa-unknown'); break;
    case 'hs256': with_ = sign(new TextEncoder().encode('a-shared-secret-of-32-bytes-long'), 'rsa-1', 'HS256'); break;
    case 'alg-none':
      return new jose.UnsecuredJWT(claims).setIssuer(iss).setAudience(aud).setSubject('forged')
        .setIssuedAt().setExpirationTime(exp).encode();
    default: throw new Error(`no such case ${name}`);
  }
  return new jose.SignJWT(claims).setProtectedHeader({ alg: with_.alg, kid: with_.kid, typ: 'at+jwt' })
    .setIssuer(iss).setAudience(aud).setSubject('forged').setIssuedAt().setExpirationTime(exp).sign(with_.key);
}

server.on('request', (req, res) => {
  const url = new URL(req.url, issuer);
  if (url.pathname === '/test/forge') {
    forge(url.searchParams.get('case')).then(
      (token) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end(token); },
      (error) => { res.writeHead(400, { 'content-type': 'text/plain' }); res.end(String(error)); });
    return;
  }
  serveProvider(req, res);
});

console.log(JSON.stringify({ issuer }));
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
