/**
 * @module The baseline of the throughput benchmark: bare node:http in its own process, answering
 * every request with the status, headers and body the parent sends over IPC (the bytes
 * firewarden answered for the route being measured).
 */
import http from 'node:http';

let answer = { status: 200, headers: {}, body: '' };
const server = http.createServer((_request, response) => {
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
});
server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
process.on('message', (message) => {
  answer = message;
  process.send({ type: 'ready' });
});
process.on('disconnect', () => process.exit(0));
