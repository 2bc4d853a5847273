// The floor under the floor: bare node:http, no router, no features.
import { createServer } from 'node:http';
import { createdUser, HELLO, HOST, PORT, userOf } from './bodies.mjs';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

function send(res, status, body) {
  res.writeHead(status, JSON_TYPE);
  res.end(JSON.stringify(body));
}

createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/hello') return send(res, 200, HELLO);
  if (req.method === 'GET' && req.url.startsWith('/users/')) {
    return send(res, 200, userOf(Number(req.url.slice('/users/'.length))));
  }
  if (req.method === 'POST' && req.url === '/users') {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => send(res, 201, createdUser(JSON.parse(raw))));
    return;
  }
  send(res, 404, { message: 'not found' });
}).listen(PORT, HOST);
