/**
 * @module The ceiling the live-server benchmark compares each route with: bare node:http
 * answering the same status, headers and body as the route, in its own process like the
 * server. The body is set over IPC before each measurement.
 */
import http from 'node:http';

let body = '';
let headers = {};
const server = http.createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
process.on('message', (message) => {
  if (message?.type !== 'answer') return;
  body = message.body;
  headers = { ...message.headers, 'content-length': Buffer.byteLength(body) };
  process.send({ type: 'ready' });
});
process.on('disconnect', () => process.exit(0));
