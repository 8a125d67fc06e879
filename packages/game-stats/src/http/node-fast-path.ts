/**
 * @module The answer shortcut at the node:http level: a GET whose exact target was answered in
 * the current generation is written straight to the socket (same status, headers and body as the
 * app gave it, fresh metadata), without building a web Request and Response. Everything else goes
 * to the handler the server already had. Only for set-ups where every GET passes the request
 * gate unchanged (the same condition as the fetch-level shortcut).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AnswersByTarget } from './fragment-cache.js';
import { headersWith } from './headers-with.js';

export type DirectAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * Answers a request from `answers` when it can; returns whether it did. `inFlight` counts it
 * while its body is rendered, as the app's middleware would (health reports it).
 */
export function directAnswer(
  answers: AnswersByTarget,
  generation: () => string,
  inFlight: { count: number },
): DirectAnswer {
  return (request, response) => {
    if (request.method !== 'GET' || request.url === undefined) return false;
    const started = performance.now();
    const answer = answers.lookup(request.url, generation());
    if (!answer) return false;
    inFlight.count++;
    let body: string;
    try {
      body = answer.render(started);
    } finally {
      inFlight.count--;
    }
    response.writeHead(200, headersWith(answer.headers, 'content-length', Buffer.byteLength(body)));
    response.end(body);
    return true;
  };
}

/** Puts `answer` in front of the server's request handlers (the Hono adapter's). */
export function putInFront(server: Server, answer: DirectAnswer): void {
  const handlers = server.listeners('request') as ((
    request: IncomingMessage,
    response: ServerResponse,
  ) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (answer(request, response)) return;
    for (const handler of handlers) handler(request, response);
  });
}
